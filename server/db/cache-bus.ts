/**
 * Cache invalidation across server instances (issue 31). Each instance keeps two caches of database
 * rows in memory: the session lookups (server/domain/auth-context.ts) and the service and networks
 * (server/db/service-cache.ts). A revocation or a write on one instance drops the entry there at
 * once and publishes a `CacheEvent` on the bus; every other instance drops the same entry when the
 * event arrives, so the TTLs only bound what a write outside any instance (a script) leaves behind.
 *
 * The PostgreSQL bus (server/db/pg-cache-bus.ts) is LISTEN/NOTIFY on one channel: a dedicated
 * connection LISTENs, NOTIFY goes through the pool. While that listener is not connected, `listening`
 * is false and the caches neither answer from nor store entries (every lookup goes to the database),
 * and when it (re)connects every subscriber is told to drop everything (`reset`): an event may have
 * been missed while it was down. On the embedded PGlite (one process) the bus is `localCacheBus`:
 * nothing to tell, always listening.
 *
 * `flush()` waits until every event published so far has been handed to the database; buildApp
 * waits for it before a response is sent (onSend), so when a client sees the answer to a logout or
 * a brand save the notification is already committed and on its way to every other instance.
 */

export type CacheEvent =
  /** One session was revoked: drop its lookup. */
  | { kind: 'session'; id: string }
  /** A user's sessions or credentials changed: drop the lookups of all the user's sessions. */
  | { kind: 'user'; id: string }
  /** A site setting read by the session lookup changed: drop the lookups of the site's sessions. */
  | { kind: 'site-sessions'; id: string }
  /** The site's service, networks or network rows changed: drop its service cache entry. */
  | { kind: 'service'; id: string };

const CACHE_EVENT_KINDS: readonly CacheEvent['kind'][] = ['session', 'user', 'site-sessions', 'service'];

export interface CacheBusHandler {
  /** An event published by another instance. */
  event(event: CacheEvent): void;
  /** Drop everything: the listener (re)connected or went down, so events may have been missed. */
  reset(): void;
}

export interface CacheBus {
  /** 'local': this process alone (PGlite); 'postgres': LISTEN/NOTIFY across instances. */
  readonly kind: 'local' | 'postgres';
  /** Tells every other instance (never calls this instance's own handlers). Never throws. */
  publish(event: CacheEvent): void;
  subscribe(handler: CacheBusHandler): () => void;
  /** False while the listener is disconnected: caches must not answer from memory then. */
  readonly listening: boolean;
  /** Diagnostics (tests, logs): the database backend process holding the LISTEN, when connected. */
  readonly listenerPid?: number;
  /** Resolves once every event published so far has been handed to the database (or failed). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The single-process bus: nothing to tell, always listening (the embedded PGlite default). */
export function createLocalCacheBus(): CacheBus {
  return {
    kind: 'local',
    publish() {},
    subscribe() {
      return () => {};
    },
    listening: true,
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** A wire payload parsed back into an event, or undefined when it is not one of ours. */
export function parseCacheEvent(value: unknown): CacheEvent | undefined {
  if (typeof value !== 'object' || value === null || !('kind' in value) || !('id' in value)) return undefined;
  const kind = CACHE_EVENT_KINDS.find((known) => known === value.kind);
  const { id } = value;
  if (kind === undefined) return undefined;
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) return undefined;
  return { kind, id };
}
