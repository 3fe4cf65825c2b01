/**
 * The HLS ladder read back by ffprobe: every rung's segments (fMP4: init + segment) have the
 * durations their playlist says, the rung's resolution and the profile/level its CODECS says; the
 * master playlist's BANDWIDTH is above every segment's measured bit rate; the lowest rung is done
 * first; progress climbs per rung; an AbortSignal stops ffmpeg; AES-128 segments are unreadable
 * without the key and readable with it. One 4 s 1080p clip, encoded once with ultrafast.
 */
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { encodeRungs, ladderFor, masterPlaylist, probeSource, type ProbeResult, type Rung } from './index';
import { ffprobeJson, makeClip } from './test-clips';

// Runs in the `unit` project (no database: once per `npm test`, not once per database side); ffmpeg needs more than its 5 s default.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

interface Probed {
  format?: { duration?: string; size?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; profile?: string; level?: number; nb_read_packets?: string }[];
}

async function probe(file: string, extra: string[] = []): Promise<Probed> {
  const parsed = await ffprobeJson(file, extra);
  return typeof parsed === 'object' && parsed !== null ? parsed : {};
}

function extinf(playlist: string): { duration: number; uri: string }[] {
  const lines = playlist.split('\n');
  const out: { duration: number; uri: string }[] = [];
  lines.forEach((line, index) => {
    const match = /^#EXTINF:([\d.]+),/.exec(line);
    if (match) out.push({ duration: Number(match[1]), uri: lines[index + 1] ?? '' });
  });
  return out;
}

const limits = { maxSeconds: 600, maxBytes: 2 ** 31 };
let dir: string;
let source: string;
let probed: ProbeResult;
let rungs: Rung[];
const events: { kind: 'progress' | 'done'; rung: string; fraction: number; at: number }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-encode-'));
  // 10 frames per second keeps the five-rung encode short; the odd rates are probe.test.ts's.
  source = await makeClip(dir, 'source-1080p.mp4', { width: 1920, height: 1080, seconds: 4, fps: '10' });
  probed = await probeSource(source, limits);
  rungs = ladderFor(probed);
  await encodeRungs(source, join(dir, 'out'), rungs, {
    segmentSeconds: 2,
    preset: 'ultrafast',
    onProgress: (rung, fraction) => events.push({ kind: 'progress', rung, fraction, at: performance.now() }),
    onRungDone: (rung) => events.push({ kind: 'done', rung, fraction: 1, at: performance.now() }),
  });
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the ladder of a 1080p source', () => {
  it('has five rungs, 240p to 1080p, in the displayed aspect with even sizes', () => {
    expect(rungs.map((r) => `${r.name} ${r.width}x${r.height}`)).toEqual([
      '240p 426x240',
      '360p 640x360',
      '480p 854x480',
      '720p 1280x720',
      '1080p 1920x1080',
    ]);
  });

  it('master playlist: BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION and CODECS of the done rungs only', () => {
    expect(masterPlaylist(rungs, ['240p', '720p'])).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:6',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=614000,AVERAGE-BANDWIDTH=464000,RESOLUTION=426x240,CODECS="avc1.4d401e,mp4a.40.2"',
        '240p/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=3978000,AVERAGE-BANDWIDTH=2928000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"',
        '720p/index.m3u8',
        '',
      ].join('\n'),
    );
    const full = masterPlaylist(rungs, rungs.map((r) => r.name));
    expect(full).toContain('BANDWIDTH=7003000,AVERAGE-BANDWIDTH=5128000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2"');
    expect(full.match(/#EXT-X-STREAM-INF/g)).toHaveLength(5);
  });

  it('every rung: fMP4 segments of ~2 s whose picture ffprobe reads at the rung size, profile and level of CODECS', async () => {
    for (const rung of rungs) {
      const rungDir = join(dir, 'out', rung.name);
      const playlist = await readFile(join(rungDir, 'index.m3u8'), 'utf8');
      expect(playlist).toContain('#EXT-X-MAP:URI="init.mp4"');
      expect(playlist).toContain('#EXT-X-ENDLIST');
      const segments = extinf(playlist);
      expect(segments.map((s) => s.uri)).toEqual(['seg_00000.m4s', 'seg_00001.m4s']);
      const init = await readFile(join(rungDir, 'init.mp4'));
      let total = 0;
      for (const segment of segments) {
        expect(segment.duration).toBeCloseTo(2, 1);
        const joined = join(dir, `joined-${rung.name}-${segment.uri}.mp4`);
        await writeFile(joined, Buffer.concat([init, await readFile(join(rungDir, segment.uri))]));
        const read = await probe(joined, ['-count_packets']);
        const video = read.streams?.find((s) => s.codec_type === 'video');
        const audio = read.streams?.find((s) => s.codec_type === 'audio');
        expect({ codec: video?.codec_name, width: video?.width, height: video?.height }).toEqual({ codec: 'h264', width: rung.width, height: rung.height });
        expect(audio?.codec_name).toBe('aac');
        // The segment's own length: its pictures at the source's 10 frames per second.
        expect(Number(video?.nb_read_packets) / 10).toBeCloseTo(segment.duration, 1);
        const bitsPerSecond = (Number(read.format?.size) * 8) / segment.duration;
        expect(bitsPerSecond).toBeLessThanOrEqual(rung.bandwidth);
        total += segment.duration;
      }
      expect(total).toBeCloseTo(4, 1);
      const whole = await probe(join(rungDir, 'index.m3u8'));
      const video = whole.streams?.find((s) => s.codec_type === 'video');
      // A decoder of the CODECS profile plays the stream (ultrafast writes Constrained Baseline, a subset of both).
      const playable = rung.codecs.startsWith('avc1.6400') ? ['High', 'Main', 'Constrained Baseline'] : ['Main', 'Constrained Baseline'];
      expect(playable).toContain(video?.profile);
      expect(video?.level).toBe(parseInt(rung.codecs.slice(9, 11), 16));
    }
  });

  it('the lowest rung is done first; every rung is announced once, in ladder order; progress climbs to 1', () => {
    const done = events.filter((e) => e.kind === 'done').map((e) => e.rung);
    expect(done).toEqual(['240p', '360p', '480p', '720p', '1080p']);
    for (const rung of rungs) {
      const fractions = events.filter((e) => e.kind === 'progress' && e.rung === rung.name).map((e) => e.fraction);
      expect(fractions.length).toBeGreaterThan(1);
      expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
      expect(fractions.at(-1)).toBe(1);
    }
    const lowestDone = events.find((e) => e.kind === 'done' && e.rung === '240p')?.at ?? Infinity;
    // The 1080p rung was still encoding (under 100 %) when the lowest one was done: viewable early.
    const highestProgressAfterLowest = events.some((e) => e.kind === 'progress' && e.rung === '1080p' && e.fraction < 1 && e.at > lowestDone);
    expect(highestProgressAfterLowest).toBe(true);
  });
});

describe('encodeRungs stops', () => {
  it('when its AbortSignal fires: rejects with an AbortError in words, promptly', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const encoding = encodeRungs(source, join(dir, 'aborted'), rungs, {
      preset: 'ultrafast',
      signal: controller.signal,
      onProgress: () => controller.abort(),
      onRungDone: () => undefined,
    });
    await expect(encoding).rejects.toMatchObject({ name: 'AbortError', message: MEDIA_ENCODE_MESSAGES.encodingCancelled });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('on a file ffmpeg cannot read: "Encoding stopped at 0 %: …"', async () => {
    const junk = join(dir, 'junk.mp4');
    await writeFile(junk, 'not a video at all');
    const encoding = encodeRungs(junk, join(dir, 'junk'), rungs.slice(0, 1), { preset: 'ultrafast', onProgress: () => undefined, onRungDone: () => undefined });
    await expect(encoding).rejects.toThrow(/^Encoding stopped at 0 %: .+/);
  });
});

describe('AES-128 (a key per asset)', () => {
  const key = randomBytes(16);
  let encrypted: string;

  beforeAll(async () => {
    const small = await makeClip(dir, 'small.mp4', { width: 640, height: 360, seconds: 4 });
    encrypted = join(dir, 'encrypted');
    const ladder = ladderFor(await probeSource(small, limits));
    await encodeRungs(small, encrypted, ladder, { segmentSeconds: 2, preset: 'ultrafast', key: { bytes: key, uri: 'key' }, onProgress: () => undefined, onRungDone: () => undefined });
  }, 60_000);

  it('writes MPEG-TS segments under an EXT-X-KEY, and no key file among the outputs', async () => {
    const playlist = await readFile(join(encrypted, '240p', 'index.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128,URI="key"');
    expect(extinf(playlist).map((s) => s.uri)).toEqual(['seg_00000.ts', 'seg_00001.ts']);
    for (const rung of ['240p', '360p']) {
      for (const name of await readdir(join(encrypted, rung))) {
        const bytes = await readFile(join(encrypted, rung, name));
        expect(bytes.includes(key)).toBe(false);
      }
    }
  });

  it('segments are unreadable without the key and readable with it (IV = media sequence number)', async () => {
    const segment = join(encrypted, '360p', 'seg_00001.ts');
    await expect(probe(segment)).rejects.toThrow();
    const iv = Buffer.alloc(16);
    iv.writeUInt32BE(1, 12);
    const decipher = createDecipheriv('aes-128-cbc', key, iv);
    const clear = Buffer.concat([decipher.update(await readFile(segment)), decipher.final()]);
    const decrypted = join(dir, 'decrypted.ts');
    await writeFile(decrypted, clear);
    const read = await probe(decrypted);
    const video = read.streams?.find((s) => s.codec_type === 'video');
    expect({ codec: video?.codec_name, width: video?.width, height: video?.height }).toEqual({ codec: 'h264', width: 640, height: 360 });
    expect(Number(read.format?.duration)).toBeCloseTo(2, 0);
  });
});
