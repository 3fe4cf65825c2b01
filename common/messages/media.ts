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

/** What the media API says (server/http/media-routes.ts, server/domain/media*.ts); the console shows these words. */
export const MEDIA_MESSAGES = {
  notFound: 'This video does not exist.',
  contentNotFound: 'This content item does not exist.',
  encodingOff: 'Encoding is turned off for this site: uploads are not taken here. Attach an existing HLS address instead.',
  encodingOnExternal: 'This site encodes its own videos: upload the file instead of attaching an address.',
  uploadMetadata: 'The upload must name its file (Upload-Metadata filename).',
  uploadTooBig: (bytes: number, maxBytes: number) => MEDIA_ENCODE_MESSAGES.tooBig(bytes, maxBytes),
  uploadLengthRequired: 'The upload must say its size (Upload-Length).',
  uploadNotFound: 'This upload does not exist or has been cleaned up.',
  uploadFinished: 'This upload is already complete.',
  uploadAbandoned: (hours: number) => `The upload was abandoned halfway and cleaned up after ${hours} h.`,
  cancelled: 'The upload was cancelled.',
  cannotCancel: 'A ready video cannot be cancelled.',
  cannotRetry: 'Only a video that stopped with an error can be retried.',
  retryNeedsFile: 'The uploaded file is no longer here: upload it again.',
  hlsUrlInvalid: 'The HLS address must be an http(s) address of an .m3u8 playlist.',
  titleRequired: 'A title is required.',
  captionsLanguage: 'The language must be a language code such as en, fr or pt-BR.',
  notPlayable: 'This video cannot be played yet: it is still being prepared.',
  playbackExpired: 'This playback address has expired or is not valid.',
  keyRefused: 'The key is only given with a valid playback token.',
  videoAttached: (title: string) => `Video "${title}" attached.`,
  videoRemoved: 'Video removed from the item.',
  videoNotPlayable: 'This video cannot be attached: it stopped with an error or was cancelled.',
  videoKindOnly: 'Only videos, episodes and live items take a video.',
  publishNeedsVideo: 'This item cannot be published without a video: attach one first.',
  publishNeedsReadyVideo: (status: string) => `This item cannot be published until its video is ready (it is ${status}).`,
  drmNotice: 'Videos of this site are encrypted (HLS AES-128, a key per video). Studio DRM (Widevine, FairPlay) needs a licence service this console does not provide.',
  workerGone: 'The encoder stopped (its process ended); the encoding is started again.',
  patchType: 'Content-Type must be application/offset+octet-stream.',
  patchOffset: 'Upload-Offset must be a number of bytes.',
  patchOffsetMismatch: (sent: number, received: number) => `Upload-Offset ${sent} does not match the ${received} bytes received: resume from ${received}.`,
  patchTooLong: "The body goes past the upload's length.",
  uploadInterrupted: 'The upload was interrupted; what arrived is kept. Resume it from where it stopped.',
  captionsNotFound: 'This video has no captions in that language.',
  externalOnly: 'Only a video added from an HLS address has an address to change.',
  changedSince: 'This video was changed since you opened it. Reload it to see the changes, then try again.',
  posterExternal: 'A video added from an HLS address has no poster made here.',
  posterNeedsDuration: 'The poster time can be chosen once the file has been checked and its length is known.',
  posterNotNow: 'The poster cannot be changed on a video that stopped with an error or was cancelled.',
  posterTimeOutside: (durationSeconds: number) =>
    `The poster time must be a number of seconds from 0 to ${Math.floor(durationSeconds * 1000) / 1000} (the video's length).`,
  /** Bulk publishing: the items refused for their video (each "title": why), the others published. */
  publishRefusedItems: (refused: readonly { title: string; reason: string }[]) =>
    `${refused.length === 1 ? '1 item was' : `${refused.length} items were`} not published because of ${refused.length === 1 ? 'its video' : 'their videos'}: ${refused.map((r) => `"${r.title}" (${r.reason})`).join('; ')}. Nothing was published.`,
  /** Why one item's video keeps it from being published (bulk publishing lists these). */
  videoNotReadyReason: (status: string) => (status === 'missing' ? 'its video no longer exists' : `its video is ${statusWords(status)}, not ready`),
} as const;

/** "preparing", "viewable (more renditions coming)": a status as a sentence reads it. */
function statusWords(status: string): string {
  return (Object.entries(MEDIA_STATUS_WORDS).find(([key]) => key === status)?.[1] ?? status).toLowerCase();
}

/** The lifecycle's words (status → what the console shows). */
export const MEDIA_STATUS_WORDS = {
  waiting: 'Waiting for the file',
  uploading: 'Uploading',
  preparing: 'Preparing',
  viewable: 'Viewable (more renditions coming)',
  ready: 'Ready',
  errored: 'Error',
  cancelled: 'Cancelled',
} as const;

/** The console's own words about an upload (src/views/media/VideoLifecycle.tsx, machines/media-*.ts). */
export const MEDIA_UPLOAD_WORDS = {
  /** An upload a reload (or a closed tab) interrupted, listed again: the server kept what arrived. */
  interrupted: (title: string, percent: number) =>
    `The upload of "${title}" stopped at ${percent} % when the page was reloaded or closed. Choose the same file again to continue from there; another file starts a new upload.`,
  chooseAgain: 'Choose the same file again',
  /** The leave question while bytes are on their way (the panel's machine asks it). */
  leaveStopsUpload: 'Leaving stops the upload. Choosing the same file again on this item later continues from where it stopped.',
} as const;
