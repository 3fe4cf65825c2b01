/**
 * The cache bus on PostgreSQL (server/db/cache-bus.ts, issue 31): LISTEN/NOTIFY on the channel
 * `cms_cache`. NOTIFY goes through the pool (`SELECT pg_notify(...)`); a dedicated pg client holds
 * the LISTEN. Each payload names the instance that sent it, so an instance ignores its own events.
 *
 * When the listener's connection ends or fails (or a health check every few seconds gets no answer),
 * `listening` turns false and every subscriber is told to drop everything; the bus reconnects with
 * a growing delay (250 ms up to 5 s) and, once LISTEN is back, tells them to drop everything again
 * (events sent while it was away are lost to it) and turns `listening` back on. While it is off the
 * caches go to the database on every read.
 *
 * On the embedded PGlite (one process) there is nobody to tell: `createCacheBus` gives the local bus.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Client } from 'pg';
import { createLocalCacheBus, parseCacheEvent, type CacheBus, type CacheBusHandler, type CacheEvent } from './cache-bus';
import type { DbHandle } from './client';

const CACHE_CHANNEL = 'cms_cache';

interface PgCacheBusOptions {
  /** Called with what went wrong on the listener or a NOTIFY (logged by the caller). */
  onError?: (message: string) => void;
  /** Health check of the listener connection (ms; default 5,000). */
  healthCheckMs?: number;
}

/** The bus of a database handle: LISTEN/NOTIFY on PostgreSQL, the local bus on PGlite. */
export async function createCacheBus(handle: DbHandle, options: PgCacheBusOptions = {}): Promise<CacheBus> {
  if (handle.driver !== 'postgres' || !handle.connectionString) return createLocalCacheBus();
  return createPgCacheBus(handle, handle.connectionString, options);
}

async function createPgCacheBus(handle: DbHandle, connectionString: string, options: PgCacheBusOptions): Promise<CacheBus> {
  const pg = (await import('pg')).default;
  const instance = randomUUID();
  const handlers = new Set<CacheBusHandler>();
  const pending = new Set<Promise<void>>();
  const healthCheckMs = options.healthCheckMs ?? 5_000;
  const report = (message: string) => options.onError?.(message);
  let client: Client | undefined;
  let listening = false;
  let closed = false;
  let retryMs = 250;
  let retryTimer: NodeJS.Timeout | undefined;
  let healthTimer: NodeJS.Timeout | undefined;

  const resetAll = () => {
    for (const handler of handlers) handler.reset();
  };

  function lost(reason: string, dead: Client): void {
    if (client !== dead) return;
    client = undefined;
    if (healthTimer) clearInterval(healthTimer);
    healthTimer = undefined;
    const was = listening;
    listening = false;
    if (was) resetAll();
    dead.removeAllListeners('notification');
    dead.on('error', () => undefined);
    dead.end().catch(() => undefined);
    if (closed) return;
    report(`cache bus listener lost (${reason}); caches are off until it reconnects`);
    schedule();
  }

  function schedule(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect().catch(() => undefined);
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 5_000);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client = next;
    next.on('error', (error) => lost(error.message, next));
    next.on('end', () => lost('connection ended', next));
    next.on('notification', (message) => {
      if (message.channel !== CACHE_CHANNEL || !message.payload) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.payload);
      } catch {
        return;
      }
      const from = (parsed as { from?: unknown }).from;
      const event = parseCacheEvent(parsed);
      if (!event || from === instance) return;
      for (const handler of handlers) handler.event(event);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (error) {
      lost(error instanceof Error ? error.message : String(error), next);
      throw error;
    }
    if (closed || client !== next) return;
    retryMs = 250;
    // Anything cached before (or while) the listener was away may have missed an event.
    resetAll();
    listening = true;
    healthTimer = setInterval(() => {
      next.query('SELECT 1').catch((error: unknown) => lost(error instanceof Error ? error.message : String(error), next));
    }, healthCheckMs);
    healthTimer.unref();
  }

  async function flush(): Promise<void> {
    if (pending.size > 0) await Promise.all([...pending]);
  }

  // The first connection is made before the server answers anything; if it fails, start anyway
  // (caches off) and keep trying in the background.
  await connect().catch(() => undefined);

  return {
    kind: 'postgres',
    get listening() {
      return listening;
    },
    get listenerPid() {
      return listening ? (client as (Client & { processID?: number }) | undefined)?.processID : undefined;
    },
    publish(event: CacheEvent) {
      if (closed) return;
      const payload = JSON.stringify({ from: instance, kind: event.kind, id: event.id });
      const sent: Promise<void> = handle.db.execute(sql`SELECT pg_notify(${CACHE_CHANNEL}, ${payload})`).then(
        () => undefined,
        (error: unknown) => report(`cache bus NOTIFY failed (${error instanceof Error ? error.message : String(error)}): other instances keep ${event.kind} ${event.id} until their cache time passes`),
      ).finally(() => pending.delete(sent));
      pending.add(sent);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    flush,
    async close() {
      if (closed) return;
      await flush();
      closed = true;
      listening = false;
      if (retryTimer) clearTimeout(retryTimer);
      if (healthTimer) clearInterval(healthTimer);
      const last = client;
      client = undefined;
      if (last) {
        last.removeAllListeners();
        last.on('error', () => undefined);
        await last.end().catch(() => undefined);
      }
    },
  };
}
