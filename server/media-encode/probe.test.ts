/**
 * The file check (probeSource): every bad input gets its words (common/messages/media.ts), the file
 * is judged by what it holds, not its name; rotation metadata gives the displayed orientation all the
 * way to the encoded renditions; odd frame rates (23.976, 29.97) are read and encode.
 */
import { copyFile, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { encodeRungs, ladderFor, MediaInputError, probeSource } from './index';
import { ffmpegPath } from './run';
import { ffprobeJson, makeClip } from './test-clips';

// Runs in the `unit` project (no database: once per `npm test`, not once per database side); ffmpeg needs more than its 5 s default.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const limits = { maxSeconds: 600, maxBytes: 2 ** 31 };
let dir: string;
let clip: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-probe-'));
  clip = await makeClip(dir, 'clip.mp4', { width: 320, height: 180, seconds: 3 });
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(file: string, given = limits): Promise<{ code: string; message: string }> {
  try {
    await probeSource(file, given);
  } catch (error) {
    if (error instanceof MediaInputError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${file} was accepted`);
}

describe('probeSource reads a good file', () => {
  it('duration, size, frame rate, codecs and sound', async () => {
    const probed = await probeSource(clip, limits);
    expect(probed).toMatchObject({ width: 320, height: 180, rotation: 0, fps: 25, hasVideo: true, hasAudio: true, videoCodec: 'h264', audioCodec: 'aac' });
    expect(probed.durationSeconds).toBeCloseTo(3, 1);
    expect(probed.sizeBytes).toBe((await readFile(clip)).length);
  });

  it('a video without sound: hasAudio false, a ladder without AAC in CODECS', async () => {
    const silent = await makeClip(dir, 'silent.mp4', { width: 320, height: 240, seconds: 1, audio: false });
    const probed = await probeSource(silent, limits);
    expect(probed).toMatchObject({ hasAudio: false, audioCodec: null });
    expect(ladderFor(probed)).toEqual([{ name: '240p', width: 320, height: 240, videoKbps: 400, audioKbps: 0, bandwidth: 550000, codecs: 'avc1.4d401e' }]);
  });

  it('a video smaller than the lowest rung gets one rendition at its own size', async () => {
    const probed = await probeSource(clip, limits);
    expect(ladderFor(probed).map((r) => `${r.name} ${r.width}x${r.height}`)).toEqual(['180p 320x180']);
  });
});

describe('probeSource refuses, in words', () => {
  it('a zero-byte file', async () => {
    const empty = join(dir, 'empty.mp4');
    await writeFile(empty, '');
    expect(await refusal(empty)).toEqual({ code: 'empty', message: 'The file is empty (0 bytes).' });
  });

  it('a text file renamed .mp4, and the same text named .txt', async () => {
    const renamed = join(dir, 'notes.mp4');
    await writeFile(renamed, 'Meeting notes\nnot a video\n'.repeat(50));
    expect(await refusal(renamed)).toEqual({ code: 'not_video', message: 'The file is not a video.' });
    const text = join(dir, 'notes.txt');
    await copyFile(renamed, text);
    expect(await refusal(text)).toEqual({ code: 'not_video', message: MEDIA_ENCODE_MESSAGES.notVideo });
  });

  it('a still picture (a JPEG) is not a video', async () => {
    const picture = join(dir, 'still.mp4');
    await copyFile(await makeStill(), picture);
    expect(await refusal(picture)).toEqual({ code: 'not_video', message: 'The file is not a video.' });
  });

  it('an MP4 cut off halfway, index at the end (no moov) and index first (faststart)', async () => {
    const cut = join(dir, 'cut.mp4');
    await copyFile(clip, cut);
    await truncate(cut, Math.floor((await readFile(clip)).length / 2));
    const words = 'The file is incomplete: it ends before the video does. Upload it again in full.';
    expect(await refusal(cut)).toEqual({ code: 'truncated', message: words });
    const fast = await makeClip(dir, 'fast.mp4', { width: 320, height: 180, seconds: 3, faststart: true });
    await truncate(fast, Math.floor((await readFile(fast)).length / 2));
    expect(await refusal(fast)).toEqual({ code: 'truncated', message: words });
  });

  it('sound only (an M4A)', async () => {
    const sound = await makeSoundOnly();
    expect(await refusal(sound)).toEqual({ code: 'no_picture', message: 'The video has no picture (it holds sound only).' });
  });

  it('past the site limits: too long, too big', async () => {
    expect(await refusal(clip, { maxSeconds: 2, maxBytes: 2 ** 31 })).toEqual({
      code: 'too_long',
      message: 'The video is too long: 3 s, this site takes up to 2 s.',
    });
    expect(await refusal(clip, { maxSeconds: 600, maxBytes: 1000 })).toMatchObject({
      code: 'too_big',
      message: expect.stringMatching(/^The file is too big: \d+(\.\d)? KB, this site takes up to 1000 bytes\.$/),
    });
  });

  it('words for the limits read like an operator writes them', () => {
    expect(MEDIA_ENCODE_MESSAGES.tooLong(4000, 3600)).toBe('The video is too long: 1 h 6 min 40 s, this site takes up to 1 h 0 min 0 s.');
    expect(MEDIA_ENCODE_MESSAGES.tooBig(6 * 1024 ** 3, 5 * 1024 ** 3)).toBe('The file is too big: 6 GB, this site takes up to 5 GB.');
    expect(MEDIA_ENCODE_MESSAGES.tooLong(75, 60)).toBe('The video is too long: 1 min 15 s, this site takes up to 1 min 0 s.');
  });
});

async function makeStill(): Promise<string> {
  const still = join(dir, 'still.jpg');
  const { execFile } = await import('node:child_process');
  await new Promise<void>((resolve, reject) =>
    execFile(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-frames:v', '1', still], (error) => (error ? reject(error) : resolve())),
  );
  return still;
}

async function makeSoundOnly(): Promise<string> {
  const sound = join(dir, 'sound.m4a');
  const { execFile } = await import('node:child_process');
  await new Promise<void>((resolve, reject) =>
    execFile(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'aac', sound], (error) => (error ? reject(error) : resolve())),
  );
  return sound;
}

interface Stream {
  codec_type?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  side_data_list?: unknown[];
}

async function videoStream(file: string): Promise<Stream | undefined> {
  const parsed = await ffprobeJson(file);
  const streams: unknown = typeof parsed === 'object' && parsed !== null && 'streams' in parsed ? parsed.streams : [];
  const list: Stream[] = Array.isArray(streams) ? streams : [];
  return list.find((s) => s.codec_type === 'video');
}

describe('rotation and frame rates', () => {
  it('a phone video turned 90°: portrait ladder, renditions upright with no rotation left in them', async () => {
    const turned = await makeClip(dir, 'turned.mp4', { width: 640, height: 360, seconds: 2, rotate: 90 });
    const probed = await probeSource(turned, limits);
    expect(probed).toMatchObject({ width: 640, height: 360 });
    expect([90, 270]).toContain(probed.rotation);
    const ladder = ladderFor(probed);
    expect(ladder.map((r) => `${r.name} ${r.width}x${r.height}`)).toEqual(['240p 240x426', '360p 360x640']);
    const out = join(dir, 'turned-out');
    await encodeRungs(turned, out, ladder, { preset: 'ultrafast', onProgress: () => undefined, onRungDone: () => undefined });
    const video = await videoStream(join(out, '360p', 'index.m3u8'));
    expect({ width: video?.width, height: video?.height, turned: video?.side_data_list }).toEqual({ width: 360, height: 640, turned: undefined });
  });

  it('upside down (180°) keeps the landscape size', async () => {
    const flipped = await makeClip(dir, 'flipped.mp4', { width: 320, height: 240, seconds: 1, rotate: 180 });
    const probed = await probeSource(flipped, limits);
    expect(probed.rotation).toBe(180);
    expect(ladderFor(probed).map((r) => `${r.width}x${r.height}`)).toEqual(['320x240']);
  });

  it.each([
    ['24000/1001', 23.976],
    ['30000/1001', 29.97],
  ])('frame rate %s: read as %s and encoded at the same rate', async (rate, fps) => {
    const odd = await makeClip(dir, `odd-${fps}.mp4`, { width: 426, height: 240, seconds: 2, fps: rate });
    const probed = await probeSource(odd, limits);
    expect(probed.fps).toBe(fps);
    const out = join(dir, `odd-out-${fps}`);
    await encodeRungs(odd, out, ladderFor(probed), { preset: 'ultrafast', segmentSeconds: 1, onProgress: () => undefined, onRungDone: () => undefined });
    const video = await videoStream(join(out, '240p', 'index.m3u8'));
    expect({ width: video?.width, height: video?.height, rate: video?.r_frame_rate }).toEqual({ width: 426, height: 240, rate });
    const playlist = await readFile(join(out, '240p', 'index.m3u8'), 'utf8');
    const durations = [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    expect(durations.reduce((sum, d) => sum + d, 0)).toBeCloseTo(2, 1);
    expect(durations.length).toBeGreaterThanOrEqual(2);
  });
});
