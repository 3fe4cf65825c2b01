/**
 * The one write path's revision (issue 28). Every write of an editable object calls
 * `recordRevision(tx, ...)` with the transaction that holds the write, so the write, its revision
 * and its audit entry commit together or not at all: a revision that cannot be written rolls the
 * write back. A revision names the object (kind, id, name, network, site), who (the staff id), when,
 * why (the action's reason, or a restore's), the request (its id), and only the fields that changed,
 * each with its value before and after.
 *
 * The request id and a restore's reason reach the write through an AsyncLocalStorage context
 * (`revisionContextHook`, installed for every route by server/http/revision-routes.ts), so the
 * domain functions keep their signatures.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER, type RevisionChange, type RevisionKind } from '../../common/revisions';
import { requestScope } from '../request-scope';
import type { RevisionRow, RevisionValues } from './rows';

export interface RevisionContext {
  requestId?: string;
  /** Why the write happens when the action does not say (a restore says "Restore of revision #N"). */
  reason?: string;
  /** The revision a restore (or an undo) writes back. */
  restoredFrom?: number;
  /** Set by a restore from a History only (not an undo): its audit rows are the restore's (server/db/audit-repository.ts). */
  restoreOf?: number;
  /** Collects the revisions written under this context (a restore answers the one it wrote). */
  written?: RevisionRow[];
}

/** The request scope of server/request-scope.ts, so repositories read the same request id (audit rows). */
const context = requestScope as AsyncLocalStorage<RevisionContext>;

/** Runs `work` with `patch` added to the current revision context (request id, restore reason). */
export function withRevisionContext<T>(patch: RevisionContext, work: () => T): T {
  return context.run({ ...context.getStore(), ...patch }, work);
}

export function currentRevisionContext(): RevisionContext {
  return context.getStore() ?? {};
}

/**
 * A request's id (issue 37): always a new UUID the server mints, whatever the caller sent. It joins a
 * request's revisions to its audit rows and names the request an Undo reverses, so no caller may
 * choose it: an id read from another actor's History and sent again names a new request. Unique
 * across instances and restarts, unlike a counter. The caller learns it from the answer's
 * x-request-id header (`requestIdHeaderHook`).
 */
export function requestIdOf(): string {
  return randomUUID();
}

/** A Fastify onRequest-shaped hook: every answer carries its request's (server-minted) id in x-request-id. */
export function requestIdHeaderHook(request: { id: string }, reply: { header(name: string, value: string): unknown }, done: () => void): void {
  reply.header(REQUEST_ID_HEADER, String(request.id));
  done();
}

/** A Fastify preHandler-shaped hook: the rest of the request runs with its request id in the context. */
export function revisionContextHook(request: { id: string }, _reply: unknown, done: () => void): void {
  context.run({ requestId: String(request.id) }, done);
}

/** Fields no operator edits: they move with every write and never make a change on their own. */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'createdAt', 'siteId', 'id', 'networkId', 'titleSearch', 'titleWords', 'serviceVersion', 'monetizationVersion']);

/** A value as JSON would carry it (dates as ISO text), so before and after compare by content. */
export function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value as Record<string, unknown>).sort().map((k) => [k, plain((value as Record<string, unknown>)[k])]));
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

/**
 * The fields that differ between `before` and `after` (null before: a creation, null after: a
 * deletion), in the order of `fields` when given, else of the keys of both. Bookkeeping columns
 * (version, timestamps, ids) are never a change.
 */
export function diffFields(
  before: Record<string, unknown> | null, after: Record<string, unknown> | null, fields?: readonly string[],
): RevisionChange[] {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !BOOKKEEPING.has(k));
  return keys
    .filter((key) => !same(before?.[key] ?? null, after?.[key] ?? null))
    .map((field) => ({ field, before: plain(before?.[field] ?? null), after: plain(after?.[field] ?? null) }));
}

export interface RevisionInput {
  kind: RevisionKind;
  objectId: string;
  /** The object in words ("Kids Zone", "Basic Monthly"); the audit row carries it too. */
  objectName?: string | null;
  siteId: string;
  networkId?: string | null;
  actorUserId: string | null;
  /** The object's version after the write. */
  objectVersion?: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The fields to compare (default: every key of both but bookkeeping). */
  fields?: readonly string[];
  /** The action's own reason (support actions); else the context's (a restore's). */
  reason?: string | null;
  /** Keep `after` whole as the revision's snapshot (small objects: the settings' versions read it). */
  snapshot?: boolean;
  /**
   * The write created the object (issue 37: nothing to restore or undo). Default: no `before`, except
   * a subscriber's, whose `before: null` is a note added to an existing subscriber.
   */
  creation?: boolean;
}

/** Where a revision goes: a repository bound to the write's transaction (its `insertRevision`). */
export interface RevisionSink { insertRevision(values: RevisionValues): Promise<RevisionRow> }

/** Where many revisions go at once: a repository bound to the write's transaction. */
export interface RevisionsSink { insertRevisions(values: readonly RevisionValues[]): Promise<RevisionRow[]> }

type Fault = (row: RevisionRow) => void | Promise<void>;
let fault: Fault | null = null;

/**
 * Tests only: called inside the write's transaction right after each revision is inserted; a throw
 * there must leave neither the write nor its revision (server/revisions.test.ts).
 */
export function injectRevisionFault(next: Fault | null): void {
  fault = next;
}

/**
 * Writes the revision of one write, in the transaction `tx` of that write. Answers the revision, or
 * null when no field changed (a save of the same values writes no revision).
 */
export async function recordRevision(tx: RevisionSink, input: RevisionInput): Promise<RevisionRow | null> {
  const changes = diffFields(input.before, input.after, input.fields);
  if (changes.length === 0) return null;
  const values = revisionValues(input, changes);
  const row = await tx.insertRevision(values);
  currentRevisionContext().written?.push(row);
  if (fault) await fault(row);
  return row;
}

/**
 * Writes the revisions of one write that changed many objects (issue 38: a plan's move at the next
 * renewal, one per subscription) in bulk, in the transaction `tx` of that write; inputs with no
 * changed field write nothing. Answers the revisions written.
 */
export async function recordRevisions(tx: RevisionsSink, inputs: readonly RevisionInput[]): Promise<RevisionRow[]> {
  const values = inputs.flatMap((input) => {
    const changes = diffFields(input.before, input.after, input.fields);
    return changes.length === 0 ? [] : [revisionValues(input, changes)];
  });
  if (values.length === 0) return [];
  const rows = await tx.insertRevisions(values);
  currentRevisionContext().written?.push(...rows);
  if (fault) for (const row of rows) await fault(row);
  return rows;
}

function revisionValues(input: RevisionInput, changes: RevisionChange[]): RevisionValues {
  const ctx = currentRevisionContext();
  return {
    siteId: input.siteId,
    networkId: input.networkId ?? null,
    objectKind: input.kind,
    objectId: input.objectId,
    objectName: input.objectName ?? null,
    objectVersion: input.objectVersion ?? null,
    actorUserId: input.actorUserId,
    at: new Date(),
    reason: input.reason ?? ctx.reason ?? null,
    requestId: ctx.requestId ?? null,
    restoredFrom: ctx.restoredFrom ?? null,
    creation: input.creation ?? (input.before === null && input.kind !== 'subscriber'),
    changes,
    snapshot: input.snapshot && input.after ? plain(input.after) as Record<string, unknown> : null,
  };
}

/** The object columns of an audit row (server/db/audit-repository.ts) for the object a revision names. */
export function auditObject(input: Pick<RevisionInput, 'kind' | 'objectId' | 'objectName'>): { objectKind: string; objectId: string; objectName: string | null } {
  return { objectKind: input.kind, objectId: input.objectId, objectName: input.objectName ?? null };
}
