/**
 * Revisions (issue 28): the vocabulary of every object the console edits, the area whose roles
 * read its history and restore it, and the wire shapes of the history and restore calls.
 * The server writes one revision per write of an object (server/domain/revisions.ts).
 */
import { AREA_NAMES, AREAS, type AreaName } from './constants';

/** Every kind of object a revision can name, with the area whose roles guard it. */
export const REVISION_KINDS = {
  content: { area: AREAS.content, label: 'content item' },
  /** Issue 29: a named set of countries (Content › Country Group). */
  countryGroup: { area: AREAS.content, label: 'country group' },
  /** Issue 29: a video licence window of one item (Content › Video License). */
  licence: { area: AREAS.content, label: 'video licence' },
  /** Issue 40: a video of Content › Media (its captions, HLS address, poster time). */
  media: { area: AREAS.content, label: 'video' },
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
  /** A plan's subscribers on earlier prices moved to its current price at their next renewal (issue 30; object: the plan). */
  planPriceMove: { area: AREAS.subscriptionsOffers, label: 'move to the current price' },
  /** The paywall order of the site's plan groups (one object per site). */
  planGroupOrder: { area: AREAS.subscriptionsOffers, label: 'plan group order' },
  offer: { area: AREAS.subscriptionsOffers, label: 'offer' },
  coupon: { area: AREAS.subscriptionsOffers, label: 'coupon' },
  /** A batch of generated coupon codes (one object per batch). */
  couponBatch: { area: AREAS.subscriptionsOffers, label: 'coupon batch' },
  staff: { area: AREAS.admin, label: 'staff account' },
  /** The site's second-factor rule (issue 30, common/second-factor-rule.ts). */
  siteSecurity: { area: AREAS.admin, label: 'second-factor rule' },
  subscription: { area: AREAS.customerSupport, label: 'subscription' },
  subscriber: { area: AREAS.customerSupport, label: 'subscriber' },
  /** A subscriber's payment: a support refund (issue 29). */
  payment: { area: AREAS.customerSupport, label: 'payment' },
  /** Issue 41: a Dashboard 360 alert rule (metric, filters, threshold, duration, on/off). */
  qoeAlertRule: { area: AREAS.dashboard360, label: 'alert rule' },
  /** Issue 41: where a site's alerts are sent (webhook address, e-mail addresses; one object per site). */
  qoeAlertSettings: { area: AREAS.dashboard360, label: 'alert delivery' },
  /** Issue 41: a saved view (a Dashboard 360 page with its range and filters). */
  qoeSavedView: { area: AREAS.dashboard360, label: 'saved view' },
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
  /** The write created the object (issue 37): it cannot be restored or undone (absent in older answers: false). */
  creation?: boolean;
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
  /** Issue 37: the revision that created an object has no earlier values (the History panel does not offer it). */
  creation: (label: string) => `This revision created the ${label}: there are no earlier values to restore.`,
  badKind: 'Unknown kind of object.',
} as const;

/** What the History panel says (machines/history.machine.ts, src/views/shared/HistoryPanel.tsx). */
export const HISTORY_PANEL_MESSAGES = {
  title: 'History',
  /** The button of a History behind a disclosure (src/views/shared/HistoryDisclosure.tsx). */
  show: 'Show history',
  hide: 'Hide history',
  loading: 'Loading the history…',
  loadFailed: 'The history could not be loaded.',
  empty: 'No changes recorded yet.',
  restoreFailed: 'The revision could not be restored.',
  conflict: 'Someone else saved this after you opened it, so nothing was restored. Reload to see their version, then restore again if you still want to.',
  restored: (seq: number) => `Revision #${seq} restored: its earlier values are back, recorded as a new revision.`,
  nothingRestored: (seq: number) => `Revision #${seq} restored: nothing differed from the current values.`,
  confirmTitle: (seq: number) => `Restore revision #${seq}?`,
  confirmBody: (count: number) =>
    `${count === 1 ? 'This field goes' : `These ${count} fields go`} back to the value ${count === 1 ? 'it' : 'they'} had before this revision. Unsaved edits in the form are discarded. The restore is itself recorded as a new revision, so it can be undone the same way.`,
  readOnly: 'Your role can read this history but not restore it.',
  notRestorable: 'This kind of object cannot be restored from its history; its changes are listed for reference.',
  /** Issue 37: shown instead of Restore on the revision that created the object. */
  creation: 'This revision created it: there are no earlier values to restore.',
  unknownActor: 'the system',
} as const;

/** Field names as the History panel labels them, where the words are not the field name's own. */
export const REVISION_FIELD_LABELS: Readonly<Record<string, string>> = {
  prices: 'Price',
  planIds: 'Plans',
  offerId: 'Offer',
  trialDays: 'Trial days',
  deviceLimit: 'Device limit',
  billingPeriod: 'Billing period',
  discountType: 'Discount type',
  discountValue: 'Discount',
  maxRedemptions: 'Maximum redemptions',
  maxPerSubscriber: 'Maximum per subscriber',
  expiresAt: 'Expires',
  startsAt: 'Starts',
  endsAt: 'Ends',
  scheduledAt: 'Scheduled publish',
  isActive: 'Launched',
  isMonetizationModelEnabled: 'Monetization',
  serviceType: 'Main service type',
  serviceTypes: 'Service types',
  models: 'Models',
  logoUrl: 'Logo',
  iconUrl: 'Icon',
  // A content item's links and images (issue 38: "Series", never "Series id"; an image never as its address).
  seriesId: 'Series',
  seasonNumber: 'Season',
  episodeNumber: 'Episode',
  posterUrl: 'Poster',
  artworkUrl: 'Artwork',
  signingKey: 'Signing key',
  templateName: 'Template',
  secondFactorRule: 'Second factor at sign-in',
  // The two switches the rule replaced (issue 30): older revisions still name them.
  requireAuthenticator: 'Authenticator app required for everyone',
  requireTwoFactor: 'SMS code required for everyone',
  roles: 'Roles',
  order: 'Order',
  // A staff account (Admin › Staff): its roles read one line per area ("Content: read → write"), its
  // switches On/Off and its `disabled` as the account's state (common/staff-revision-words.ts).
  ...Object.fromEntries(AREA_NAMES.map((area) => [`roles.${area}`, area])),
  twoFactorOnLogin: 'SMS code at sign-in',
  phone: 'Mobile number',
  accountState: 'Account',
};

/* ------------------------------- Undo (issue 28) ------------------------------- */

// Its times, path, header and words are in ./undo.ts (the snackbar's undo, on the sign-in page's first
// load, reads only those: issue 39); re-exported here for the history code and the server.
export { REQUEST_ID_HEADER, UNDO_ACCEPT_MS, UNDO_MESSAGES, UNDO_OFFER_MS, UNDO_PATH } from './undo';

/** Kinds a request's revisions may be undone for (the restorable ones and a network's launch state). */
/** Restorable kinds, a network's launch state, the paywall order of plan groups and a subscription's "cancel at period end" (its Undo resumes it). */
export const UNDOABLE_KINDS: readonly RevisionKind[] = [...RESTORABLE_KINDS, 'network', 'planGroupOrder', 'subscription'];

export interface RevisionUndoRequest {
  requestId: string;
}

export interface RevisionUndoResponse {
  success: true;
  /** The revisions the undo wrote, one per object it put back. */
  revisions: Revision[];
}

