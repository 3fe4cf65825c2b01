/** Wire-shaped media fixtures (common/media-contract.ts) for machine and view tests. */
import type { MediaAsset, MediaPlayback } from '../../common/media-contract';

export function mediaAsset(overrides: Partial<MediaAsset> = {}): MediaAsset {
  return {
    id: 'asset-1', title: 'clip.mp4', status: 'ready', errorMessage: null, progress: 100, uploadedBytes: 2_000_000, sizeBytes: 2_000_000,
    durationSeconds: 10, width: 1920, height: 1080,
    renditions: [
      { name: '240p', width: 426, height: 240, bandwidth: 400_000, progress: 100, done: true },
      { name: '1080p', width: 1920, height: 1080, bandwidth: 5_000_000, progress: 100, done: true },
    ],
    captions: [], posterUrl: null, source: 'upload', encrypted: false, policy: 'signed', contentItemIds: [],
    createdAt: '2026-12-06T10:00:00.000Z', updatedAt: '2026-12-06T10:01:00.000Z', version: 1,
    ...overrides,
  };
}

export function mediaPlayback(overrides: Partial<MediaPlayback> = {}): MediaPlayback {
  return {
    hlsUrl: 'https://renditions.example.test/v2.0/media/play/tok/asset-1/master.m3u8', previewUrl: '/v2.0/media/play/tok/asset-1/master.m3u8', posterUrl: null, storyboardUrl: null, expiresAt: null, events: null,
    ...overrides,
  };
}
