/**
 * Poster and storyboard: a JPEG at the chosen time (upright for a turned phone video, at most
 * 1280 wide), a storyboard sprite whose size matches its WebVTT's #xywh cues; and captions: SRT
 * converted to WebVTT, bad captions refused in words.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { captionsToVtt, makePoster, makeStoryboard, MediaInputError, probeSource, storyboardLayout } from './index';
import { ffprobeJson, makeClip } from './test-clips';

// Runs in the `unit` project (no database: once per `npm test`, not once per database side); ffmpeg needs more than its 5 s default.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const limits = { maxSeconds: 600, maxBytes: 2 ** 31 };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-pictures-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function pictureSize(file: string): Promise<{ codec: unknown; width: unknown; height: unknown }> {
  const parsed = await ffprobeJson(file);
  const streams: unknown = typeof parsed === 'object' && parsed !== null && 'streams' in parsed ? parsed.streams : [];
  const first: unknown = Array.isArray(streams) ? streams[0] : undefined;
  if (typeof first !== 'object' || first === null) return { codec: undefined, width: undefined, height: undefined };
  return {
    codec: 'codec_name' in first ? first.codec_name : undefined,
    width: 'width' in first ? first.width : undefined,
    height: 'height' in first ? first.height : undefined,
  };
}

describe('poster', () => {
  it('a JPEG at the chosen time, upright for a video turned 90°', async () => {
    const turned = await makeClip(dir, 'turned.mp4', { width: 640, height: 360, seconds: 2, rotate: 90, audio: false });
    const poster = join(dir, 'posters', 'turned.jpg');
    await makePoster(turned, poster, 1);
    expect(await pictureSize(poster)).toEqual({ codec: 'mjpeg', width: 360, height: 640 });
  });

  it('a time past the end falls back to the first picture; a wide source is scaled to 1280', async () => {
    const wide = await makeClip(dir, 'wide.mp4', { width: 1920, height: 1080, seconds: 1, audio: false });
    const poster = join(dir, 'wide.jpg');
    await makePoster(wide, poster, 30);
    expect(await pictureSize(poster)).toEqual({ codec: 'mjpeg', width: 1280, height: 720 });
  });
});

describe('storyboard', () => {
  it('one thumbnail per second in a 10-column sprite, and WebVTT cues pointing at each', async () => {
    const clip = await makeClip(dir, 'board.mp4', { width: 640, height: 360, seconds: 12, audio: false });
    const probed = await probeSource(clip, limits);
    const board = await makeStoryboard(clip, join(dir, 'board'), probed);
    expect(board).toEqual({ image: join(dir, 'board', 'storyboard.jpg'), vtt: join(dir, 'board', 'storyboard.vtt') });
    expect(await pictureSize(board.image)).toEqual({ codec: 'mjpeg', width: 1600, height: 180 });
    const vtt = await readFile(board.vtt, 'utf8');
    expect(vtt.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nstoryboard.jpg#xywh=0,0,160,90\n')).toBe(true);
    expect(vtt).toContain('00:00:10.000 --> 00:00:11.000\nstoryboard.jpg#xywh=0,90,160,90\n');
    expect(vtt).toContain('00:00:11.000 --> 00:00:12.000\nstoryboard.jpg#xywh=160,90,160,90\n');
    expect(vtt.match(/-->/g)).toHaveLength(12);
  });

  it('a turned phone video: portrait thumbnails even when the probe handed in says landscape without rotation', async () => {
    const turned = await makeClip(dir, 'board-turned.mp4', { width: 320, height: 180, seconds: 2, rotate: 90, audio: false });
    const probed = await probeSource(turned, limits);
    const board = await makeStoryboard(turned, join(dir, 'board-turned'), { ...probed, rotation: 0 });
    expect(await pictureSize(board.image)).toEqual({ codec: 'mjpeg', width: 320, height: 284 });
    expect(await readFile(board.vtt, 'utf8')).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nstoryboard.jpg#xywh=0,0,160,284\n\n00:00:01.000 --> 00:00:02.000\nstoryboard.jpg#xywh=160,0,160,284\n',
    );
  });

  it('a long video keeps at most 100 thumbnails (one every 36 s for an hour)', () => {
    const layout = storyboardLayout({
      durationSeconds: 3600, width: 1920, height: 1080, rotation: 0, fps: 25, hasVideo: true, hasAudio: true, sizeBytes: 1, videoCodec: 'h264', audioCodec: 'aac',
    });
    expect(layout).toEqual({ interval: 36, count: 100, columns: 10, rows: 10, thumbWidth: 160, thumbHeight: 90 });
  });
});

describe('captions', () => {
  it('SRT becomes WebVTT: dots for commas, cue numbers kept, CRLF and a BOM accepted', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\nworld\r\n\r\n2\r\n00:01:02,040 --> 00:01:03,000\r\nBye -->\r\n';
    expect(captionsToVtt(srt, 'srt')).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHello\nworld\n\n2\n00:01:02.040 --> 00:01:03.000\nBye →\n');
  });

  it('WebVTT is kept as written', () => {
    const vtt = 'WEBVTT\n\n00:00.500 --> 00:02.000 line:0\n<v Anna>Hi</v>\n';
    expect(captionsToVtt(vtt, 'vtt')).toBe(vtt);
  });

  it.each([
    ['', 'srt', 'captions_empty', 'The captions file is empty.'],
    ['   \n', 'vtt', 'captions_empty', 'The captions file is empty.'],
    ['1\n00:00:01,000 --> 00:00:02,000\nHi\n', 'vtt', 'captions_invalid', 'The captions file is not WebVTT: it must start with "WEBVTT".'],
    ['WEBVTT\n\nNOTE nothing here\n', 'vtt', 'captions_invalid', 'The captions file holds no caption with a start and an end time.'],
    ['1\n00:00:01 --> 00:00:02\nHi\n', 'srt', 'captions_invalid', MEDIA_ENCODE_MESSAGES.captionsBadTiming(2)],
    ['Just some text\nwith lines\n', 'srt', 'captions_invalid', 'The captions file has a cue time that cannot be read on line 2 (expected 00:00:01,000 --> 00:00:02,500).'],
    ['1\n00:00:05,000 --> 00:00:02,000\nHi\n', 'srt', 'captions_invalid', 'A caption ends before it starts on line 2.'],
    ['WEBVTT\n\n00:00:01.000 --> 00:00:75.000\nHi\n', 'vtt', 'captions_invalid', MEDIA_ENCODE_MESSAGES.captionsBadTiming(3)],
  ] as const)('%j (%s) is refused: %s', (text, format, code, message) => {
    let thrown: unknown;
    try {
      captionsToVtt(text, format);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MediaInputError);
    expect(thrown).toMatchObject({ code, message });
  });
});
