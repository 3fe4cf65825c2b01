/**
 * Issue 40: an encoding worker killed mid-encode leaves nothing half-visible, and the asset completes
 * once after a restart, with no duplicate renditions.
 *
 * PostgreSQL pass: the server runs with MEDIA_WORKER=off; `npm run media:worker` (scripts/media-worker.ts,
 * a child process on a database of this file's own and the same media folder) takes the job, is
 * SIGKILLed once its first rendition is visible, and a second worker takes the asset over when the
 * dead one's lease (3 s) runs out: a new attempt folder, the pointer switched rendition by rendition,
 * the dead attempt's folder deleted at the end.
 * PGlite pass (no second process can share the embedded database): the worker refuses to start and
 * says why; the in-process worker takes over an asset whose lease a "dead" attempt still holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_PATHS, type MediaPlayback } from '../common/media-contract';
import { openDb, type DbHandle } from './db/client';
import { mediaAssets } from './db/schema';
import { createTestApp, isolatedDatabaseUrl, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';
import { makeClip, tusUpload, waitForAsset } from './test/media-kit';

const onPostgres = Boolean(process.env.DATABASE_URL);
const saved = { ...process.env };
let t: TestApp;
let base: string;
let writer: Session;
let dir: string;
let clip: string;
let handle: DbHandle | undefined;
let drop: (() => Promise<void>) | undefined;
let databaseUrl = '';
const children: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'media-worker.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('MEDIA_WORKER_READY')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`media worker exited (${code}) before it was ready: ${out}`)));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-worker-test-'));
  Object.assign(process.env, {
    MEDIA_DIR: join(dir, 'media'), MEDIA_X264_PRESET: 'ultrafast', MEDIA_LEASE_SECONDS: '3', MEDIA_JOBS_POLL_SECONDS: '0.5',
    ...(onPostgres ? { MEDIA_WORKER: 'off' } : {}),
  });
  const clipMade = makeClip(dir, 'clip.mp4', { seconds: 6, width: 1280, height: 720 });
  if (onPostgres) {
    const own = await isolatedDatabaseUrl(process.env.DATABASE_URL ?? '');
    databaseUrl = own.url;
    drop = own.drop;
    handle = await openDb({ databaseUrl });
  }
  t = await createTestApp({ demo: true, ...(handle ? { db: handle } : {}) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  writer = await t.login('content@demo.test', TEST_SEED_PASSWORD);
  clip = await clipMade;
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await t?.close();
  await handle?.close();
  await drop?.();
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

/** The attempt folders of an asset in the disk storage. */
function attemptFolders(siteId: string, assetId: string): string[] {
  const folder = join(dir, 'media', 'files', siteId, assetId);
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

if (onPostgres) describe('a media:worker SIGKILLed mid-encode (PostgreSQL)', () => {
  it('the asset completes once after a restart: a new attempt, every rendition once, nothing half-visible', async () => {
    const first = await startWorker();
    const id = await tusUpload(base, clip, writer.headers);
    // Killed once its first rendition is visible and before the last one is.
    const viewable = await waitForAsset(t, writer.headers, id, (a) => a.status !== 'preparing', 120_000);
    expect(viewable.status).toBe('viewable');
    first.kill('SIGKILL');
    const [killed] = await t.db.select().from(mediaAssets).where(eq(mediaAssets.id, id));
    expect(killed!.attempt).toBe(1);
    expect(killed!.doneRungs.length).toBeGreaterThanOrEqual(1);
    expect(killed!.doneRungs.length).toBeLessThan(killed!.ladder.length);
    // While no worker runs, what is visible stays whole: the master lists only finished renditions, each plays.
    const playback = (await t.get(`${MEDIA_PATHS.asset}/${id}/playback`, writer.headers)).json<MediaPlayback>();
    const master = await (await fetch(`${base}${playback.previewUrl}`)).text();
    const listed = [...master.matchAll(/^(\w+)\/index\.m3u8$/gm)].map((m) => m[1]);
    expect(listed).toEqual(killed!.doneRungs);
    for (const rung of listed) expect((await fetch(`${base}${playback.previewUrl.replace('master.m3u8', `${rung}/index.m3u8`)}`)).status).toBe(200);

    await sleep(500);
    await startWorker();
    const ready = await waitForAsset(t, writer.headers, id, (a) => a.status === 'ready' || a.status === 'errored', 180_000);
    expect(ready.status).toBe('ready');
    const [row] = await t.db.select().from(mediaAssets).where(eq(mediaAssets.id, id));
    expect(row!.attempt).toBe(2);
    expect(row!.liveAttempt).toBe(2);
    expect(row!.doneRungs).toEqual(row!.ladder.map((r) => r.name));
    expect(new Set(row!.doneRungs).size).toBe(row!.doneRungs.length);
    // The dead attempt's folder is gone; the source (v0) and the finished attempt remain.
    expect(attemptFolders(row!.siteId, id)).toEqual(['v0', 'v2']);
    expect(ready.renditions.every((r) => r.done)).toBe(true);
  }, 400_000);
});

if (!onPostgres) describe('the media worker on the embedded default (the kill run needs PostgreSQL: it runs in the PostgreSQL stage)', () => {
  it('refuses to start without DATABASE_URL, saying why (exit 2)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'media-worker.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(2);
    expect(stderr).toContain('npm run media:worker needs DATABASE_URL');
  }, 60_000);

  it('an attempt that stopped renewing its lease is taken over: the next attempt completes the asset once', async () => {
    const media = t.app.services.media;
    // The "dead" attempt: the asset claimed (attempt 1, lease 3 s) by nobody who will ever renew it.
    await media.jobs.stop();
    const id = await tusUpload(base, clip, writer.headers);
    const claimed = await media.store.claimEncode(id, 3);
    expect(claimed?.attempt).toBe(1);
    await media.jobs.start({ work: true });
    const ready = await waitForAsset(t, writer.headers, id, (a) => a.status === 'ready' || a.status === 'errored', 180_000);
    expect(ready.status).toBe('ready');
    const [row] = await t.db.select().from(mediaAssets).where(eq(mediaAssets.id, id));
    expect(row!.attempt).toBe(2);
    expect(row!.doneRungs).toEqual(row!.ladder.map((r) => r.name));
    expect(attemptFolders(row!.siteId, id)).toEqual(['v0', 'v2']);
  }, 300_000);
});
