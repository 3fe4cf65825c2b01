/**
 * Issue 40: a generated 10 s 1080p clip through tus upload → ffprobe → encode → HLS ladder read back
 * by ffprobe; the played files' types, ranges and caching; another site's media; the reader's role;
 * bad inputs with their words; captions; attaching to an item (revision, publish rule).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { API_PATHS } from '../common/constants';
import { CONTENT_CREATE_PATHS } from '../common/content';
import { UNDO_PATH } from '../common/undo';
import type { MediaAsset, MediaList, MediaPlayback } from '../common/media-contract';
import { MEDIA_PATHS, MEDIA_PREVIEW_PLAYER } from '../common/media-contract';
import { INGEST_KEY_HEADER, INGEST_PATH } from '../common/ingest-contract';
import { MEDIA_ENCODE_MESSAGES, MEDIA_MESSAGES } from '../common/messages/media';
import { DEMO_SITES } from './db/demo-accounts';
import { mediaAssets, revisions } from './db/schema';
import { createTestApp, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';
import { ffprobe, makeClip, tusUpload, waitForAsset } from './test/media-kit';

let t: TestApp;
let base: string;
let writer: Session;
let reader: Session;
let dir: string;
let clip: string;
const previous = { preset: process.env.MEDIA_X264_PRESET, dir: process.env.MEDIA_DIR };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-test-'));
  process.env.MEDIA_X264_PRESET = 'ultrafast';
  process.env.MEDIA_DIR = join(dir, 'media');
  [clip] = await Promise.all([
    makeClip(dir, 'clip.mp4', { seconds: 10, width: 1920, height: 1080 }),
  ]);
  t = await createTestApp({ demo: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  writer = await t.login('content@demo.test', TEST_SEED_PASSWORD);
  reader = await t.login('content-reader@demo.test', TEST_SEED_PASSWORD);
}, 120_000);

afterAll(async () => {
  await t?.close();
  process.env.MEDIA_X264_PRESET = previous.preset;
  process.env.MEDIA_DIR = previous.dir;
  if (previous.preset === undefined) delete process.env.MEDIA_X264_PRESET;
  if (previous.dir === undefined) delete process.env.MEDIA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

/** A raw tus upload of `bytes` (creation + one PATCH): answers the creation's and the PATCH's answers. */
async function rawUpload(headers: Record<string, string>, name: string, bytes: Buffer) {
  const created = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
    method: 'POST',
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': `filename ${Buffer.from(name).toString('base64')}` },
  });
  if (created.status !== 201) return { created, id: null, patched: null };
  const location = created.headers.get('location') ?? '';
  const id = location.split('/').pop() ?? '';
  const patched = await fetch(`${base}${location}`, {
    method: 'PATCH',
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
  return { created, id, patched };
}

describe('media (issue 40)', () => {
  let assetId = '';
  let playback: MediaPlayback;

  it('a 10 s 1080p clip: resumable upload → preparing → viewable → ready, an HLS ladder ffprobe reads back', async () => {
    assetId = await tusUpload(base, clip, writer.headers, {}, 1024 * 1024);
    expect(assetId).toMatch(/^[0-9a-f-]{36}$/);
    // Generous: the upper renditions run at a lower CPU priority and the test machine is shared.
    const ready = await waitForAsset(t, writer.headers, assetId, (a) => a.status === 'ready' || a.status === 'errored', 420_000);
    expect(ready.errorMessage).toBeNull();
    expect(ready.status).toBe('ready');
    expect(ready).toMatchObject({ width: 1920, height: 1080, progress: 100, source: 'upload', encrypted: false, policy: 'signed' });
    expect(ready.durationSeconds).toBeGreaterThan(9.5);
    expect(ready.durationSeconds).toBeLessThan(10.5);
    expect(ready.renditions.map((r) => `${r.name}:${r.width}x${r.height}:${r.done}`)).toEqual([
      '240p:426x240:true', '360p:640x360:true', '480p:854x480:true', '720p:1280x720:true', '1080p:1920x1080:true',
    ]);
    expect(ready.posterUrl).toMatch(/poster\.jpg$/);

    const answer = await t.get(`${MEDIA_PATHS.asset}/${assetId}/playback`, writer.headers);
    expect(answer.statusCode).toBe(200);
    playback = answer.json<MediaPlayback>();
    // The demo site's renditionUrl is the address players get; the console previews on this server.
    expect(playback.hlsUrl).toMatch(/^https:\/\/renditions\.demo\.viewlift\.test\/v2\.0\/media\/play\/[^/]+\/[0-9a-f-]{36}\/master\.m3u8$/);
    expect(playback.previewUrl).toMatch(new RegExp(`^${MEDIA_PATHS.play}/[^/]+/${assetId}/master\\.m3u8$`));
    expect(playback.storyboardUrl).toMatch(/storyboard\.vtt$/);
    expect(Date.parse(playback.expiresAt ?? '')).toBeGreaterThan(Date.now());

    const master = await fetch(`${base}${playback.previewUrl}`);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const text = await master.text();
    for (const size of ['426x240', '640x360', '854x480', '1280x720', '1920x1080']) expect(text).toContain(`RESOLUTION=${size}`);
    expect(text).toMatch(/BANDWIDTH=\d+/);
    expect(text).toMatch(/CODECS="avc1\.[0-9a-fA-F]{6},mp4a\.40\.2"/);

    const folder = playback.previewUrl.replace(/master\.m3u8$/, '');
    for (const [rung, height] of [['240p', 240], ['1080p', 1080]] as const) {
      const playlist = await (await fetch(`${base}${folder}${rung}/index.m3u8`)).text();
      const durations = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
      expect(durations.reduce((a, b) => a + b, 0)).toBeGreaterThan(9.5);
      for (const d of durations.slice(0, -1)) {
        expect(d).toBeGreaterThanOrEqual(3.5);
        expect(d).toBeLessThanOrEqual(6.5);
      }
      const probed = await ffprobe(`${base}${folder}${rung}/index.m3u8`, ['-show_entries', 'stream=codec_type,width,height:format=duration']);
      const streams = probed.streams as { codec_type: string; width?: number; height?: number }[];
      expect(streams.find((s) => s.codec_type === 'video')?.height).toBe(height);
      expect(streams.some((s) => s.codec_type === 'audio')).toBe(true);
    }
  }, 480_000);

  it('serves the played files with their types, ranges and caching, never as HTML', async () => {
    const folder = `${base}${playback.previewUrl.replace(/master\.m3u8$/, '')}`;
    const playlist = await (await fetch(`${folder}240p/index.m3u8`)).text();
    const segment = playlist.split('\n').find((line) => line && !line.startsWith('#')) ?? '';
    const whole = await fetch(`${folder}240p/${segment}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^video\/(iso\.segment|mp4|mp2t)/);
    expect(whole.headers.get('cache-control')).toContain('immutable');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const part = await fetch(`${folder}240p/${segment}`, { headers: { range: 'bytes=10-109' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 110));
    const poster = await fetch(`${folder}poster.jpg`);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    const storyboard = await fetch(`${folder}storyboard.vtt`);
    expect(storyboard.headers.get('content-type')).toContain('text/vtt');
    expect(await storyboard.text()).toMatch(/^WEBVTT[\s\S]*storyboard\.jpg#xywh=\d+,\d+,\d+,\d+/);
    // A forged token, another asset's token, a path outside the folder: 404.
    expect((await fetch(`${base}${MEDIA_PATHS.play}/not-a-token/${assetId}/master.m3u8`)).status).toBe(404);
    expect((await fetch(`${folder}..%2F..%2Fetc/passwd`)).status).toBe(404);
    expect((await fetch(`${folder}key`)).status).toBe(404);
  });

  it('another site never sees the video; the reader lists and previews but cannot upload', async () => {
    const other = await t.createUser({ site: DEMO_SITES.northwind, roles: { Content: 'write' } });
    const stranger = await t.login(other.username, other.password);
    expect((await t.get(`${MEDIA_PATHS.asset}/${assetId}`, stranger.headers)).statusCode).toBe(404);
    expect((await t.get(`${MEDIA_PATHS.asset}/${assetId}/playback`, stranger.headers)).statusCode).toBe(404);
    expect((await t.get(MEDIA_PATHS.list, stranger.headers)).json<MediaList>().items.map((a) => a.id)).not.toContain(assetId);

    const list = await t.get(`${MEDIA_PATHS.list}?status=ready&limit=5`, reader.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json<MediaList>().items.map((a) => a.id)).toContain(assetId);
    expect((await t.get(`${MEDIA_PATHS.asset}/${assetId}/playback`, reader.headers)).statusCode).toBe(200);
    const refused = await rawUpload(reader.headers, 'x.mp4', Buffer.from('x'));
    expect(refused.created.status).toBe(403);
    const unknown = await fetch(`${base}${MEDIA_PATHS.uploads}`, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' } });
    expect(unknown.status).toBe(401);
  });

  it('bad inputs get their words and lose nothing: a renamed text file, zero bytes, a truncated MP4, sound only', async () => {
    const text = await rawUpload(writer.headers, 'notes.mp4', Buffer.from('These are my notes, not a video.\n'.repeat(50)));
    expect(text.patched?.status).toBe(204);
    expect((await waitForAsset(t, writer.headers, text.id ?? '', (a) => a.status === 'errored')).errorMessage).toBe(MEDIA_ENCODE_MESSAGES.notVideo);

    const empty = await rawUpload(writer.headers, 'empty.mp4', Buffer.alloc(0));
    expect(empty.created.status).toBe(400);
    expect(await empty.created.json()).toMatchObject({ message: MEDIA_ENCODE_MESSAGES.empty });

    const whole = readFileSync(clip);
    const truncated = await rawUpload(writer.headers, 'cut.mp4', whole.subarray(0, Math.floor(whole.length / 2)));
    expect((await waitForAsset(t, writer.headers, truncated.id ?? '', (a) => a.status === 'errored')).errorMessage).toBe(MEDIA_ENCODE_MESSAGES.truncated);

    const sound = join(dir, 'sound.m4a');
    const { execFileSync } = await import('node:child_process');
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'aac', sound]);
    const audio = await rawUpload(writer.headers, 'sound.mp4', readFileSync(sound));
    expect((await waitForAsset(t, writer.headers, audio.id ?? '', (a) => a.status === 'errored')).errorMessage).toBe(MEDIA_ENCODE_MESSAGES.noPicture);

    const tooBig = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
      method: 'POST', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-length': String(6 * 1024 ** 3), 'upload-metadata': `filename ${Buffer.from('big.mp4').toString('base64')}` },
    });
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).message).toBe(MEDIA_ENCODE_MESSAGES.tooBig(6 * 1024 ** 3, 5 * 1024 ** 3));
  }, 60_000);

  it('an upload dropped halfway resumes at its offset; DELETE cancels it; an abandoned one is cleaned up with its reason', async () => {
    const bytes = Buffer.from('x'.repeat(1000));
    const created = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
      method: 'POST', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `filename ${Buffer.from('half.mp4').toString('base64')}` },
    });
    const location = created.headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    const patch = (offset: number, body: Buffer) => fetch(`${base}${location}`, {
      method: 'PATCH', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(body),
    });
    expect((await patch(0, bytes.subarray(0, 400))).status).toBe(204);
    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...writer.headers, 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe('400');
    expect(head.headers.get('upload-length')).toBe('1000');
    // Another site cannot even see it.
    const other = await t.createUser({ site: DEMO_SITES.northwind, roles: { Content: 'write' } });
    const stranger = await t.login(other.username, other.password);
    expect((await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...stranger.headers, 'tus-resumable': '1.0.0' } })).status).toBe(404);
    const cancelled = await fetch(`${base}${location}`, { method: 'DELETE', headers: { ...writer.headers, 'tus-resumable': '1.0.0' } });
    expect(cancelled.status).toBe(204);
    expect((await t.get(`${MEDIA_PATHS.asset}/${id}`, writer.headers)).json<MediaAsset>().status).toBe('cancelled');
    expect((await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...writer.headers, 'tus-resumable': '1.0.0' } })).status).toBe(404);

    const abandoned = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
      method: 'POST', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `filename ${Buffer.from('gone.mp4').toString('base64')}` },
    });
    const gone = (abandoned.headers.get('location') ?? '').split('/').pop() ?? '';
    await t.db.update(mediaAssets).set({ updatedAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(mediaAssets.id, gone));
    expect(await t.app.services.media.service.cleanAbandoned()).toBeGreaterThanOrEqual(1);
    const after = (await t.get(`${MEDIA_PATHS.asset}/${gone}`, writer.headers)).json<MediaAsset>();
    expect(after).toMatchObject({ status: 'errored', errorMessage: MEDIA_MESSAGES.uploadAbandoned(24) });
  });

  it('captions (SRT converted), attaching to an episode with a revision, and the publish rule', async () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,500\nHello\n\n2\n00:00:03,000 --> 00:00:04,000\nWorld\n';
    const saved = await t.inject({ method: 'POST', url: `${MEDIA_PATHS.asset}/${assetId}/captions`, headers: writer.headers, payload: { language: 'en', label: 'English', format: 'srt', text: srt } });
    expect(saved.statusCode).toBe(200);
    const captions = saved.json<MediaAsset>().captions;
    expect(captions).toHaveLength(1);
    const vtt = await fetch(`${base}${captions[0]!.url}`);
    expect(await vtt.text()).toContain('00:00:01.000 --> 00:00:02.500');
    const master = await (await fetch(`${base}${playback.previewUrl}`)).text();
    expect(master).toContain('TYPE=SUBTITLES');
    const bad = await t.inject({ method: 'POST', url: `${MEDIA_PATHS.asset}/${assetId}/captions`, headers: writer.headers, payload: { language: 'en', format: 'vtt', text: 'hello' } });
    expect(bad.statusCode).toBe(400);

    const created = await t.inject({
      method: 'POST', url: CONTENT_CREATE_PATHS.create, headers: writer.headers,
      payload: { kind: 'video', title: `Media test ${Date.now()}`, genre: 'Drama', rating: 'PG-13', originalLanguage: 'en', durationSeconds: 10, status: 'draft' },
    });
    expect(created.statusCode).toBe(200);
    const item = created.json<{ item: { id: string } }>().item;
    const attached = await t.inject({ method: 'PUT', url: `${API_PATHS.content}/${item.id}/video`, headers: writer.headers, payload: { assetId } });
    expect(attached.statusCode).toBe(200);
    expect(attached.json()).toMatchObject({ contentId: item.id, mediaAssetId: assetId, asset: { id: assetId, status: 'ready' } });
    expect((await t.get(`${MEDIA_PATHS.asset}/${assetId}`, writer.headers)).json<MediaAsset>().contentItemIds).toContain(item.id);
    expect((await t.get(`${API_PATHS.content}/${item.id}/video`, reader.headers)).json()).toMatchObject({ mediaAssetId: assetId, asset: { id: assetId } });
    // The change is a revision of the item (History shows it in words).
    const [revision] = await t.db.select().from(revisions).where(eq(revisions.objectId, item.id)).orderBy(desc(revisions.seq)).limit(1);
    expect(revision?.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'video', before: null })]));
    expect(revision?.reason).toMatch(/^Video ".*" attached\.$/);
    // The reader sees, never changes.
    const readerAttach = await t.inject({ method: 'PUT', url: `${API_PATHS.content}/${item.id}/video`, headers: reader.headers, payload: { assetId: null } });
    expect(readerAttach.statusCode).toBe(403);
    // Publishing needs the attached video ready: a video still waiting for its file refuses it, in words.
    const pending = await fetch(`${base}${MEDIA_PATHS.uploads}`, {
      method: 'POST', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `filename ${Buffer.from('later.mp4').toString('base64')}` },
    });
    const pendingId = (pending.headers.get('location') ?? '').split('/').pop() ?? '';
    const replaced = await t.inject({ method: 'PUT', url: `${API_PATHS.content}/${item.id}/video`, headers: writer.headers, payload: { assetId: pendingId } });
    expect(replaced.statusCode).toBe(200);
    const detail = await t.get(`${API_PATHS.content}/${item.id}`, writer.headers);
    const publish = await t.inject({ method: 'PATCH', url: `${API_PATHS.content}/${item.id}`, headers: writer.headers, payload: { version: detail.json<{ item: { version: number } }>().item.version, status: 'published' } });
    expect(publish.statusCode).toBe(409);
    expect(publish.json()).toMatchObject({ message: MEDIA_MESSAGES.publishNeedsReadyVideo('waiting') });
    // Undo of the replacement puts the ready one back (the replaced asset stays in Media); publishing goes through.
    const undone = await t.inject({ method: 'POST', url: UNDO_PATH, headers: writer.headers, payload: { requestId: String(replaced.headers['x-request-id']) } });
    expect(undone.statusCode).toBe(200);
    expect((await t.get(`${MEDIA_PATHS.asset}/${assetId}`, writer.headers)).json<MediaAsset>().contentItemIds).toContain(item.id);
    expect((await t.get(`${MEDIA_PATHS.asset}/${pendingId}`, writer.headers)).statusCode).toBe(200);
    const again = await t.get(`${API_PATHS.content}/${item.id}`, writer.headers);
    const published = await t.inject({ method: 'PATCH', url: `${API_PATHS.content}/${item.id}`, headers: writer.headers, payload: { version: again.json<{ item: { version: number } }>().item.version, status: 'published' } });
    expect(published.statusCode).toBe(200);

    // The preview measures itself: the playback answer names the preview key, viewer and title; /v1/events takes the session.
    const answer = (await t.get(`${MEDIA_PATHS.asset}/${assetId}/playback`, reader.headers)).json<MediaPlayback>();
    expect(answer.events).toMatchObject({ contentId: item.id, cdn: MEDIA_PREVIEW_PLAYER.cdn, playerName: 'CMS Tools preview', deviceType: 'web' });
    const events = answer.events!;
    const sessionId = randomUUID();
    const sent = await t.inject({
      method: 'POST', url: INGEST_PATH, headers: { [INGEST_KEY_HEADER]: events.ingestionKey },
      payload: { events: [{
        type: 'session.start', eventId: randomUUID(), sessionId, at: new Date().toISOString(), subscriberId: events.subscriberId, contentId: events.contentId,
        networkId: events.networkId, deviceType: events.deviceType, country: events.country, isp: events.isp, cdn: events.cdn, startupMs: 420,
      }] },
    });
    expect(sent.statusCode).toBe(202);
  });
});
