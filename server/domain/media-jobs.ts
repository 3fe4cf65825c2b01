/**
 * Issue 40: encoding as pg-boss jobs (queue `media.encode`, data { assetId }) on the server's
 * database, worked in the server (MEDIA_WORKER=in-process, the default) and/or in any number of
 * `npm run media:worker` processes on one PostgreSQL.
 *
 * One encode attempt: `claimEncode` takes the asset (attempt + 1, a lease of MEDIA_LEASE_SECONDS,
 * renewed every third of it); ffmpeg writes the ladder into a temp folder; each finished rendition is
 * copied to the storage under `<site>/<asset>/v<attempt>/<rung>/` and only then made visible, in one
 * UPDATE guarded by the attempt (`live_attempt`, `done_rungs`, status viewable). A worker killed
 * mid-encode stops renewing its lease: every worker's sweep (each lease/2 s) queues the asset again,
 * the next attempt writes a new folder and switches the pointer at its first rendition, and a late
 * write of the dead attempt changes nothing (its attempt no longer matches). So nothing is ever
 * half-visible and renditions are never duplicated. A failed attempt keeps its words in `last_error`
 * and is tried again (MEDIA_MAX_ATTEMPTS); a refused input (not a video, ...) errors at once.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import PgBoss from 'pg-boss';
import { isRecord } from '../../common/one-of';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import type { MediaConfig } from './media-config';
import type { MediaAssetRow, MediaRung, MediaStore } from './media-ports';
import type { JobDatabase } from './ports';

export const MEDIA_QUEUE = 'media.encode';

/**
 * The queue of one media storage: `media.encode.<8 hex of its location>`. Servers and workers that
 * share the storage share the queue; a process with another storage (another folder, another
 * bucket: a test's, a second deployment on the same database) never takes a job whose file it cannot read.
 */
export function mediaQueueOf(location: string): string {
  return `${MEDIA_QUEUE}.${createHash('sha256').update(location).digest('hex').slice(0, 8)}`;
}

/** The storage the worker writes to (server/storage/media-storage.ts). */
export interface MediaFiles {
  readonly kind: 'disk' | 's3';
  readonly location: string;
  size(key: string): Promise<number | null>;
  putFile(key: string, file: string): Promise<void>;
  read(key: string): Promise<{ body: NodeJS.ReadableStream } | null>;
  deletePrefix(prefix: string): Promise<void>;
  /** The local path of a stored key on disk storage, else null. */
  localPath?(key: string): string | null;
}

/** The encoder (server/media-encode). */
export interface MediaEncoder {
  encodeRungs(src: string, outDir: string, rungs: MediaRung[], opts: {
    key?: { bytes: Buffer; uri: string }; onProgress(rung: string, fraction: number): void; onRungDone(rung: string): void; signal?: AbortSignal;
  }): Promise<void>;
  makePoster(src: string, outFile: string, atSeconds: number): Promise<void>;
  makeStoryboard(src: string, outDir: string, probe: { durationSeconds: number; width: number; height: number }): Promise<{ image: string; vtt: string }>;
  /** Every file under a folder, relative paths. */
  localFiles(dir: string): Promise<string[]>;
  inputError(error: unknown): string | null;
}

interface Log { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void }

export const sourceKey = (siteId: string, assetId: string) => `${siteId}/${assetId}/v0/source`;
export const attemptPrefix = (siteId: string, assetId: string, attempt: number) => `${siteId}/${assetId}/v${attempt}/`;

/** pg-boss's `db` option over PGlite (as server/domain/content-scheduler.ts): parameters through query, a script through exec. */
function pgliteAdapter(pglite: NonNullable<JobDatabase['pglite']>) {
  const rowsOf = (result: unknown): unknown[] => (isRecord(result) && Array.isArray(result.rows) ? result.rows : []);
  return {
    async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
      if (values && values.length) return { rows: rowsOf(await pglite.query(text, values)) };
      try {
        const results = await pglite.exec(text);
        return { rows: rowsOf(results[results.length - 1]) };
      } catch (error) {
        if (/\bBEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
  };
}

/** Where the poster is taken: the chosen time (within the video), else a tenth of the duration up to 10 s. */
export function posterTime(row: Pick<MediaAssetRow, 'posterSeconds' | 'durationSeconds'>): number {
  const duration = row.durationSeconds ?? 0;
  // The very last instant has no frame to take: a chosen end is read a tenth of a second before it.
  return row.posterSeconds !== null ? Math.min(row.posterSeconds, Math.max(0, duration - 0.1)) : Math.min(duration / 10, 10);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMediaJobs(deps: { db: JobDatabase; store: MediaStore; files: MediaFiles; encoder: MediaEncoder; config: MediaConfig; log: Log }) {
  const { store, files, encoder, config, log } = deps;
  const queue = mediaQueueOf(files.location);
  let boss: PgBoss | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  const running = new Set<Promise<unknown>>();
  const aborts = new Set<AbortController>();
  let stopping = false;

  async function enqueue(assetId: string): Promise<void> {
    if (!boss) {
      log.warn({ assetId }, 'media job queue not started: the sweep will queue it');
      return;
    }
    // Expiry far beyond any encode: liveness is the asset's lease, not pg-boss's.
    await boss.send(queue, { assetId }, { retryLimit: 0, expireInSeconds: 6 * 3600 });
  }

  /** A poster job (the poster time changed on a ready video): on the same queue, so any worker with the storage takes it. */
  async function enqueuePoster(assetId: string): Promise<void> {
    if (!boss) {
      log.warn({ assetId }, 'media job queue not started: the poster keeps its earlier time until the next poster change');
      return;
    }
    await boss.send(queue, { assetId, task: 'poster' }, { retryLimit: 2, retryDelay: 5, expireInSeconds: 3600 });
  }

  /**
   * The poster made again at the asset's `posterSeconds` from the kept source, written over the
   * visible attempt's poster.jpg. Skipped when the video is not ready (its encode makes the poster
   * at the chosen time itself) or another attempt took it meanwhile.
   */
  async function runPoster(assetId: string): Promise<'done' | 'skipped'> {
    const row = await store.findAssetAnySite(assetId);
    if (!row || row.status !== 'ready' || row.liveAttempt === null || !await visible(row)) return 'skipped';
    await mkdir(join(config.rootDir, 'work'), { recursive: true });
    const work = await mkdtemp(join(config.rootDir, 'work', `${assetId}-poster-`));
    try {
      const src = await localSource(row, work);
      const file = join(work, 'poster.jpg');
      await encoder.makePoster(src, file, posterTime(row));
      const current = await store.findAssetAnySite(assetId);
      if (!current || current.liveAttempt !== row.liveAttempt) return 'skipped';
      await files.putFile(`${attemptPrefix(row.siteId, row.id, row.liveAttempt)}poster.jpg`, file);
      await store.updateAsset(assetId, { posterReady: true }, { attempt: row.attempt });
      return 'done';
    } finally {
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** The job of one message: a poster, else an encode attempt. */
  function runJob(data: { assetId: string; task?: string }): Promise<string> {
    return data.task === 'poster' ? runPoster(data.assetId) : runEncode(data.assetId);
  }

  /** The asset's source as a local file (a download from S3 into `dir`). */
  async function localSource(row: MediaAssetRow, dir: string): Promise<string> {
    const key = sourceKey(row.siteId, row.id);
    const local = files.localPath?.(key);
    if (local) return local;
    const stored = await files.read(key);
    if (!stored) throw new Error('the uploaded file is missing from the storage');
    const target = join(dir, 'source');
    await pipeline(stored.body, createWriteStream(target));
    return target;
  }

  /** One encode attempt of one asset. Answers what happened (tests read it). */
  async function runEncode(assetId: string): Promise<'done' | 'skipped' | 'failed' | 'errored' | 'lost'> {
    const before = await store.findAssetAnySite(assetId);
    if (!before || !await visible(before)) return 'skipped';
    const row = await store.claimEncode(assetId, config.leaseSeconds);
    if (!row) return 'skipped';
    const attempt = row.attempt;
    const guard = { attempt };
    const abort = new AbortController();
    aborts.add(abort);
    let lost = false;
    const heartbeat = setInterval(() => {
      store.updateAsset(assetId, { leaseUntil: new Date(Date.now() + config.leaseSeconds * 1000) }, guard).then((saved) => {
        if (!saved) { lost = true; abort.abort(); }
      }).catch((error: unknown) => log.warn({ assetId, err: message(error) }, 'media lease renewal failed'));
    }, Math.max(250, (config.leaseSeconds * 1000) / 3));
    await mkdir(join(config.rootDir, 'work'), { recursive: true });
    const work = await mkdtemp(join(config.rootDir, 'work', `${assetId}-v${attempt}-`));
    const progress: Record<string, number> = {};
    let progressWrite: Promise<unknown> = Promise.resolve();
    let lastProgressAt = 0;
    const done: string[] = [];
    let chain: Promise<void> = Promise.resolve();
    const prefix = attemptPrefix(row.siteId, row.id, attempt);
    const percent = () => Math.floor((row.ladder.reduce((t, r) => t + (done.includes(r.name) ? 1 : progress[r.name] ?? 0), 0) / Math.max(1, row.ladder.length)) * 100);
    try {
      const src = await localSource(row, work);
      const out = join(work, 'out');
      const publishRung = async (rung: string) => {
        for (const file of await encoder.localFiles(join(out, rung))) await files.putFile(`${prefix}${rung}/${file}`, join(out, rung, file));
        done.push(rung);
        const saved = await store.updateAsset(assetId, {
          liveAttempt: attempt, doneRungs: [...done], status: 'viewable', progress: { ...progress, [rung]: 1 },
          ...(done.length === 1 ? { posterReady: false, storyboardReady: false } : {}),
        }, { ...guard, statuses: ['preparing', 'viewable'] });
        if (!saved) { lost = true; abort.abort(); }
      };
      await encoder.encodeRungs(src, out, row.ladder, {
        ...(row.encrypted && row.encryptionKey ? { key: { bytes: Buffer.from(row.encryptionKey, 'hex'), uri: '../key' } } : {}),
        signal: abort.signal,
        onProgress(rung, fraction) {
          progress[rung] = fraction;
          if (Date.now() - lastProgressAt < 1000) return;
          lastProgressAt = Date.now();
          progressWrite = progressWrite.then(() => store.updateAsset(assetId, { progress: { ...progress } }, guard)).catch(() => undefined);
        },
        onRungDone(rung) {
          chain = chain.then(() => publishRung(rung));
        },
      });
      await chain;
      if (lost) return 'lost';
      const pictures = join(work, 'pictures');
      await mkdir(pictures, { recursive: true });
      const duration = row.durationSeconds ?? 0;
      let posterReady = false;
      let storyboardReady = false;
      try {
        // The chosen time as it is now (an operator may have chosen it while this encode ran).
        const latest = await store.findAssetAnySite(assetId);
        await encoder.makePoster(src, join(pictures, 'poster.jpg'), posterTime(latest ?? row));
        await files.putFile(`${prefix}poster.jpg`, join(pictures, 'poster.jpg'));
        posterReady = true;
        const board = await encoder.makeStoryboard(src, pictures, { durationSeconds: duration, width: row.width ?? 0, height: row.height ?? 0 });
        await files.putFile(`${prefix}storyboard.jpg`, board.image);
        await files.putFile(`${prefix}storyboard.vtt`, board.vtt);
        storyboardReady = true;
      } catch (error) {
        log.warn({ assetId, err: message(error) }, 'poster or storyboard failed (the video plays without it)');
      }
      const finished = await store.updateAsset(assetId, { status: 'ready', posterReady, storyboardReady, leaseUntil: null, errorMessage: null, progress: {} }, guard);
      if (!finished) return 'lost';
      // Earlier attempts' folders are no longer named by the asset.
      for (let old = 1; old < attempt; old++) await files.deletePrefix(attemptPrefix(row.siteId, row.id, old)).catch(() => undefined);
      return 'done';
    } catch (error) {
      await chain.catch(() => undefined);
      if (lost) return 'lost';
      if (stopping) {
        // A graceful stop: the lease ends now, so the next sweep (here after a restart, or another worker's) takes it over.
        await store.updateAsset(assetId, { leaseUntil: new Date() }, guard);
        return 'failed';
      }
      const input = encoder.inputError(error);
      const words = input ?? MEDIA_ENCODE_MESSAGES.encodingStopped(percent(), message(error));
      const retryBase = typeof row.probe?.retryBase === 'number' ? row.probe.retryBase : 0;
      const final = input !== null || attempt - retryBase >= config.maxAttempts;
      log.warn({ assetId, attempt, err: words, final }, 'media encode failed');
      await store.updateAsset(assetId, final
        ? { status: 'errored', errorMessage: words, lastError: words, leaseUntil: null }
        : { lastError: words, leaseUntil: new Date() }, guard);
      if (!final) await enqueue(assetId);
      return final ? 'errored' : 'failed';
    } finally {
      clearInterval(heartbeat);
      aborts.delete(abort);
      await progressWrite;
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** The asset's uploaded file is in this worker's storage. */
  async function visible(row: { id: string; siteId: string }): Promise<boolean> {
    return (await files.size(sourceKey(row.siteId, row.id))) !== null;
  }

  /** Assets (of this storage) whose worker stopped renewing its lease are queued again. */
  async function sweep(): Promise<number> {
    let queued = 0;
    for (const { id } of await store.staleEncodes(50)) {
      const row = await store.findAssetAnySite(id);
      if (!row || !await visible(row)) continue;
      await enqueue(id);
      queued += 1;
    }
    return queued;
  }

  async function start(options: { work: boolean }): Promise<void> {
    const common = { schema: 'pgboss', schedule: false, supervise: true };
    const instance = deps.db.driver === 'pglite' && deps.db.pglite
      ? new PgBoss({ ...common, db: pgliteAdapter(deps.db.pglite) })
      : new PgBoss({ ...common, connectionString: deps.db.connectionString, max: 2 + config.concurrency, application_name: 'cms-tools-media' });
    instance.on('error', (error: unknown) => log.warn({ err: message(error) }, 'media job queue error'));
    await deps.db.withLock(async () => {
      await instance.start();
      if (!await instance.getQueue(queue)) await instance.createQueue(queue);
    });
    boss = instance;
    stopping = false;
    if (!options.work) return;
    await instance.work<{ assetId: string; task?: string }>(queue, { pollingIntervalSeconds: config.pollSeconds, batchSize: 1 }, async ([job]) => {
      if (!job) return;
      const task = runJob(job.data);
      running.add(task);
      try {
        const outcome = await task;
        log.info({ assetId: job.data.assetId, task: job.data.task ?? 'encode', outcome }, 'media job');
      } finally {
        running.delete(task);
      }
    });
    for (let i = 1; i < config.concurrency; i++) {
      await instance.work<{ assetId: string; task?: string }>(queue, { pollingIntervalSeconds: config.pollSeconds, batchSize: 1 }, async ([job]) => {
        if (job) await runJob(job.data);
      });
    }
    await sweep().catch((error: unknown) => log.warn({ err: message(error) }, 'media sweep failed'));
    sweeper = setInterval(() => {
      sweep().catch((error: unknown) => log.warn({ err: message(error) }, 'media sweep failed'));
    }, Math.max(500, (config.leaseSeconds * 1000) / 2));
    sweeper.unref();
  }

  async function stop(): Promise<void> {
    stopping = true;
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    const instance = boss;
    boss = null;
    for (const abort of aborts) abort.abort();
    await Promise.allSettled([...running]);
    if (instance) await instance.stop({ graceful: true, wait: true, timeout: 5000, close: deps.db.driver !== 'pglite' });
  }

  return { start, stop, enqueue, enqueuePoster, runEncode, runPoster, sweep };
}

export type MediaJobs = ReturnType<typeof createMediaJobs>;
