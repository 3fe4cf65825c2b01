/**
 * Checks an uploaded file by what it contains (ffprobe), never by its name: the operator's words for
 * each way it can be wrong are in common/messages/media.ts (MEDIA_ENCODE_MESSAGES).
 */
import { open, stat } from 'node:fs/promises';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { ffmpegPath, ffprobePath, run } from './run';

export interface ProbeResult {
  durationSeconds: number;
  /** Coded size (before rotation); ladderFor turns it into the displayed size. */
  width: number;
  height: number;
  /** Display rotation in degrees (the file's display matrix); 90 and 270 swap width and height on screen. */
  rotation: 0 | 90 | 180 | 270;
  fps: number;
  hasVideo: boolean;
  hasAudio: boolean;
  sizeBytes: number;
  videoCodec: string;
  audioCodec: string | null;
}

export type MediaInputCode =
  | 'empty'
  | 'not_video'
  | 'no_picture'
  | 'truncated'
  | 'too_long'
  | 'too_big'
  | 'captions_empty'
  | 'captions_invalid';

/** A file (or captions text) the pipeline refuses; `message` is in the operator's words. */
export class MediaInputError extends Error {
  override name = 'MediaInputError';
  constructor(
    readonly code: MediaInputCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ProbeLimits {
  maxSeconds: number;
  maxBytes: number;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

/** Containers ffprobe opens that are not videos: text shown as a picture, still images, subtitles. */
const NOT_VIDEO_FORMATS = /^(tty|image2|.*_pipe|srt|webvtt|ass|lavfi|subviewer.*|mpl2|jacosub|microdvd)$/;

export async function probeSource(file: string, limits: ProbeLimits): Promise<ProbeResult> {
  const sizeBytes = (await stat(file)).size;
  if (sizeBytes === 0) throw new MediaInputError('empty', MEDIA_ENCODE_MESSAGES.empty);
  if (sizeBytes > limits.maxBytes) {
    throw new MediaInputError('too_big', MEDIA_ENCODE_MESSAGES.tooBig(sizeBytes, limits.maxBytes));
  }
  const probed = await run(ffprobePath(), ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  if (probed.code !== 0) {
    // "moov atom not found" on a file that starts like an MP4 / QuickTime file: cut off before its index.
    if (/moov atom not found/.test(probed.stderr) && (await looksLikeIsoMedia(file))) {
      throw new MediaInputError('truncated', MEDIA_ENCODE_MESSAGES.truncated);
    }
    throw new MediaInputError('not_video', MEDIA_ENCODE_MESSAGES.notVideo);
  }
  const output = parseProbe(probed.stdout);
  const formatName = output.format?.format_name ?? '';
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (NOT_VIDEO_FORMATS.test(formatName) || (!video && !audio)) {
    throw new MediaInputError('not_video', MEDIA_ENCODE_MESSAGES.notVideo);
  }
  if (!video) throw new MediaInputError('no_picture', MEDIA_ENCODE_MESSAGES.noPicture);
  const durationSeconds = Number(output.format?.duration ?? video.duration ?? 0);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0 || !video.width || !video.height) {
    throw new MediaInputError('not_video', MEDIA_ENCODE_MESSAGES.notVideo);
  }
  if (durationSeconds > limits.maxSeconds) {
    throw new MediaInputError('too_long', MEDIA_ENCODE_MESSAGES.tooLong(durationSeconds, limits.maxSeconds));
  }
  if (await endsEarly(file, durationSeconds)) {
    throw new MediaInputError('truncated', MEDIA_ENCODE_MESSAGES.truncated);
  }
  return {
    durationSeconds,
    width: video.width,
    height: video.height,
    rotation: rotationOf(video),
    fps: frameRate(video),
    hasVideo: true,
    hasAudio: audio !== undefined,
    sizeBytes,
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
  };
}

function parseProbe(text: string): FfprobeOutput {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** An ISO media file (MP4, MOV, 3GP) starts with a box whose type is ftyp (or an older wide/free/mdat). */
async function looksLikeIsoMedia(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead < 8) return false;
    return /^(ftyp|wide|free|mdat|moov|skip)$/.test(head.subarray(4, 8).toString('latin1'));
  } finally {
    await handle.close();
  }
}

/**
 * A file whose index says it is longer than the bytes it holds (an MP4 with its index first, cut
 * off): decoding its last seconds reports a "partial file" or a read error. Costs a fraction of a second.
 */
async function endsEarly(file: string, durationSeconds: number): Promise<boolean> {
  const from = Math.max(0, durationSeconds - 2);
  const decoded = await run(ffmpegPath(), ['-nostdin', '-v', 'error', '-ss', from.toFixed(3), '-i', file, '-map', '0:v:0', '-f', 'null', '-']);
  return decoded.code !== 0 || /partial file|Invalid NAL unit size|Error splitting the input|truncat/i.test(decoded.stderr);
}

function rotationOf(stream: FfprobeStream): 0 | 90 | 180 | 270 {
  const fromMatrix = stream.side_data_list?.find((s) => typeof s.rotation === 'number')?.rotation;
  const degrees = fromMatrix ?? Number(stream.tags?.rotate ?? 0);
  const normalised = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  switch (normalised) {
    case 90:
      return 90;
    case 180:
      return 180;
    case 270:
      return 270;
    default:
      return 0;
  }
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [num, den] = rate.split('/').map(Number);
  if (num === undefined || !Number.isFinite(num)) return 0;
  if (den === undefined) return num;
  return den > 0 ? num / den : 0;
}

function frameRate(stream: FfprobeStream): number {
  const avg = parseRate(stream.avg_frame_rate);
  const fps = avg > 0 && avg < 1000 ? avg : parseRate(stream.r_frame_rate);
  return Math.round(fps * 1000) / 1000;
}
