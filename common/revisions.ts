/**
 * Revisions (issue 28): the vocabulary of every object the console edits, the area whose roles
 * read its history and restore it, and the wire shapes of the history and restore calls.
 * The server writes one revision per write of an object (server/domain/revisions.ts).
 */
import { AREAS, type AreaName } from './constants';

/** Every kind of object a revision can name, with the area whose roles guard it. */
export const REVISION_KINDS = {
  content: { area: AREAS.content, label: 'content item' },
  brand: { area: AREAS.appCms, label: 'brand' },
  settings: { area: AREAS.appCms, label: 'settings' },
  devices: { area: AREAS.appCms, label: 'devices' },
  /** The site's service fields and template (AppCMS › Service), the signing key's rotation included. */
  service: { area: AREAS.appCms, label: 'service' },
  /** A network's launch state (isActive). */
  network: { area: AREAS.appCms, label: 'network' },
  /** The site's Models (Monetization › Models: service types and the monetization switch). */
  models: { area: AREAS.subscriptionsOffers, label: 'models' },
  plan: { area: AREAS.subscriptionsOffers, label: 'plan' },
  planGroup: { area: AREAS.subscriptionsOffers, label: 'plan group' },
  /** The paywall order of the site's plan groups (one object per site). */
  planGroupOrder: { area: AREAS.subscriptionsOffers, label: 'plan group order' },
  offer: { area: AREAS.subscriptionsOffers, label: 'offer' },
  coupon: { area: AREAS.subscriptionsOffers, label: 'coupon' },
  /** A batch of generated coupon codes (one object per batch). */
  couponBatch: { area: AREAS.subscriptionsOffers, label: 'coupon batch' },
  staff: { area: AREAS.admin, label: 'staff account' },
  /** The site's rule that every account signs in with a second factor. */
  siteSecurity: { area: AREAS.admin, label: 'two-factor rule' },
  subscription: { area: AREAS.customerSupport, label: 'subscription' },
  subscriber: { area: AREAS.customerSupport, label: 'subscriber' },
} as const satisfies Record<string, { area: AreaName; label: string }>;

export type RevisionKind = keyof typeof REVISION_KINDS;

export function isRevisionKind(value: unknown): value is RevisionKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(REVISION_KINDS, value);
}

/** Kinds whose revisions can be restored (a restore writes the revision's `before` values back as a new revision). */
export const RESTORABLE_KINDS: readonly RevisionKind[] = [
  'content', 'brand', 'settings', 'devices', 'service', 'plan', 'planGroup', 'offer', 'coupon',
];

export interface RevisionChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface Revision {
  /** Monotonic number of the revision (its id). */
  seq: number;
  kind: RevisionKind;
  objectId: string;
  objectName: string | null;
  networkId: string | null;
  objectVersion: number | null;
  actor: { id: string; username: string | null } | null;
  at: string;
  reason: string | null;
  requestId: string | null;
  restoredFrom: number | null;
  changes: RevisionChange[];
}

export interface RevisionHistoryResponse {
  success: true;
  kind: RevisionKind;
  objectId: string;
  items: Revision[];
  total: number;
  page: number;
  pageSize: number;
  /** Whether the caller may restore (write role of the object's area). */
  canRestore: boolean;
  restorable: boolean;
}

export interface RevisionRestoreRequest {
  /** The object's version as the caller last read it: a stale one is the editors' 409. */
  version: number;
}

export interface RevisionRestoreResponse {
  success: true;
  /** The new revision the restore wrote (null when nothing differed). */
  revision: Revision | null;
  /** The object's version after the restore. */
  version: number | null;
}

export const REVISION_PAGE_SIZE = 20;
export const REVISION_PAGE_SIZE_MAX = 100;

export const REVISION_PATHS = {
  /** GET `${history}/:kind/:objectId?page&pageSize`: one object's revisions, newest first. */
  history: '/v1/revisions',
  /** POST `${restore}/:seq/restore` with { version }. */
  restore: '/v1/revisions',
} as const;

/** What the history and restore calls answer when they refuse (server/domain/history.ts). */
export const HISTORY_MESSAGES = {
  notFound: 'That revision does not exist.',
  notRestorable: (label: string) => `A ${label} cannot be restored from its history yet.`,
  badKind: 'Unknown kind of object.',
} as const;

/** What a page's version list says when its load or a restore fails (machines/versions.machine.ts). */
export const VERSIONS_MESSAGES = {
  loadFailed: 'The versions could not be loaded.',
  restoreFailed: 'The version could not be restored.',
} as const;
