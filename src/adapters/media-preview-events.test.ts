/**
 * The console's preview player reports itself as the apps' players do (issue 40), with the
 * dimensions of issue 41: its session.start names the console's player (QOE_CONSOLE_PLAYER), a video
 * on demand and the host it plays from, and passes the ingest contract's schema.
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { PLAYER_EVENT_SCHEMAS } from '../../common/ingest-contract';
import { MEDIA_PREVIEW_PLAYER, type MediaPlayback } from '../../common/media-contract';
import { QOE_CONSOLE_PLAYER } from '../../common/qoe';
import { playerEventOf } from './media-actors';

const playback = (previewUrl: string): MediaPlayback => ({
  hlsUrl: 'https://cdn.example.test/v/master.m3u8', previewUrl, posterUrl: null, storyboardUrl: null, expiresAt: null,
  events: {
    ingestionKey: 'ik_preview', subscriberId: '6f1f8a52-0d7e-4d5c-9a57-0c2a8b1c9f01', contentId: '0b9e3b5e-2a57-4d53-8f0e-3f6a1c2d4e5f',
    networkId: 'a3c1e0f2-6b7d-4e8f-9a0b-1c2d3e4f5a6b', deviceType: 'web', country: 'US', cdn: MEDIA_PREVIEW_PLAYER.cdn, isp: MEDIA_PREVIEW_PLAYER.isp,
    playerName: MEDIA_PREVIEW_PLAYER.name, playerVersion: MEDIA_PREVIEW_PLAYER.version,
  },
});
const report = { kind: 'start', assetId: 'asset-dims', position: 0, duration: 60, bitrate: null, startupMs: 0, rebufferCount: 0, rebufferMs: 0 } as const;
const validStart = new Ajv({ strict: false }).compile(PLAYER_EVENT_SCHEMAS['session.start']);

describe('the preview player\'s session.start', () => {
  it('names the console\'s player, a video on demand and the host the preview plays from', () => {
    const event = playerEventOf(report, { playback: playback('https://cms.example.test:8443/v2.0/media/asset-dims/master.m3u8') });
    expect(event).toMatchObject({
      type: 'session.start', playerName: QOE_CONSOLE_PLAYER, playerVersion: MEDIA_PREVIEW_PLAYER.version, streamType: 'vod', sourceHost: 'cms.example.test',
    });
    expect(validStart(event), JSON.stringify(validStart.errors)).toBe(true);
  });

  it('reads a relative preview address against the page (its own origin)', () => {
    const event = playerEventOf({ ...report, assetId: 'asset-relative' }, { playback: playback('/v2.0/media/asset-relative/master.m3u8') });
    expect(event).toMatchObject({ type: 'session.start', sourceHost: 'localhost' });
    expect(validStart(event)).toBe(true);
  });
});
