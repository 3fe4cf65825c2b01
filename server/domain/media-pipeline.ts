/**
 * Issue 40: the encoding pipeline (server/media-encode, ffmpeg / ffprobe as child processes) as the
 * media rules and jobs call it (server/domain/media.ts MediaProbe, media-jobs.ts MediaEncoder).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  captionsToVtt, encodeRungs, ladderFor, makePoster, makeStoryboard, masterPlaylist, MediaInputError, probeSource, type ProbeResult,
} from '../media-encode';
import type { MediaProbe } from './media';
import type { MediaEncoder } from './media-jobs';

async function localFiles(dir: string, base = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...await localFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

const inputError = (error: unknown): string | null => (error instanceof MediaInputError ? error.message : null);

export const mediaPipeline: MediaProbe & MediaEncoder = {
  async probe(file, limits) {
    const probe = await probeSource(file, limits);
    return { ...probe, ladder: ladderFor(probe) };
  },
  inputError,
  captionsToVtt,
  masterPlaylist,
  encodeRungs: (src, outDir, rungs, opts) => encodeRungs(src, outDir, rungs, { ...opts, preset: process.env.MEDIA_X264_PRESET || undefined }),
  makePoster,
  async makeStoryboard(src, outDir, probe) {
    const full: ProbeResult = {
      durationSeconds: probe.durationSeconds, width: probe.width, height: probe.height, rotation: 0, fps: 25, hasVideo: true, hasAudio: false,
      sizeBytes: 0, videoCodec: 'h264', audioCodec: null,
    };
    return makeStoryboard(src, outDir, full);
  },
  localFiles: (dir) => localFiles(dir),
};
