/**
 * The HLS ladder: which renditions a source gets (up to its own size, never upscaled) and what the
 * master playlist says about each (BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION, CODECS).
 */
import type { ProbeResult } from './probe';

export interface Rung {
  /** '240p' … '1080p' (the short side of the displayed picture). */
  name: string;
  /** Displayed size (after rotation), even numbers. */
  width: number;
  height: number;
  videoKbps: number;
  /** 0 when the source has no sound. */
  audioKbps: number;
  /** Peak bits per second (the master playlist's BANDWIDTH). */
  bandwidth: number;
  /** RFC 6381 codecs, e.g. 'avc1.64001f,mp4a.40.2'. */
  codecs: string;
}

interface Step {
  short: number;
  videoKbps: number;
  audioKbps: number;
}

/** The renditions offered, lowest first (H.264 / AAC-LC). */
export const LADDER: readonly Step[] = [
  { short: 240, videoKbps: 400, audioKbps: 64 },
  { short: 360, videoKbps: 800, audioKbps: 96 },
  { short: 480, videoKbps: 1400, audioKbps: 128 },
  { short: 720, videoKbps: 2800, audioKbps: 128 },
  { short: 1080, videoKbps: 5000, audioKbps: 128 },
];

/** Frame rates above this are halved-or-capped by the encoder (ffmpeg -fpsmax). */
export const MAX_FPS = 60;
/** The encoder's rate control: VBV maxrate and buffer as a share of the rung's video bit rate. */
export const MAXRATE_FACTOR = 1.1;
export const BUFSIZE_FACTOR = 1.1;
/** The segment length the peak BANDWIDTH is worked out for (a full VBV buffer spent in one segment). */
const PEAK_SEGMENT_SECONDS = 4;
export const AAC_CODEC = 'mp4a.40.2';

/** H.264 levels: max macroblocks per frame and per second (ITU-T H.264 Table A-1). */
const LEVELS: readonly { level: number; frame: number; perSecond: number }[] = [
  { level: 30, frame: 1620, perSecond: 40500 },
  { level: 31, frame: 3600, perSecond: 108000 },
  { level: 32, frame: 5120, perSecond: 216000 },
  { level: 40, frame: 8192, perSecond: 245760 },
  { level: 42, frame: 8704, perSecond: 522240 },
  { level: 50, frame: 22080, perSecond: 589824 },
  { level: 51, frame: 36864, perSecond: 983040 },
];

export function displaySize(probe: Pick<ProbeResult, 'width' | 'height' | 'rotation'>): { width: number; height: number } {
  const turned = probe.rotation === 90 || probe.rotation === 270;
  return turned ? { width: probe.height, height: probe.width } : { width: probe.width, height: probe.height };
}

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

/** H.264 profile and level for a picture size and frame rate. */
export function h264ProfileLevel(width: number, height: number, fps: number): { profile: 'main' | 'high'; level: number } {
  const macroblocks = Math.ceil(width / 16) * Math.ceil(height / 16);
  const perSecond = macroblocks * Math.min(Math.max(fps, 1), MAX_FPS);
  const fit = LEVELS.find((l) => macroblocks <= l.frame && perSecond <= l.perSecond) ?? LEVELS[LEVELS.length - 1];
  return { profile: Math.min(width, height) > 480 ? 'high' : 'main', level: fit?.level ?? 51 };
}

export function avcCodec(profile: 'main' | 'high', level: number): string {
  const profileHex = profile === 'high' ? '6400' : '4d40';
  return `avc1.${profileHex}${level.toString(16).padStart(2, '0')}`;
}

/** avc1.64001f → { profile: 'high', level: 31 } (what the encoder is told, so CODECS says the truth). */
export function parseAvcCodec(codecs: string): { profile: 'main' | 'high'; level: string } {
  const match = /avc1\.(\w{2})\w{2}(\w{2})/.exec(codecs);
  const profile = match?.[1] === '64' ? 'high' : 'main';
  const levelNumber = match?.[2] ? parseInt(match[2], 16) : 40;
  return { profile, level: (levelNumber / 10).toFixed(1) };
}

/** Peak bits per second of a rung: VBV maxrate plus a full buffer in one segment, plus the sound. */
export function peakBandwidth(videoKbps: number, audioKbps: number): number {
  const videoPeak = videoKbps * MAXRATE_FACTOR + (videoKbps * BUFSIZE_FACTOR) / PEAK_SEGMENT_SECONDS;
  return Math.round((videoPeak + audioKbps) * 1000);
}

/**
 * Renditions up to the source's displayed size (its short side: a portrait video's 1080 × 1920 is
 * "1080p"), lowest first; a source smaller than the lowest step gets one rendition at its own size.
 */
export function ladderFor(probe: ProbeResult): Rung[] {
  const shown = displaySize(probe);
  const portrait = shown.height > shown.width;
  const sourceShort = Math.min(shown.width, shown.height);
  const sourceLong = Math.max(shown.width, shown.height);
  const steps = LADDER.filter((step) => step.short <= sourceShort);
  const first = LADDER[0];
  const chosen: Step[] = steps.length > 0 || !first ? steps : [{ ...first, short: even(sourceShort) }];
  const fast = probe.fps > 31;
  return chosen.map((step) => {
    const short = even(step.short);
    const long = even((sourceLong * short) / sourceShort);
    const width = portrait ? short : long;
    const height = portrait ? long : short;
    const videoKbps = fast ? Math.round(step.videoKbps * 1.5) : step.videoKbps;
    const audioKbps = probe.hasAudio ? step.audioKbps : 0;
    const { profile, level } = h264ProfileLevel(width, height, probe.fps);
    const video = avcCodec(profile, level);
    return {
      name: `${short}p`,
      width,
      height,
      videoKbps,
      audioKbps,
      bandwidth: peakBandwidth(videoKbps, audioKbps),
      codecs: audioKbps > 0 ? `${video},${AAC_CODEC}` : video,
    };
  });
}

/** The master playlist: one variant per finished rung (ladder order), URIs `<rung>/index.m3u8`. */
export function masterPlaylist(rungs: Rung[], done: string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const rung of rungs) {
    if (!done.includes(rung.name)) continue;
    const average = (rung.videoKbps + rung.audioKbps) * 1000;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${rung.bandwidth},AVERAGE-BANDWIDTH=${average},RESOLUTION=${rung.width}x${rung.height},CODECS="${rung.codecs}"`,
      `${rung.name}/index.m3u8`,
    );
  }
  return `${lines.join('\n')}\n`;
}
