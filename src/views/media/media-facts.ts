/** A video's facts in words (duration, resolution, renditions, size), shared by the Media list and the video's page. */
import type { MediaAsset } from '../../../common/media-contract';
import { formatBytes, formatDuration } from '../../../common/messages/media';

export const durationText = (asset: MediaAsset) => (asset.durationSeconds === null ? '—' : formatDuration(asset.durationSeconds));
export const resolutionText = (asset: MediaAsset) => (asset.width && asset.height ? `${asset.width} × ${asset.height}` : '—');
export const sizeText = (asset: MediaAsset) => (asset.sizeBytes === null ? '—' : formatBytes(asset.sizeBytes));
export const renditionsText = (asset: MediaAsset) => {
  const done = asset.renditions.filter((r) => r.done).map((r) => r.name);
  return done.length ? done.join(', ') : '—';
};

/** The facts of a video's page, in order. */
export function mediaFacts(asset: MediaAsset): [string, string][] {
  return [
    ['Duration', durationText(asset)],
    ['Resolution', resolutionText(asset)],
    ['Renditions', renditionsText(asset)],
    ['Size', sizeText(asset)],
    ['Playback', asset.policy === 'signed' ? 'Signed (short-lived tokens)' : 'Public'],
    ['Source', asset.source === 'external' ? 'An HLS address' : 'Uploaded and encoded here'],
  ];
}
