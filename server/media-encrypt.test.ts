/**
 * Issue 40: a site with isDRMEncryptionRequired gets HLS AES-128 with a key per asset: its segments are
 * unreadable without the key, the key is served only with a valid playback token. The site without
 * encoding (ENCODING_DISABLED_SITE) refuses uploads in words and attaches an existing HLS address.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_PATHS, type MediaAsset, type MediaPlayback } from '../common/media-contract';
import { MEDIA_MESSAGES } from '../common/messages/media';
import { sites } from './db/schema';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';
import { ffprobe, makeClip, tusUpload, waitForAsset } from './test/media-kit';

let t: TestApp;
let base: string;
let drm: Session;
let plain: Session;
let dir: string;
let clip: string;
const saved = { ...process.env };
const token = randomUUID().slice(0, 8);
const drmSite = `media-drm-${token}`;
const offSite = `media-off-${token}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-encrypt-test-'));
  Object.assign(process.env, { MEDIA_DIR: join(dir, 'media'), MEDIA_X264_PRESET: 'ultrafast' });
  const clipMade = makeClip(dir, 'clip.mp4', { seconds: 3, width: 640, height: 360 });
  t = await createTestApp({ config: { encodingDisabledSite: offSite } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const name of [drmSite, offSite]) await createBareSite(t.db, name);
  await t.db.update(sites).set({ profile: { isDRMEncryptionRequired: true } }).where(eq(sites.siteInternalName, drmSite));
  const drmUser = await t.createUser({ site: drmSite, roles: { Content: 'write' } });
  const offUser = await t.createUser({ site: offSite, roles: { Content: 'write' } });
  drm = await t.login(drmUser.username, drmUser.password);
  plain = await t.login(offUser.username, offUser.password);
  clip = await clipMade;
}, 120_000);

afterAll(async () => {
  await t?.close();
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

describe('encrypted video (isDRMEncryptionRequired)', () => {
  it('segments are AES-128 encrypted, unreadable without the key; the key needs a valid token', async () => {
    const id = await tusUpload(base, clip, drm.headers);
    const ready = await waitForAsset(t, drm.headers, id, (a) => a.status === 'ready' || a.status === 'errored');
    expect(ready).toMatchObject({ status: 'ready', encrypted: true, errorMessage: null });
    const playback = (await t.get(`${MEDIA_PATHS.asset}/${id}/playback`, drm.headers)).json<MediaPlayback>();
    const folder = `${base}${playback.previewUrl.replace(/master\.m3u8$/, '')}`;
    const rung = ready.renditions[0]!.name;
    const playlist = await (await fetch(`${folder}${rung}/index.m3u8`)).text();
    expect(playlist).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="\.\.\/key"/);
    const segment = playlist.split('\n').find((line) => line && !line.startsWith('#')) ?? '';
    // The key: 16 bytes with the token, refused without one (a forged token) and never cached.
    const key = await fetch(`${folder}key`);
    expect(key.status).toBe(200);
    expect(key.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await key.arrayBuffer())).toHaveLength(16);
    const forged = await fetch(`${base}${MEDIA_PATHS.play}/abc.AAAAAAAAAAAAAAAAAAAAAA/${id}/key`);
    expect(forged.status).toBe(403);
    expect((await forged.json()).message).toBe(MEDIA_MESSAGES.keyRefused);
    // A segment alone (no key) holds no readable picture; through the playlist (key fetched with the token) it does.
    const bytes = Buffer.from(await (await fetch(`${folder}${rung}/${segment}`)).arrayBuffer());
    const alone = join(dir, 'segment.ts');
    writeFileSync(alone, bytes);
    // Not a transport stream any more: an MPEG-TS segment has a sync byte (0x47) every 188 bytes.
    const packets = Math.floor(bytes.length / 188);
    let syncs = 0;
    for (let i = 0; i < packets; i += 1) if (bytes[i * 188] === 0x47) syncs += 1;
    expect(packets).toBeGreaterThan(10);
    expect(syncs / packets).toBeLessThan(0.1);
    // ffprobe finds neither the container nor the H.264 picture. (Random bytes are sometimes taken for
    // a raw H.261 stream, whose default size is 176 x 144: a fresh-clone run saw that once, so the
    // check is for what the segment held, not for "no video stream at all".)
    const blind = await ffprobe(alone, ['-show_entries', 'stream=codec_type,codec_name:format=format_name']).catch(() => ({ streams: [], format: {} }));
    expect((blind.format as { format_name?: string } | undefined)?.format_name ?? '').not.toContain('mpegts');
    expect((blind.streams as { codec_name?: string }[] | undefined ?? []).filter((s) => s.codec_name === 'h264')).toEqual([]);
    const seen = await ffprobe(`${folder}${rung}/index.m3u8`, ['-show_entries', 'stream=codec_type,width,height']);
    expect((seen.streams as { codec_type: string; height?: number }[]).find((s) => s.codec_type === 'video')?.height).toBe(ready.renditions[0]!.height);
    expect(readFileSync(alone).length).toBeGreaterThan(0);
  }, 180_000);
});

describe('the site without encoding (ENCODING_DISABLED_SITE)', () => {
  it('refuses an upload saying encoding is turned off, and attaches an existing HLS address instead', async () => {
    const refused = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
      method: 'POST', headers: { ...plain.headers, 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': `filename ${Buffer.from('a.mp4').toString('base64')}` },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(MEDIA_MESSAGES.encodingOff);
    const bad = await t.inject({ method: 'POST', url: MEDIA_PATHS.external, headers: plain.headers, payload: { title: 'Trailer', hlsUrl: 'javascript:alert(1)' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MEDIA_MESSAGES.hlsUrlInvalid);
    const attached = await t.inject({ method: 'POST', url: MEDIA_PATHS.external, headers: plain.headers, payload: { title: 'Trailer', hlsUrl: 'https://cdn.example.test/trailer/master.m3u8' } });
    expect(attached.statusCode).toBe(200);
    const asset = attached.json<MediaAsset>();
    expect(asset).toMatchObject({ status: 'ready', source: 'external', title: 'Trailer' });
    const playback = (await t.get(`${MEDIA_PATHS.asset}/${asset.id}/playback`, plain.headers)).json<MediaPlayback>();
    expect(playback).toMatchObject({ hlsUrl: 'https://cdn.example.test/trailer/master.m3u8', expiresAt: null, events: null });
    // A site that encodes is told to upload instead.
    const elsewhere = await t.inject({ method: 'POST', url: MEDIA_PATHS.external, headers: drm.headers, payload: { title: 'x', hlsUrl: 'https://cdn.example.test/x.m3u8' } });
    expect(elsewhere.statusCode).toBe(409);
  });
});
