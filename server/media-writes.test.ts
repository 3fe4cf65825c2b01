/**
 * Issue 40: a video's own writes. Every one is audited with the video as its object (media.*); the
 * edits of a video (captions saved and removed, its HLS address, its poster time, a video added from
 * an address) are revisions of it, shown by its History. Publishing a video item needs a ready video,
 * or a viewable one where AppCMS › Settings "publishViewableVideos" of the site's default network
 * allows it; a bulk publish checks every item and names the ones refused and why. The poster's time
 * is chosen within the video's length and the poster made again as a job (a generated clip).
 * A database of its own: the default network's settings change here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { MediaAsset, MediaPlayback } from '../common/media-contract';
import { MEDIA_PATHS } from '../common/media-contract';
import { MEDIA_MESSAGES } from '../common/messages/media';
import type { RevisionHistoryResponse } from '../common/revisions';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, mediaAssets, networkSettings, networks, revisions } from './db/schema';
import { createTestApp, openIsolatedTestDb, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';
import { makeClip, tusUpload, waitForAsset } from './test/media-kit';

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let base: string;
let writer: Session;
let reader: Session;
let siteId: string;
let dir: string;
const previous = { preset: process.env.MEDIA_X264_PRESET, dir: process.env.MEDIA_DIR };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-writes-'));
  process.env.MEDIA_X264_PRESET = 'ultrafast';
  process.env.MEDIA_DIR = join(dir, 'media');
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  writer = await t.login('content@demo.test', TEST_SEED_PASSWORD);
  reader = await t.login('content-reader@demo.test', TEST_SEED_PASSWORD);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
  process.env.MEDIA_X264_PRESET = previous.preset;
  process.env.MEDIA_DIR = previous.dir;
  if (previous.preset === undefined) delete process.env.MEDIA_X264_PRESET;
  if (previous.dir === undefined) delete process.env.MEDIA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

const auditsOf = (objectId: string) => t.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));
const revisionsOf = (objectId: string) => t.db.select().from(revisions).where(eq(revisions.objectId, objectId)).orderBy(asc(revisions.seq));

async function video(values: Partial<typeof mediaAssets.$inferInsert> = {}) {
  const [row] = await t.db.insert(mediaAssets).values({
    siteId, title: `Writes video ${Math.random().toString(36).slice(2, 8)}`, status: 'ready', source: 'upload', durationSeconds: 10, width: 640, height: 360, ...values,
  }).returning();
  return row!;
}

async function item(title: string, mediaAssetId: string | null) {
  const [row] = await t.db.insert(contentItems).values({
    siteId, kind: 'video', title, titleSearch: title.toLowerCase(), genre: 'drama', durationSeconds: 10, status: 'draft', mediaAssetId,
  }).returning();
  return row!;
}

async function createUpload(headers: Record<string, string>, name: string, size: number) {
  return fetch(`${base}${MEDIA_PATHS.uploads}`, {
    method: 'POST',
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': `filename ${Buffer.from(name).toString('base64')}` },
  });
}

describe("a video's writes are audited (issue 40)", () => {
  it('an upload started, an upload cancelled (tus DELETE and Cancel) and a retry each write an audit row naming the video, no revision', async () => {
    const created = await createUpload(writer.headers, 'writes.mp4', 1000);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    const deleted = await fetch(`${base}${location}`, { method: 'DELETE', headers: { ...writer.headers, 'tus-resumable': '1.0.0' } });
    expect(deleted.status).toBe(204);
    const rows = await auditsOf(id);
    expect(rows.map((r) => r.action)).toEqual(['media.upload_created', 'media.cancelled']);
    const [title] = (await t.db.select({ title: mediaAssets.title }).from(mediaAssets).where(eq(mediaAssets.id, id)));
    for (const row of rows) expect(row).toMatchObject({ siteId, objectKind: 'media', objectId: id, objectName: title!.title, actorUserId: expect.any(String) });
    expect(rows[0]!.detail).toMatchObject({ assetId: id, filename: 'writes.mp4', size: 1000 });

    const second = (await createUpload(writer.headers, 'second.mp4', 1000)).headers.get('location')?.split('/').pop() ?? '';
    expect((await t.inject({ method: 'POST', url: `${MEDIA_PATHS.asset}/${second}/cancel`, headers: writer.headers })).statusCode).toBe(200);
    expect((await auditsOf(second)).map((r) => r.action)).toEqual(['media.upload_created', 'media.cancelled']);

    const failed = await video({ status: 'errored', errorMessage: 'Encoding stopped at 40 %: disk full', ladder: [{ name: '240p', width: 426, height: 240, videoKbps: 400, audioKbps: 64, bandwidth: 500_000, codecs: 'avc1.42c01e,mp4a.40.2' }] });
    const retried = await t.inject({ method: 'POST', url: `${MEDIA_PATHS.asset}/${failed.id}/retry`, headers: writer.headers });
    expect(retried.statusCode).toBe(200);
    const [retryRow] = await auditsOf(failed.id);
    expect(retryRow).toMatchObject({ action: 'media.retried', objectKind: 'media', objectId: failed.id, detail: { lastError: 'Encoding stopped at 40 %: disk full' } });
    // A state, not an edit: no revision.
    expect(await revisionsOf(id)).toEqual([]);
    expect(await revisionsOf(failed.id)).toEqual([]);
    // The audit log names the video and links its page.
    const log = await t.get(`${API_PATHS.admin}/audit?action=media.retried&pageSize=10`, (await t.login('admin@demo.test', TEST_SEED_PASSWORD)).headers);
    expect(log.statusCode).toBe(200);
    const entry = log.json<{ items: { label: string; object: unknown }[] }>().items.find((i) => (i.object as { id?: string } | null)?.id === failed.id);
    expect(entry).toMatchObject({ label: 'Video encoding retried', object: { kind: 'media', words: `video ${failed.title}`, link: `/content/media/${failed.id}` } });
  });

  it('captions saved, replaced and removed are revisions of the video in its History; a reader is refused and nothing is written', async () => {
    const v = await video();
    const vtt = (cues: number) => `WEBVTT\n\n${Array.from({ length: cues }, (_, i) => `00:00:0${i + 1}.000 --> 00:00:0${i + 1}.500\nLine ${i}\n`).join('\n')}`;
    const save = (session: Session, label: string, cues: number) =>
      t.inject({ method: 'POST', url: `${MEDIA_PATHS.asset}/${v.id}/captions`, headers: session.headers, payload: { language: 'en', label, format: 'vtt', text: vtt(cues) } });
    expect((await save(reader, 'English', 1)).statusCode).toBe(403);
    expect((await save(writer, 'English', 1)).statusCode).toBe(200);
    expect((await save(writer, 'English (CC)', 2)).statusCode).toBe(200);
    const removed = await t.inject({ method: 'DELETE', url: `${MEDIA_PATHS.asset}/${v.id}/captions/en`, headers: writer.headers });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<MediaAsset>().captions).toEqual([]);
    // Removing what is not there: a 404 in words; a stale version: a 409.
    const again = await t.inject({ method: 'DELETE', url: `${MEDIA_PATHS.asset}/${v.id}/captions/en`, headers: writer.headers });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: MEDIA_MESSAGES.captionsNotFound });
    const stale = await t.inject({ method: 'DELETE', url: `${MEDIA_PATHS.asset}/${v.id}/captions/en?version=1`, headers: writer.headers });
    expect(stale.statusCode).toBe(409);

    const history = await t.get(`/v1/revisions/media/${v.id}`, reader.headers);
    expect(history.statusCode).toBe(200);
    const answer = history.json<RevisionHistoryResponse>();
    expect(answer).toMatchObject({ kind: 'media', total: 3, restorable: false });
    expect(answer.items.map((r) => r.changes)).toEqual([
      [{ field: 'captions.en', before: 'English (CC) (2 cues)', after: null }],
      [{ field: 'captions.en', before: 'English (1 cue)', after: 'English (CC) (2 cues)' }],
      [{ field: 'captions.en', before: null, after: 'English (1 cue)' }],
    ]);
    expect(answer.items.every((r) => r.objectName === v.title)).toBe(true);
    expect((await auditsOf(v.id)).map((r) => r.action)).toEqual(['media.captions_saved', 'media.captions_saved', 'media.captions_removed']);
  });

  it('a video added from an HLS address (the site without encoding) is a creation revision; its address changed is a revision; bad addresses get their words', async () => {
    const other = await createTestApp({ db: own.handle, config: { encodingDisabledSite: DEMO_SITES.viewlift } });
    try {
      const session = await other.login('content@demo.test', TEST_SEED_PASSWORD);
      const bad = await other.inject({ method: 'POST', url: MEDIA_PATHS.external, headers: session.headers, payload: { title: 'Live feed', hlsUrl: 'ftp://x/y.mp4' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: MEDIA_MESSAGES.hlsUrlInvalid });
      const added = await other.inject({ method: 'POST', url: MEDIA_PATHS.external, headers: session.headers, payload: { title: 'Live feed', hlsUrl: 'https://cdn.example.com/a/master.m3u8' } });
      expect(added.statusCode).toBe(200);
      const asset = added.json<MediaAsset>();
      expect(asset).toMatchObject({ source: 'external', status: 'ready' });
      const changed = await other.inject({ method: 'PUT', url: `${MEDIA_PATHS.asset}/${asset.id}/external`, headers: session.headers, payload: { hlsUrl: 'https://cdn.example.com/b/master.m3u8', version: asset.version } });
      expect(changed.statusCode).toBe(200);
      const rows = await revisionsOf(asset.id);
      expect(rows.map((r) => ({ creation: r.creation, changes: r.changes }))).toEqual([
        { creation: true, changes: [{ field: 'title', before: null, after: 'Live feed' }, { field: 'externalUrl', before: null, after: 'https://cdn.example.com/a/master.m3u8' }] },
        { creation: false, changes: [{ field: 'externalUrl', before: 'https://cdn.example.com/a/master.m3u8', after: 'https://cdn.example.com/b/master.m3u8' }] },
      ]);
      expect((await auditsOf(asset.id)).map((r) => r.action)).toEqual(['media.external_attached', 'media.external_changed']);
      // An uploaded video has no address to change.
      const uploaded = await video();
      const refused = await other.inject({ method: 'PUT', url: `${MEDIA_PATHS.asset}/${uploaded.id}/external`, headers: session.headers, payload: { hlsUrl: 'https://cdn.example.com/c/master.m3u8' } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ message: MEDIA_MESSAGES.externalOnly });
    } finally {
      await other.close();
    }
  });
});

describe('tus PATCH written straight to the file (issue 40, bench:media)', () => {
  it('refuses a wrong offset, type or size in words; a request cut off keeps the bytes that arrived and the upload resumes there', async () => {
    const created = await createUpload(writer.headers, 'patch.mp4', 1000);
    const location = created.headers.get('location') ?? '';
    const patch = (offset: number, body: Buffer, type = 'application/offset+octet-stream') => fetch(`${base}${location}`, {
      method: 'PATCH', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': type }, body: new Uint8Array(body),
    });
    const wrongType = await patch(0, Buffer.from('hello'), 'text/plain');
    expect(wrongType.status).toBe(415);
    expect((await wrongType.json()).message).toBe(MEDIA_MESSAGES.patchType);
    const offset = await patch(5, Buffer.alloc(10));
    expect(offset.status).toBe(409);
    expect((await offset.json()).message).toBe(MEDIA_MESSAGES.patchOffsetMismatch(5, 0));
    const tooMuch = await patch(0, Buffer.alloc(1001));
    expect(tooMuch.status).toBe(413);
    expect((await tooMuch.json()).message).toBe(MEDIA_MESSAGES.patchTooLong);

    // 300 of the 1000 bytes announced, then the connection drops.
    const { request } = await import('node:http');
    await new Promise<void>((resolve) => {
      const req = request(`${base}${location}`, {
        method: 'PATCH', headers: { ...writer.headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(300, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 300));
    });
    const head = async () => (await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...writer.headers, 'tus-resumable': '1.0.0' } })).headers.get('upload-offset');
    const deadline = Date.now() + 5000;
    while ((await head()) !== '300' && Date.now() < deadline) await sleep(100);
    expect(await head()).toBe('300');
    const rest = await patch(300, Buffer.alloc(700, 2));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe('1000');
    // Not a video: checked when the last byte arrived, its words kept.
    const id = location.split('/').pop() ?? '';
    expect((await waitForAsset(t, writer.headers, id, (a) => a.status === 'errored')).errorMessage).toBeTruthy();
  });
});

describe('publishing a video item needs a ready (or, by the site setting, viewable) video (issue 40)', () => {
  async function setPublishViewable(on: boolean) {
    const [net] = await t.db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true)));
    const [row] = await t.db.select().from(networkSettings).where(eq(networkSettings.networkId, net!.id));
    await t.db.update(networkSettings).set({ values: { ...row!.values, publishViewableVideos: on } }).where(eq(networkSettings.networkId, net!.id));
  }
  const bulk = (ids: { id: string; version: number }[]) =>
    t.inject({ method: 'POST', url: `${API_PATHS.content}/bulk-status`, headers: writer.headers, payload: { status: 'published', items: ids } });
  const statusOf = async (id: string) => (await t.db.select({ status: contentItems.status }).from(contentItems).where(eq(contentItems.id, id)))[0]!.status;

  it('a bulk publish checks every item and names the refused ones with why; nothing is published; the setting lets viewable videos through', async () => {
    await setPublishViewable(false);
    const ready = await item(`Bulk ready ${Date.now()}`, (await video()).id);
    const viewable = await item(`Bulk viewable ${Date.now()}`, (await video({ status: 'viewable' })).id);
    const preparing = await item(`Bulk preparing ${Date.now()}`, (await video({ status: 'preparing' })).id);
    const plain = await item(`Bulk no video ${Date.now()}`, null);

    const refused = await bulk([ready, viewable, preparing, plain].map((r) => ({ id: r.id, version: r.version })));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: MEDIA_MESSAGES.publishRefusedItems([
        { title: viewable.title, reason: MEDIA_MESSAGES.videoNotReadyReason('viewable') },
        { title: preparing.title, reason: MEDIA_MESSAGES.videoNotReadyReason('preparing') },
      ]),
    });
    expect(refused.json<{ message: string }>().message).toContain('its video is viewable (more renditions coming), not ready');
    for (const row of [ready, viewable, preparing, plain]) expect(await statusOf(row.id)).toBe('draft');

    // One item alone says its video's state, as an item's own publish does.
    const single = await bulk([{ id: viewable.id, version: viewable.version }]);
    expect(single.statusCode).toBe(409);
    expect(single.json()).toMatchObject({ message: MEDIA_MESSAGES.publishNeedsReadyVideo('viewable') });

    await setPublishViewable(true);
    try {
      const still = await bulk([ready, viewable, preparing].map((r) => ({ id: r.id, version: r.version })));
      expect(still.statusCode).toBe(409);
      expect(still.json()).toMatchObject({ message: MEDIA_MESSAGES.publishRefusedItems([{ title: preparing.title, reason: MEDIA_MESSAGES.videoNotReadyReason('preparing') }]) });
      const through = await bulk([ready, viewable, plain].map((r) => ({ id: r.id, version: r.version })));
      expect(through.statusCode, through.body).toBe(200);
      for (const row of [ready, viewable, plain]) expect(await statusOf(row.id)).toBe('published');
      // An item's own publish reads the same setting.
      const alone = await item(`Own viewable ${Date.now()}`, (await video({ status: 'viewable' })).id);
      const own = await t.inject({ method: 'PATCH', url: `${API_PATHS.content}/${alone.id}`, headers: writer.headers, payload: { version: alone.version, status: 'published' } });
      expect(own.statusCode, own.body).toBe(200);
    } finally {
      await setPublishViewable(false);
    }
    const after = await item(`Own viewable off ${Date.now()}`, (await video({ status: 'viewable' })).id);
    const off = await t.inject({ method: 'PATCH', url: `${API_PATHS.content}/${after.id}`, headers: writer.headers, payload: { version: after.version, status: 'published' } });
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({ message: MEDIA_MESSAGES.publishNeedsReadyVideo('viewable') });
  });
});

describe('the poster at a chosen time (issue 40)', () => {
  it('a generated clip: the time is checked against its length, recorded as a revision, and the poster made again by a job', async () => {
    const clip = await makeClip(dir, 'poster-clip.mp4', { seconds: 4, width: 320, height: 240 });
    const id = await tusUpload(base, clip, writer.headers);
    const ready = await waitForAsset(t, writer.headers, id, (a) => a.status === 'ready' || a.status === 'errored', 240_000);
    expect(ready).toMatchObject({ status: 'ready', posterSeconds: null });
    const poster = async () => {
      const playback = (await t.get(`${MEDIA_PATHS.asset}/${id}/playback`, writer.headers)).json<MediaPlayback>();
      expect(playback.posterUrl).toMatch(/poster\.jpg$/);
      const res = await fetch(`${base}${playback.posterUrl}`);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      return Buffer.from(await res.arrayBuffer());
    };
    const first = await poster();

    const put = (session: Session, payload: Record<string, unknown>) => t.inject({ method: 'PUT', url: `${MEDIA_PATHS.asset}/${id}/poster`, headers: session.headers, payload });
    expect((await put(reader, { seconds: 2 })).statusCode).toBe(403);
    for (const seconds of [-1, 60]) {
      const outside = await put(writer, { seconds });
      expect(outside.statusCode).toBe(400);
      expect(outside.json()).toMatchObject({ message: MEDIA_MESSAGES.posterTimeOutside(ready.durationSeconds!) });
    }
    expect((await put(writer, { seconds: 'soon' })).statusCode).toBe(400);
    expect((await put(writer, { seconds: 3, version: ready.version - 1 })).statusCode).toBe(409);

    const set = await put(writer, { seconds: 3.2 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<MediaAsset>().posterSeconds).toBe(3.2);
    const [revision] = await revisionsOf(id);
    expect(revision).toMatchObject({ objectKind: 'media', changes: [{ field: 'posterSeconds', before: null, after: 3.2 }] });
    expect((await auditsOf(id)).map((r) => r.action)).toContain('media.poster_time_set');

    // The job writes the new poster (testsrc2's frame 3.2 s in differs from the default 0.4 s one).
    const deadline = Date.now() + 90_000;
    let next = await poster();
    while (next.equals(first) && Date.now() < deadline) {
      await sleep(500);
      next = await poster();
    }
    expect(next.equals(first)).toBe(false);
    expect(next.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await t.get(`${MEDIA_PATHS.asset}/${id}`, writer.headers)).json<MediaAsset>()).toMatchObject({ status: 'ready', posterSeconds: 3.2 });
  }, 300_000);
});
