/**
 * Issue 40 (video): what the console and the server say about videos. One module, two sections:
 * the encoding pipeline's words (server/media-encode: checking a file, captions, encoding) and the
 * media API's words (server/http/media-routes.ts, the console's media pages).
 */

/** What the file check (ffprobe), the captions conversion and the encoder say (server/media-encode). */
export const MEDIA_ENCODE_MESSAGES = {
  empty: 'The file is empty (0 bytes).',
  notVideo: 'The file is not a video.',
  noPicture: 'The video has no picture (it holds sound only).',
  truncated: 'The file is incomplete: it ends before the video does. Upload it again in full.',
  tooLong: (seconds: number, maxSeconds: number) =>
    `The video is too long: ${formatDuration(seconds)}, this site takes up to ${formatDuration(maxSeconds)}.`,
  tooBig: (bytes: number, maxBytes: number) =>
    `The file is too big: ${formatBytes(bytes)}, this site takes up to ${formatBytes(maxBytes)}.`,
  captionsEmpty: 'The captions file is empty.',
  captionsNotVtt: 'The captions file is not WebVTT: it must start with "WEBVTT".',
  captionsNoCues: 'The captions file holds no caption with a start and an end time.',
  captionsBadTiming: (line: number) =>
    `The captions file has a cue time that cannot be read on line ${line} (expected 00:00:01,000 --> 00:00:02,500).`,
  captionsEndBeforeStart: (line: number) => `A caption ends before it starts on line ${line}.`,
  encodingStopped: (percent: number, reason: string) => `Encoding stopped at ${percent} %: ${reason}`,
  encodingCancelled: 'Encoding was cancelled.',
  ffmpegMissing:
    'ffmpeg is not installed on the server, so videos cannot be checked or encoded (Debian: apt-get install ffmpeg, or set FFMPEG_PATH and FFPROBE_PATH).',
} as const;

/** 75 → "1 min 15 s", 3600 → "1 h 0 min 0 s". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h} h ${m} min ${rest} s`;
  if (m > 0) return `${m} min ${rest} s`;
  return `${rest} s`;
}

/** 1536 → "1.5 KB", 5 * 1024 ** 3 → "5 GB" (binary units, one decimal when under 10). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} bytes`;
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${shown} ${units[unit]}`;
}
