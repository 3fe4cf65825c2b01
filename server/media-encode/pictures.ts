/**
 * Still pictures of a video: a poster (JPEG at a chosen time) and a storyboard (one sprite of small
 * thumbnails plus a WebVTT file whose cues point at each thumbnail with #xywh=, for scrubbing).
 * ffmpeg turns the picture by its rotation metadata, so both show what the viewer sees.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { displaySize } from './ladder';
import type { ProbeResult } from './probe';
import { ffmpegPath, ffprobePath, lastErrorLine, run } from './run';

/** Poster width at most (never upscaled). */
export const POSTER_MAX_WIDTH = 1280;
/** Storyboard thumbnail width, columns per row, at most this many thumbnails. */
export const STORYBOARD_THUMB_WIDTH = 160;
export const STORYBOARD_COLUMNS = 10;
export const STORYBOARD_MAX_THUMBS = 100;

export async function makePoster(src: string, outFile: string, atSeconds: number): Promise<void> {
  await mkdir(dirname(outFile), { recursive: true });
  const at = Math.max(0, atSeconds);
  const attempt = (seconds: number) =>
    run(ffmpegPath(), [
      '-nostdin', '-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', src,
      '-frames:v', '1', '-vf', `scale='min(${POSTER_MAX_WIDTH},iw)':-2`, '-q:v', '3', '-update', '1', outFile,
    ]);
  const written = async () => (await stat(outFile).catch(() => null))?.size ?? 0;
  await rm(outFile, { force: true });
  let result = await attempt(at);
  // A time past the end gives no picture (ffmpeg still exits 0): fall back to the first one.
  if (result.code !== 0 || (await written()) === 0) result = await attempt(0);
  if (result.code !== 0 || (await written()) === 0) {
    throw new Error(MEDIA_ENCODE_MESSAGES.encodingStopped(0, lastErrorLine(result.stderr)));
  }
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(rest, 3)}`;
}

export interface StoryboardLayout {
  interval: number;
  count: number;
  columns: number;
  rows: number;
  thumbWidth: number;
  thumbHeight: number;
}

/** One thumbnail every `interval` seconds (at least 1 s, at most STORYBOARD_MAX_THUMBS thumbnails). */
export function storyboardLayout(probe: ProbeResult): StoryboardLayout {
  const shown = displaySize(probe);
  const interval = Math.max(1, Math.ceil(probe.durationSeconds / STORYBOARD_MAX_THUMBS));
  const count = Math.max(1, Math.ceil(probe.durationSeconds / interval));
  const columns = Math.min(STORYBOARD_COLUMNS, count);
  const rows = Math.ceil(count / columns);
  const thumbWidth = STORYBOARD_THUMB_WIDTH;
  const thumbHeight = Math.max(2, Math.round((thumbWidth * shown.height) / shown.width / 2) * 2);
  return { interval, count, columns, rows, thumbWidth, thumbHeight };
}

/** The storyboard's WebVTT: one cue per thumbnail, `<image>#xywh=x,y,w,h`. */
export function storyboardVtt(layout: StoryboardLayout, imageName: string, durationSeconds: number): string {
  const cues = ['WEBVTT', ''];
  for (let index = 0; index < layout.count; index += 1) {
    const start = index * layout.interval;
    const end = Math.min(durationSeconds, start + layout.interval);
    const x = (index % layout.columns) * layout.thumbWidth;
    const y = Math.floor(index / layout.columns) * layout.thumbHeight;
    cues.push(`${vttTime(start)} --> ${vttTime(end)}`, `${imageName}#xywh=${x},${y},${layout.thumbWidth},${layout.thumbHeight}`, '');
  }
  return cues.join('\n');
}

/**
 * Writes outDir/storyboard.jpg and outDir/storyboard.vtt (the VTT names the image relatively). The
 * thumbnails keep the picture's displayed aspect whatever size the caller's probe says (ffmpeg turns
 * a rotated picture upright): their height is read back from the sprite.
 */
export async function makeStoryboard(src: string, outDir: string, probe: ProbeResult): Promise<{ image: string; vtt: string }> {
  await mkdir(outDir, { recursive: true });
  const layout = storyboardLayout(probe);
  const image = join(outDir, 'storyboard.jpg');
  const vtt = join(outDir, 'storyboard.vtt');
  const filter = [
    // The frame at the middle of each interval (fps picks the nearest frame), scaled small, tiled.
    `fps=1/${layout.interval}:start_time=${layout.interval / 2}`,
    `scale=${layout.thumbWidth}:-2`,
    `tile=${layout.columns}x${layout.rows}`,
  ].join(',');
  const result = await run(ffmpegPath(), ['-nostdin', '-v', 'error', '-y', '-i', src, '-an', '-vf', filter, '-frames:v', '1', '-q:v', '4', '-update', '1', image]);
  if (result.code !== 0) throw new Error(MEDIA_ENCODE_MESSAGES.encodingStopped(0, lastErrorLine(result.stderr)));
  const sprite = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'stream=height', '-of', 'csv=p=0', image]);
  const spriteHeight = Number(sprite.stdout.trim().split('\n')[0]);
  const thumbHeight = Number.isFinite(spriteHeight) && spriteHeight > 0 ? Math.round(spriteHeight / layout.rows) : layout.thumbHeight;
  await writeFile(vtt, storyboardVtt({ ...layout, thumbHeight }, 'storyboard.jpg', probe.durationSeconds));
  return { image, vtt };
}
