/**
 * Content availability jobs (issue 29): one pg-boss job per scheduled change ("publish at",
 * "unpublish at"), in the database, so a restart loses none. pg-boss 10 keeps its tables in the
 * `pgboss` schema; on PostgreSQL it opens its own small pool, on the embedded PGlite it runs through
 * pg-boss's `db` option (executeSql over the same PGlite instance: one process, one connection).
 *
 * The item row names the job that carries each of its times (`publish_job_id` / `publish_job_at`,
 * `unpublish_job_id` / `unpublish_job_at`). `sync` runs after every write of an item: when a time
 * changed it writes a new job id (compare-and-set on the previous one), cancels the old job and
 * sends the new one with that id and `startAfter` = the time. A job only acts when it is still the
 * one the row names (a replaced job that ran anyway does nothing), inside a transaction that locks
 * the row, and writes the change, its revision and its audit entry (actor: system, no user).
 * `start` reconciles: a row whose job is missing (a crash between the write and the send) or whose
 * time has no job gets one. pg-boss's schema and queue are created under the database's start-up lock
 * (DbHandle.withLock), so instances started together take turns (issue 37).
 */
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { AVAILABILITY_QUEUE } from '../../common/content-availability';
import { scrubDetail } from '../../common/audit-detail';
import type { JobDatabase, SchedulerRepository } from './ports';
import type { ContentRow as AvailabilityRow } from './rows';
import { auditObject, recordRevision } from './revisions';
import { licenceRefusal } from './licence-rule';

export interface ContentSchedulerConfig {
  /** How often the worker asks for due jobs (seconds, at least 0.5). CONTENT_JOBS_POLL_SECONDS. */
  pollSeconds: number;
}

export function loadSchedulerConfig(env: NodeJS.ProcessEnv): ContentSchedulerConfig {
  const poll = Number(env.CONTENT_JOBS_POLL_SECONDS ?? 5);
  return { pollSeconds: Number.isFinite(poll) ? Math.min(60, Math.max(0.5, poll)) : 5 };
}

export interface JobData { siteId: string; contentId: string; action: 'publish' | 'unpublish' }

export interface ContentScheduler {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Makes the item's jobs match its publish / unpublish times (after any write of the item). */
  sync(siteId: string, contentId: string): Promise<void>;
  /** Carries out one job (the worker's handler; tests call it too). Answers what it did. */
  run(jobId: string, data: JobData): Promise<'published' | 'unpublished' | 'refused' | 'stale'>;
}

interface Log { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void }

/** pg-boss's `db` option over PGlite: one statement with parameters through query, a script through exec. */
function pgliteAdapter(pglite: NonNullable<JobDatabase['pglite']>) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length) return pglite.query(text, values);
      try {
        const results = await pglite.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      } catch (error) {
        // A failed script must not leave the shared connection inside an aborted transaction.
        if (/\bBEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
  };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** The time each job should carry for a row: publish when scheduled, unpublish while it can still be taken down. */
function wanted(row: AvailabilityRow): { publish: Date | null; unpublish: Date | null } {
  return {
    publish: row.status === 'scheduled' && row.scheduledAt ? row.scheduledAt : null,
    unpublish: row.unpublishAt && (row.status === 'published' || row.status === 'scheduled') ? row.unpublishAt : null,
  };
}

const contentObject = (row: { id: string; title: string }) => ({ kind: 'content', objectId: row.id, objectName: row.title }) as const;

/** `dbHandle`: the database pg-boss keeps its jobs in; `store`: the items' rows (server/db/availability-repository.ts). */
export function createContentScheduler(deps: { dbHandle: JobDatabase; store: SchedulerRepository; log: Log; config: ContentSchedulerConfig; now?: () => Date }): ContentScheduler {
  const { dbHandle, store, log, config } = deps;
  const now = deps.now ?? (() => new Date());
  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;

  async function send(jobId: string, data: JobData, at: Date): Promise<void> {
    if (!boss) return; // not started: start() reconciles the row
    await boss.send(AVAILABILITY_QUEUE, data, { id: jobId, startAfter: at, retryLimit: 5, retryDelay: 30, retryBackoff: true });
  }

  async function cancel(jobId: string): Promise<void> {
    if (!boss) return;
    await boss.cancel(AVAILABILITY_QUEUE, jobId).catch((error: unknown) => {
      log.warn({ job: jobId, err: error instanceof Error ? error.message : String(error) }, 'availability job cancel failed (it will find itself replaced)');
    });
  }

  async function syncOne(row: AvailabilityRow, which: 'publish' | 'unpublish', at: Date | null): Promise<void> {
    const currentId = which === 'publish' ? row.publishJobId : row.unpublishJobId;
    const currentAt = which === 'publish' ? row.publishJobAt : row.unpublishJobAt;
    if (sameTime(at, currentAt) && (at === null) === (currentId === null)) return;
    const nextId = at ? randomUUID() : null;
    if (!await store.setJob(row.siteId, row.id, which, currentId, { id: nextId, at })) return; // another sync won
    if (currentId) await cancel(currentId);
    if (nextId && at) await send(nextId, { siteId: row.siteId, contentId: row.id, action: which }, at);
  }

  async function sync(siteId: string, contentId: string): Promise<void> {
    const row = await store.findItem(siteId, contentId);
    if (!row) return;
    const want = wanted(row);
    await syncOne(row, 'publish', want.publish);
    await syncOne(row, 'unpublish', want.unpublish);
  }

  /** After a restart: every row's times have their job, and every job a row names exists. */
  async function reconcile(): Promise<void> {
    const rows = await store.itemsWithSchedules(100_000);
    const named = rows.flatMap((row) => [row.publishJobId, row.unpublishJobId]).filter((id): id is string => Boolean(id));
    const existing = await store.existingJobIds(AVAILABILITY_QUEUE, named);
    for (const row of rows) {
      const full = await store.findItem(row.siteId, row.id);
      if (!full) continue;
      const want = wanted(full);
      for (const which of ['publish', 'unpublish'] as const) {
        const jobId = which === 'publish' ? full.publishJobId : full.unpublishJobId;
        const jobAt = which === 'publish' ? full.publishJobAt : full.unpublishJobAt;
        if (jobId && jobAt && !existing.has(jobId) && sameTime(jobAt, want[which])) {
          await send(jobId, { siteId: full.siteId, contentId: full.id, action: which }, jobAt);
        } else {
          await syncOne(full, which, want[which]);
        }
      }
    }
  }

  async function run(jobId: string, data: JobData): Promise<'published' | 'unpublished' | 'refused' | 'stale'> {
    const at = now();
    return store.transaction(async (tx) => {
      const row = await tx.findItem(data.siteId, data.contentId, true);
      if (!row) return 'stale';
      if (data.action === 'publish') {
        if (row.publishJobId !== jobId) return 'stale';
        if (row.status !== 'scheduled') {
          await tx.clearJob(row, 'publish');
          return 'stale';
        }
        const licences = await tx.licencesOfItems(row.siteId, [row.id]);
        const refusal = licenceRefusal(licences, at, 'UTC');
        const after = await tx.applyScheduledPublish(row, at, refusal !== null);
        const keys = ['status', 'scheduledAt', 'publishedAt'] as const;
        const view = (r: AvailabilityRow) => Object.fromEntries(keys.map((k) => [k, r[k] instanceof Date ? (r[k] as Date).toISOString() : r[k] ?? null]));
        await recordRevision(tx, {
          ...contentObject(after), siteId: row.siteId, actorUserId: null, objectVersion: after.version,
          before: view(row), after: view(after), reason: refusal ?? 'Scheduled publication',
        });
        await tx.insertAuditEvent({
          at, action: refusal ? 'content.scheduled_publish_refused' : 'content.scheduled_publish', actorUserId: null, siteId: row.siteId,
          ...auditObject(contentObject(after)),
          detail: scrubDetail({ contentId: row.id, job: jobId, actor: 'system', scheduledAt: row.scheduledAt?.toISOString() ?? null, ...(refusal ? { refusal } : {}) }),
        });
        return refusal ? 'refused' : 'published';
      }
      if (row.unpublishJobId !== jobId) return 'stale';
      if (row.status !== 'published') {
        // Not live (yet): the time stays and the job is sent again by the next sync.
        await tx.clearJob(row, 'unpublish');
        return 'stale';
      }
      const after = await tx.applyScheduledUnpublish(row, at);
      const view = (r: AvailabilityRow) => ({ status: r.status, unpublishAt: r.unpublishAt?.toISOString() ?? null });
      await recordRevision(tx, {
        ...contentObject(after), siteId: row.siteId, actorUserId: null, objectVersion: after.version,
        before: view(row), after: view(after), reason: 'Scheduled unpublication',
      });
      await tx.insertAuditEvent({
        at, action: 'content.scheduled_unpublish', actorUserId: null, siteId: row.siteId, ...auditObject(contentObject(after)),
        detail: scrubDetail({ contentId: row.id, job: jobId, actor: 'system', unpublishAt: row.unpublishAt?.toISOString() ?? null }),
      });
      return 'unpublished';
    });
  }

  async function start(): Promise<void> {
    if (starting) return starting;
    starting = (async () => {
      const options = dbHandle.driver === 'pglite' && dbHandle.pglite
        ? { db: pgliteAdapter(dbHandle.pglite) }
        : { connectionString: dbHandle.connectionString, max: 3, application_name: 'cms-tools-jobs' };
      const instance = new PgBoss({ ...options, schema: 'pgboss', schedule: false, supervise: true } as ConstructorParameters<typeof PgBoss>[0]);
      instance.on('error', (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'job queue error'));
      try {
        // Issue 37: pg-boss's schema and the queue (create_queue adds a partition to pgboss.job) are
        // created under the database's start-up lock; two instances creating them at once deadlocked.
        await dbHandle.withLock(async () => {
          await instance.start();
          if (!await instance.getQueue(AVAILABILITY_QUEUE)) await instance.createQueue(AVAILABILITY_QUEUE);
        });
      } catch (error) {
        // A failed start must leave no pg-boss running (its pool, its supervisor) behind.
        starting = null;
        await instance.stop({ graceful: false, wait: true, timeout: 1000, close: dbHandle.driver !== 'pglite' }).catch(() => undefined);
        throw error;
      }
      boss = instance;
      await reconcile();
      await instance.work<JobData>(AVAILABILITY_QUEUE, { pollingIntervalSeconds: config.pollSeconds, batchSize: 5 }, async (jobs) => {
        for (const job of jobs) {
          const outcome = await run(job.id, job.data);
          log.info({ job: job.id, contentId: job.data.contentId, action: job.data.action, outcome }, 'availability job');
        }
      });
    })();
    return starting;
  }

  async function stop(): Promise<void> {
    const instance = boss;
    boss = null;
    starting = null;
    if (!instance) return;
    await instance.stop({ graceful: true, wait: true, timeout: 5000, close: dbHandle.driver !== 'pglite' });
  }

  return { start, stop, sync, run };
}
