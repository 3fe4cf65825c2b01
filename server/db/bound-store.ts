/**
 * Repositories as the rules see them (issue 39): a set of SQL functions that take the database first
 * (`f(db, ...args)`), with the database given (`store.f(...args)`). `transactionalStore` adds
 * `transaction(work)`: `work` gets the same functions bound to one transaction, so a write, its
 * revision and its audit entry commit together. The domain declares each store's shape
 * (server/domain/ports.ts); the composition root (server/composition.ts) builds them here.
 */
import type { Db } from './client';

/** SQL functions that take the database (or a transaction) first. */
type DbFunctions = Record<string, (db: Db, ...args: never[]) => unknown>;

export type BoundToDb<T> = { [K in keyof T]: T[K] extends (db: never, ...args: infer A) => infer R ? (...args: A) => R : never };

/** Functions that take the database first, with the database given. */
export function bindDb<T extends DbFunctions>(db: Db, functions: T): BoundToDb<T> {
  return Object.fromEntries(Object.entries(functions).map(([name, f]) =>
    [name, (...args: unknown[]) => (f as (db: Db, ...rest: unknown[]) => unknown)(db, ...args)])) as BoundToDb<T>;
}

export type TransactionalStore<T> = BoundToDb<T> & {
  /** Runs `work` in one transaction over the same functions bound to it. */
  transaction<R>(work: (tx: BoundToDb<T>) => Promise<R>): Promise<R>;
};

/** `bindDb` plus `transaction(work)` (a savepoint inside an ambient transaction, server/db/ambient-transaction.ts). */
export function transactionalStore<T extends DbFunctions>(db: Db, functions: T): TransactionalStore<T> {
  return {
    ...bindDb(db, functions),
    transaction<R>(work: (tx: BoundToDb<T>) => Promise<R>): Promise<R> {
      return db.transaction((tx) => work(bindDb(tx as unknown as Db, functions)));
    },
  };
}
