/**
 * Issue 40 (video): the encoding pipeline, pure functions over local files with ffmpeg / ffprobe as
 * child processes (no database, no HTTP: media-server's jobs call these). See ARCHITECTURE.md, "The
 * media path".
 */
export { MediaInputError, probeSource, type MediaInputCode, type ProbeLimits, type ProbeResult } from './probe';
export { ladderFor, masterPlaylist, displaySize, LADDER, type Rung } from './ladder';
export { encodeRungs, ladderArgs, DEFAULT_SEGMENT_SECONDS, type EncodeKey, type EncodeOptions } from './encode';
export { makePoster, makeStoryboard, storyboardLayout, storyboardVtt } from './pictures';
export { captionsToVtt } from './captions';
export { EncodeAbortedError, ffmpegPath, ffprobePath } from './run';
