/**
 * One transaction around many writes that each open their own (issue 37: Undo and Restore are
 * atomic). The services are built once over one `Db` (server/composition.ts); that `Db` is
 * `ambientDb(handle.db)`, which sends every call to the transaction opened by `inOneTransaction`
 * when the caller runs inside one, else to the database as before. A service's own
 * `db.transaction(...)` inside it becomes a savepoint of the outer transaction, so a failure
 * anywhere rolls every write back: all of them commit, or none does.
 *
 * Work that must only follow a commit (a scheduler sync, a cache drop other instances hear)
 * goes through `afterCommit`: inside an outer transaction it waits for that commit (and is dropped
 * on a rollback); outside one it runs at once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './client';

interface Ambient {
  tx: Db;
  after: (() => Promise<void> | void)[];
}

const ambient = new AsyncLocalStorage<Ambient>();

const underlying = new WeakMap<object, object>();

/** The handle's db behind an `ambientDb` view (itself for any other object): caches keyed by db use it. */
export function underlyingDb<T extends object>(db: T): T {
  return (underlying.get(db) as T | undefined) ?? db;
}

/** The database as the services see it: the ambient transaction when there is one, else `db`. */
export function ambientDb(db: Db): Db {
  const view = new Proxy(db, {
    get(target, property) {
      const tx = ambient.getStore()?.tx;
      const source = tx && property in tx ? tx : target;
      const value = Reflect.get(source, property, source) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(source) : value;
    },
  });
  underlying.set(view, db);
  return view;
}

/** Whether the caller runs inside `inOneTransaction`. */
export function inAmbientTransaction(): boolean {
  return ambient.getStore() !== undefined;
}

/**
 * Runs `work` in one transaction of `db` that every call through an `ambientDb` joins; then runs
 * what `afterCommit` queued. Inside another `inOneTransaction` it joins that one.
 */
export async function inOneTransaction<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (ambient.getStore()) return work();
  const after: Ambient['after'] = [];
  const result = await db.transaction(async (tx) => ambient.run({ tx: tx as unknown as Db, after }, work));
  for (const next of after) await next();
  return result;
}

/** Runs `fn` now, or after the ambient transaction commits (never when it rolls back). */
export async function afterCommit(fn: () => Promise<void> | void): Promise<void> {
  const store = ambient.getStore();
  if (store) store.after.push(fn);
  else await fn();
}
