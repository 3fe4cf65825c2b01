/**
 * Encodes a source into the HLS ladder: outDir/<rung>/index.m3u8 + init.mp4 + seg_NNNNN.m4s (fMP4),
 * or seg_NNNNN.ts when encrypting with AES-128 (whole-segment AES-128 over fMP4 would also encrypt
 * nothing of the init section, which players treat unevenly; MPEG-TS is what every player decrypts).
 *
 * Two ffmpeg processes run side by side: the lowest rung alone (so the asset is viewable after a
 * fraction of the time) and every other rung in one process that decodes the source once and splits
 * it, at a lower CPU priority (MEDIA_ENCODE_NICE, 10 by default) while the lowest rung runs, so that
 * one gets the cores first; its priority is put back as soon as the lowest rung is done (when the
 * process may: root or CAP_SYS_NICE; otherwise it stays lowered, which on a shared machine makes it
 * yield to everything else). bench:media measures the wall time against one plain ffmpeg with the
 * same ladder.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { BUFSIZE_FACTOR, MAXRATE_FACTOR, MAX_FPS, parseAvcCodec, type Rung } from './ladder';
import { EncodeAbortedError, ffmpegPath, ffprobePath, lastErrorLine, run } from './run';

export interface EncodeKey {
  /** 16 bytes (AES-128). */
  bytes: Buffer;
  /** What the playlists' EXT-X-KEY URI says (relative to the rung's playlist, or absolute). */
  uri: string;
}

export interface EncodeOptions {
  /** Target segment length in seconds (segments cut at the next key frame after it): 4 by default. */
  segmentSeconds?: number;
  /** AES-128: the key and its URI; segments become MPEG-TS (seg_NNNNN.ts). */
  key?: EncodeKey;
  onProgress(rung: string, fraction: number): void;
  /** Called once per rung, lowest rung first, when its playlist and segments are complete on disk. */
  onRungDone(rung: string): void;
  signal?: AbortSignal;
  /** x264 preset: MEDIA_X264_PRESET or 'veryfast' by default (tests use 'ultrafast'). */
  preset?: string;
  /** false: every rung in one ffmpeg process (all rungs finish together; the bench's baseline shape). */
  lowestFirst?: boolean;
}

export const DEFAULT_SEGMENT_SECONDS = 4;

/** How much lower the other rungs' ffmpeg runs while the lowest rung encodes (0: same priority). */
export function encodeNice(): number {
  const nice = Number(process.env.MEDIA_ENCODE_NICE ?? 10);
  return Number.isInteger(nice) && nice >= 0 && nice <= 19 ? nice : 10;
}

function trySetPriority(pid: number, priority: number): void {
  try {
    setPriority(pid, priority);
  } catch {
    // Not allowed (raising a priority back needs root or CAP_SYS_NICE) or already ended.
  }
}

export function defaultPreset(): string {
  return process.env.MEDIA_X264_PRESET ?? 'veryfast';
}

export interface LadderArgsOptions {
  segmentSeconds: number;
  preset: string;
  hasAudio: boolean;
  /** Path of an ffmpeg key info file (AES-128); MPEG-TS segments when set. */
  keyInfoFile?: string;
}

/** ffmpeg's arguments for some rungs of a ladder in one process (also the bench's plain ffmpeg run). */
export function ladderArgs(src: string, outDir: string, rungs: Rung[], options: LadderArgsOptions): string[] {
  const { segmentSeconds, preset, hasAudio, keyInfoFile } = options;
  const splits = rungs.map((_, index) => `[s${index}]`).join('');
  const scales = rungs.map((rung, index) => `[s${index}]scale=${rung.width}:${rung.height}:flags=bicubic,setsar=1,format=yuv420p[v${index}]`);
  const graph = `[0:v:0]split=${rungs.length}${splits};${scales.join(';')}`;
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-progress', 'pipe:1', '-nostats', '-i', src, '-filter_complex', graph];
  rungs.forEach((rung, index) => {
    const dir = join(outDir, rung.name);
    const { profile, level } = parseAvcCodec(rung.codecs);
    const extension = keyInfoFile ? 'ts' : 'm4s';
    args.push('-map', `[v${index}]`);
    if (hasAudio && rung.audioKbps > 0) args.push('-map', '0:a:0');
    args.push(
      '-c:v', 'libx264',
      '-preset', preset,
      '-profile:v', profile,
      '-level:v', level,
      '-fpsmax', String(MAX_FPS),
      '-b:v', `${rung.videoKbps}k`,
      '-maxrate', `${Math.round(rung.videoKbps * MAXRATE_FACTOR)}k`,
      '-bufsize', `${Math.round(rung.videoKbps * BUFSIZE_FACTOR)}k`,
      '-force_key_frames', `expr:gte(t,n_forced*${segmentSeconds})`,
      '-metadata:s:v:0', 'rotate=0',
    );
    if (hasAudio && rung.audioKbps > 0) args.push('-c:a', 'aac', '-b:a', `${rung.audioKbps}k`, '-ac', '2', '-ar', '48000');
    args.push(
      '-max_muxing_queue_size', '4096',
      '-f', 'hls',
      '-hls_time', String(segmentSeconds),
      '-hls_playlist_type', 'vod',
      '-hls_flags', 'independent_segments',
      '-hls_segment_filename', join(dir, `seg_%05d.${extension}`),
    );
    if (keyInfoFile) args.push('-hls_segment_type', 'mpegts', '-hls_key_info_file', keyInfoFile);
    else args.push('-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4');
    args.push(join(dir, 'index.m3u8'));
  });
  return args;
}

async function sourceFacts(src: string, signal?: AbortSignal): Promise<{ durationSeconds: number; hasAudio: boolean }> {
  const probed = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', src], { signal });
  if (probed.code !== 0) throw new Error(MEDIA_ENCODE_MESSAGES.encodingStopped(0, lastErrorLine(probed.stderr)));
  const parsed: unknown = JSON.parse(probed.stdout);
  const facts = typeof parsed === 'object' && parsed !== null ? parsed : {};
  const format = 'format' in facts && typeof facts.format === 'object' && facts.format !== null ? facts.format : {};
  const duration = 'duration' in format ? Number(format.duration) : 0;
  const streams = 'streams' in facts && Array.isArray(facts.streams) ? facts.streams : [];
  const hasAudio = streams.some((s: unknown) => typeof s === 'object' && s !== null && 'codec_type' in s && s.codec_type === 'audio');
  return { durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : 0, hasAudio };
}

export async function encodeRungs(src: string, outDir: string, rungs: Rung[], opts: EncodeOptions): Promise<void> {
  if (rungs.length === 0) return;
  const { signal } = opts;
  const segmentSeconds = opts.segmentSeconds ?? DEFAULT_SEGMENT_SECONDS;
  const preset = opts.preset ?? defaultPreset();
  const ordered = [...rungs].sort((a, b) => a.width * a.height - b.width * b.height);
  const facts = await sourceFacts(src, signal);
  await Promise.all(ordered.map((rung) => mkdir(join(outDir, rung.name), { recursive: true })));
  let keyDir: string | undefined;
  let keyInfoFile: string | undefined;
  if (opts.key) {
    // The key itself is written outside outDir (outDir is uploaded as it is) and removed at the end.
    keyDir = await mkdtemp(join(tmpdir(), 'media-key-'));
    const keyFile = join(keyDir, 'key.bin');
    await writeFile(keyFile, opts.key.bytes, { mode: 0o600 });
    keyInfoFile = join(keyDir, 'key.info');
    await writeFile(keyInfoFile, `${opts.key.uri}\n${keyFile}\n`, { mode: 0o600 });
  }
  const [lowest, ...rest] = ordered;
  const groups = opts.lowestFirst === false || !lowest ? [ordered] : [[lowest], rest].filter((group) => group.length > 0);
  const inner = new AbortController();
  const stop = () => inner.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const nice = encodeNice();
  const lowered: number[] = [];
  try {
    let previousDone: Promise<void> = Promise.resolve();
    const runs = groups.map((group, index) => {
      const encoded = encodeGroup(src, outDir, group, {
        segmentSeconds,
        preset,
        hasAudio: facts.hasAudio,
        keyInfoFile,
        durationSeconds: facts.durationSeconds,
        signal: inner.signal,
        onSpawn: (pid) => {
          if (index === 0 || nice === 0) return;
          lowered.push(pid);
          trySetPriority(pid, nice);
        },
        onProgress: opts.onProgress,
      });
      if (index === 0) {
        // The lowest rung is done: the others get their full share again.
        encoded.then(() => lowered.forEach((pid) => trySetPriority(pid, 0)), () => undefined);
      }
      // Rungs are announced in ladder order: a higher group that ends first waits for the lower one.
      const announced = Promise.all([encoded, previousDone]).then(() => {
        for (const rung of group) {
          opts.onProgress(rung.name, 1);
          opts.onRungDone(rung.name);
        }
      });
      previousDone = announced;
      return announced.catch((error: unknown) => {
        inner.abort();
        throw error;
      });
    });
    const settled = await Promise.allSettled(runs);
    if (signal?.aborted) throw new EncodeAbortedError();
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !(s.reason instanceof EncodeAbortedError));
    if (failed) throw failed.reason;
    const aborted = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (aborted) throw aborted.reason;
  } finally {
    signal?.removeEventListener('abort', stop);
    if (keyDir) await rm(keyDir, { recursive: true, force: true });
  }
}

interface GroupOptions extends LadderArgsOptions {
  durationSeconds: number;
  signal: AbortSignal;
  onSpawn(pid: number): void;
  onProgress(rung: string, fraction: number): void;
}

async function encodeGroup(src: string, outDir: string, group: Rung[], options: GroupOptions): Promise<void> {
  let fraction = 0;
  const result = await run(ffmpegPath(), ladderArgs(src, outDir, group, options), {
    signal: options.signal,
    onSpawn: options.onSpawn,
    onLine: (line) => {
      const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
      if (!match || options.durationSeconds <= 0) return;
      const next = Math.min(0.999, Number(match[1]) / 1e6 / options.durationSeconds);
      if (next <= fraction) return;
      fraction = next;
      for (const rung of group) options.onProgress(rung.name, fraction);
    },
  });
  if (result.code !== 0) {
    throw new Error(MEDIA_ENCODE_MESSAGES.encodingStopped(Math.floor(fraction * 100), lastErrorLine(result.stderr)));
  }
}
