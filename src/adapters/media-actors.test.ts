/**
 * The Media wiring's resume bookkeeping (issue 40): tus-js-client keeps an unfinished upload's address in
 * localStorage under its fingerprint; after a reload the item's panel lists it (keptUploadsOf) and the same
 * file chosen again has the same fingerprint, so tus resumes from the server's offset.
 */
import { describe, expect, it } from 'vitest';
import { mediaPlayback } from '../../machines/test-harness/media-fixtures';
import { assetIdOfUploadUrl, keptUploadsOf, playerEventOf, uploadFingerprint } from './media-actors';

function storage(entries: Record<string, string>) {
  const keys = Object.keys(entries);
  return { length: keys.length, key: (i: number) => keys[i] ?? null, getItem: (key: string) => entries[key] ?? null };
}

const kept = (uploadUrl: string, creationTime: string) => JSON.stringify({ uploadUrl, creationTime, size: 10, metadata: {} });

describe('media uploads kept for resuming', () => {
  it('names a file by its owner, name, size and date: the same file chosen again has the same fingerprint', () => {
    const file = new File(['0123456789'], 'clip.mp4', { lastModified: 1_700_000_000_000 });
    expect(uploadFingerprint('item-1', 'clip.mp4', file)).toBe('cms-media:item-1:clip.mp4:10:1700000000000');
    expect(uploadFingerprint(null, 'clip.mp4', file)).toBe('cms-media:library:clip.mp4:10:1700000000000');
    expect(uploadFingerprint('item-1', 'clip.mp4', new File(['0123456789'], 'clip.mp4', { lastModified: 1_700_000_000_000 })))
      .toBe(uploadFingerprint('item-1', 'clip.mp4', file));
  });

  it('lists an item\'s unfinished uploads oldest first, and only that item\'s', () => {
    const store = storage({
      'tus::cms-media:item-1:b.mp4:10:1::2': kept('http://x/v2.0/media/uploads/asset-b', '2026-12-06T14:00:02Z'),
      'tus::cms-media:item-2:a.mp4:10:1::1': kept('http://x/v2.0/media/uploads/asset-other', '2026-12-06T14:00:00Z'),
      'tus::cms-media:item-1:a.mp4:10:1::1': kept('http://x/v2.0/media/uploads/asset-a', '2026-12-06T14:00:01Z'),
      'tus::cms-media:item-1:broken::3': 'not json',
      'draft::item-1': kept('http://x/v2.0/media/uploads/asset-z', '2026-12-06T14:00:03Z'),
    });
    expect(keptUploadsOf('item-1', store)).toEqual([
      { key: 'tus::cms-media:item-1:a.mp4:10:1::1', assetId: 'asset-a', createdAt: '2026-12-06T14:00:01Z' },
      { key: 'tus::cms-media:item-1:b.mp4:10:1::2', assetId: 'asset-b', createdAt: '2026-12-06T14:00:02Z' },
    ]);
    expect(keptUploadsOf(null, store)).toEqual([]);
    expect(keptUploadsOf('item-1', undefined)).toEqual([]);
  });

  it('reads the asset of a tus address', () => {
    expect(assetIdOfUploadUrl('http://x/v2.0/media/uploads/abc-1?token=t')).toBe('abc-1');
    expect(assetIdOfUploadUrl(null)).toBeNull();
  });
});

describe('the preview\'s player events', () => {
  it('carry the measured startup time in the start and the rebuffers in heartbeats and the end', () => {
    const events = {
      ingestionKey: 'k', subscriberId: 's', contentId: 'c', networkId: 'n', deviceType: 'web' as const, country: 'US', cdn: 'CMS Tools preview',
      isp: 'CMS Tools console', playerName: 'CMS Tools preview', playerVersion: '1.0.0',
    };
    const context = { playback: mediaPlayback({ events }) };
    const report = { assetId: 'asset-pe', position: 12.4, duration: 30, bitrate: 800_000, startupMs: 640, rebufferCount: 2, rebufferMs: 900 };
    expect(playerEventOf({ ...report, kind: 'start' }, context)).toMatchObject({ type: 'session.start', startupMs: 640, cdn: 'CMS Tools preview' });
    expect(playerEventOf({ ...report, kind: 'heartbeat' }, context)).toMatchObject({ type: 'heartbeat', rebufferCount: 2, rebufferMs: 900, bitrateKbps: 800, playheadSeconds: 12 });
    expect(playerEventOf({ ...report, kind: 'end' }, context)).toMatchObject({ type: 'session.end', rebufferCount: 2, rebufferMs: 900, avgBitrateKbps: 800 });
    expect(playerEventOf({ ...report, kind: 'start' }, { playback: mediaPlayback() })).toBeNull();
  });
});
