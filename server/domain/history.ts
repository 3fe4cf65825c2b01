/**
 * History and restore of one object (issue 28), over the revisions every write records
 * (server/domain/revisions.ts).
 *
 * - History: an object's revisions newest first, paged; readable with any role in the object's
 *   area (REVISION_KINDS of common/revisions.ts), only within the caller's site.
 * - Restore of one revision: the fields it changed go back to their `before` values through the
 *   object's own editor rule (the same role check, validation, optimistic-concurrency check with
 *   the version the caller read, and the same 409 as a stale edit), which writes a NEW revision
 *   (reason "Restore of revision #N", restoredFrom N) and its audit entry in one transaction.
 */
import { flattenBrand, THEME_KEYS, type AppcmsBrand } from '../../common/appcms';
import { formatMoney } from '../../common/monetization-rules';
import { canContinue, canEdit } from '../../common/roles';
import {
  HISTORY_MESSAGES, REVISION_KINDS, REVISION_PAGE_SIZE, REVISION_PAGE_SIZE_MAX, RESTORABLE_KINDS, UNDO_ACCEPT_MS, UNDO_MESSAGES,
  UNDOABLE_KINDS, isRevisionKind,
  type Revision, type RevisionHistoryResponse, type RevisionKind, type RevisionRestoreResponse, type RevisionUndoResponse,
} from '../../common/revisions';
import type { RevisionHistoryStore } from './ports';
import type { RevisionRow, RevisionWithActor } from './rows';
import { getAppcmsService, getBrand, getDevices, getSettings, flattenDevices, saveAppcmsService, saveBrand, saveDevices, saveSettings, unflattenDevices, type AppcmsDeps } from './appcms';
import type { AuthContext } from './auth-context';
import type { ContentService } from './content';
import { conflict, forbidden, invalid, isDomainError, notFound } from './errors';
import type { Monetization } from './monetization';
import { publishNetwork, withdrawNetwork } from './networks';
import { resumeSubscription, type SupportDeps } from './support';
import { currentRevisionContext, withRevisionContext } from './revisions';

export interface HistoryDeps {
  /** The revisions, the one transaction of a restore or an undo, the service cache. */
  revisions: RevisionHistoryStore;
  appcms: AppcmsDeps;
  monetization: Monetization;
  content: ContentService;
  /** Customer support's store: the Undo of a subscription set to cancel at its period end resumes it. */
  support?: SupportDeps;
  /** Issue 40: an item's video change is put back through the media rules (server/domain/media.ts setVideo). */
  media?: { setVideo(ctx: AuthContext, contentId: string, assetId: string | null): Promise<unknown> };
}

function toRevision(row: RevisionWithActor): Revision {
  return {
    seq: row.seq, kind: row.objectKind as RevisionKind, objectId: row.objectId, objectName: row.objectName, networkId: row.networkId,
    objectVersion: row.objectVersion, actor: row.actorUserId ? { id: row.actorUserId, username: row.actorUsername } : null,
    at: row.at.toISOString(), reason: row.reason, requestId: row.requestId, restoredFrom: row.restoredFrom, creation: row.creation, changes: row.changes,
  };
}

function requireReadOf(ctx: AuthContext, kind: RevisionKind): void {
  if (!canContinue(ctx.user.roles, REVISION_KINDS[kind].area)) throw forbidden();
}

function requireWriteOf(ctx: AuthContext, kind: RevisionKind): void {
  requireReadOf(ctx, kind);
  if (!canEdit(ctx.user.roles, REVISION_KINDS[kind].area)) throw forbidden();
}

/** The fields a restore writes: each changed field's value before the revision. */
function beforeValues(row: RevisionRow): Record<string, unknown> {
  return Object.fromEntries(row.changes.map((c) => [c.field, c.before]));
}

function unflattenBrand(flat: Record<string, unknown>): Pick<AppcmsBrand, 'logoUrl' | 'iconUrl' | 'theme' | 'themeOtt' | 'themeApps'> {
  const brand: Record<string, unknown> = { logoUrl: flat.logoUrl, iconUrl: flat.iconUrl };
  for (const key of THEME_KEYS) {
    brand[key] = Object.fromEntries(Object.entries(flat).filter(([k]) => k.startsWith(`${key}.`)).map(([k, v]) => [k.slice(key.length + 1), v]));
  }
  return brand as Pick<AppcmsBrand, 'logoUrl' | 'iconUrl' | 'theme' | 'themeOtt' | 'themeApps'>;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const iso = (value: unknown): string => (value === null || value === undefined || value === '' ? '' : new Date(String(value)).toISOString());

type Restorer = (deps: HistoryDeps, ctx: AuthContext, row: RevisionRow, version: number) => Promise<unknown>;

function appcmsCaller(ctx: AuthContext) {
  return { userId: ctx.user.id, siteId: ctx.site.id, roles: ctx.user.roles as Record<string, string>, username: ctx.user.username };
}

async function networkIdentifier(deps: HistoryDeps, ctx: AuthContext, networkId: string | null): Promise<string> {
  const network = (await deps.appcms.networks.networksOf(ctx.site.id)).find((n) => n.id === networkId);
  if (!network) throw notFound(HISTORY_MESSAGES.notFound);
  return network.identifier;
}

const monetizationCaller = (ctx: AuthContext) => ({ userId: ctx.user.id, siteId: ctx.site.id, roles: ctx.user.roles as Record<string, string> });

/** How each restorable kind writes its `before` values back: always through the object's own editor rule. */
const RESTORERS: Partial<Record<RevisionKind, Restorer>> = {
  async content(deps, ctx, row, version) {
    const before = beforeValues(row);
    // Issue 40: the video it had (or none) is attached again; the asset replaced stays in Media.
    if ('mediaAssetId' in before && deps.media) return deps.media.setVideo(ctx, row.objectId, typeof before.mediaAssetId === 'string' ? before.mediaAssetId : null);
    const request: Record<string, unknown> = { version };
    for (const key of ['title', 'description', 'genre', 'tags', 'status', 'rating', 'originalLanguage'] as const) if (key in before && before[key] !== null) request[key] = before[key];
    if ('releaseDate' in before) request.releaseDate = before.releaseDate;
    if ('scheduledAt' in before) request.scheduledAt = before.scheduledAt;
    // Issue 38: the artwork it had ('' when none) is put back.
    for (const key of ['artworkUrl', 'posterUrl'] as const) if (key in before) request[key] = before[key] ?? '';
    return deps.content.update(ctx, row.objectId, request as Parameters<ContentService['update']>[2]);
  },
  async brand(deps, ctx, row, version) {
    const caller = appcmsCaller(ctx);
    const network = await networkIdentifier(deps, ctx, row.networkId);
    const current = await getBrand(deps.appcms, caller, ctx.site.siteInternalName, network);
    const flat = { ...flattenBrand(current), ...beforeValues(row) };
    return saveBrand(deps.appcms, caller, ctx.site.siteInternalName, network, { ...unflattenBrand(flat), version });
  },
  async settings(deps, ctx, row, version) {
    const caller = appcmsCaller(ctx);
    const network = await networkIdentifier(deps, ctx, row.networkId);
    const values = Object.fromEntries(Object.entries(beforeValues(row)).filter(([, v]) => v !== null));
    await getSettings(deps.appcms, caller, ctx.site.siteInternalName, network);
    return saveSettings(deps.appcms, caller, ctx.site.siteInternalName, network, { values, version });
  },
  async devices(deps, ctx, row, version) {
    const caller = appcmsCaller(ctx);
    const network = await networkIdentifier(deps, ctx, row.networkId);
    const current = await getDevices(deps.appcms, caller, ctx.site.siteInternalName, network);
    const devices = unflattenDevices({ ...flattenDevices(current.devices), ...beforeValues(row) }, current.devices);
    return saveDevices(deps.appcms, caller, ctx.site.siteInternalName, network, { devices, version });
  },
  async service(deps, ctx, row, version) {
    const caller = appcmsCaller(ctx);
    await getAppcmsService(deps.appcms, caller, ctx.site.siteInternalName);
    // A rotated signing key is never restored (the revision holds only its masked form).
    const fields = Object.fromEntries(Object.entries(beforeValues(row)).filter(([k]) => k !== 'signingKey'));
    if (Object.keys(fields).length === 0) throw conflict(HISTORY_MESSAGES.notRestorable('signing key'));
    return saveAppcmsService(deps.appcms, caller, ctx.site.siteInternalName, { ...fields, version });
  },
  async plan(deps, ctx, row, version) {
    const caller = monetizationCaller(ctx);
    const merged = { ...await deps.monetization.getPlan(caller, row.objectId), ...beforeValues(row) } as Record<string, unknown>;
    const prices = (merged.prices as { currency: string; amount: number }[]).map((p) => ({ currency: p.currency, amount: formatMoney(p.amount, p.currency) }));
    return deps.monetization.updatePlan(caller, row.objectId, version, {
      name: text(merged.name), description: text(merged.description), prices, billingPeriod: text(merged.billingPeriod),
      trialDays: Number(merged.trialDays), deviceLimit: Number(merged.deviceLimit), status: text(merged.status),
    });
  },
  async planGroup(deps, ctx, row, version) {
    const caller = monetizationCaller(ctx);
    const merged = { ...await deps.monetization.getPlanGroup(caller, row.objectId), ...beforeValues(row) } as Record<string, unknown>;
    return deps.monetization.updatePlanGroup(caller, row.objectId, version, {
      name: text(merged.name), description: text(merged.description), planIds: merged.planIds as string[],
    });
  },
  async offer(deps, ctx, row, version) {
    const caller = monetizationCaller(ctx);
    const merged = { ...await deps.monetization.getOffer(caller, row.objectId), ...beforeValues(row) } as Record<string, unknown>;
    const currency = text(merged.currency);
    const value = Number(merged.discountValue);
    return deps.monetization.updateOffer(caller, row.objectId, version, {
      name: text(merged.name), discountType: text(merged.discountType),
      discountValue: merged.discountType === 'fixed' ? formatMoney(value, currency) : String(value), currency,
      planIds: merged.planIds as string[], startsAt: iso(merged.startsAt), endsAt: iso(merged.endsAt),
      eligibility: text(merged.eligibility), status: text(merged.status),
    });
  },
  /** A network's launch state (issue 28's Undo of a launch or a withdrawal): launched or withdrawn again. */
  async network(deps, ctx, row) {
    const before = beforeValues(row);
    const identifier = await networkIdentifier(deps, ctx, row.networkId ?? row.objectId);
    const write = before.isActive === true ? publishNetwork : withdrawNetwork;
    return write(deps.appcms.networks, appcmsCaller(ctx), ctx.site.siteInternalName, identifier);
  },
  /** The paywall order of the site's groups goes back to the order before (issue 28's Undo of a reorder). */
  async planGroupOrder(deps, ctx, row) {
    const caller = monetizationCaller(ctx);
    const order = (beforeValues(row).order ?? []) as { id: string }[];
    const current = await deps.monetization.listPlanGroups(caller);
    const versionOf = new Map(current.map((g) => [g.id, g.version]));
    return deps.monetization.reorderPlanGroups(caller, order.map((g) => ({ id: g.id, version: versionOf.get(g.id) ?? 0 })));
  },
  /** A subscription set to cancel at its period end renews again (the Undo of "cancel at period end"). */
  async subscription(deps, ctx, row, version) {
    const before = beforeValues(row);
    const after = Object.fromEntries(row.changes.map((c) => [c.field, c.after]));
    if (!deps.support || before.cancelAtPeriodEnd !== false || after.cancelAtPeriodEnd !== true) {
      throw conflict(HISTORY_MESSAGES.notRestorable(REVISION_KINDS.subscription.label));
    }
    return resumeSubscription(deps.support, monetizationCaller(ctx), { subscriptionId: row.objectId, reason: UNDO_MESSAGES.resumeReason, version });
  },
  async coupon(deps, ctx, row, version) {
    const caller = monetizationCaller(ctx);
    const changed = row.changes.map((c) => c.field);
    // A disable or an enable goes back through the same switch (issue 28's Undo of a coupon disable).
    if (changed.length === 1 && changed[0] === 'status') return deps.monetization.setCouponStatus(caller, row.objectId, version, text(beforeValues(row).status));
    const merged = { ...await deps.monetization.getCoupon(caller, row.objectId), ...beforeValues(row) } as Record<string, unknown>;
    return deps.monetization.updateCoupon(caller, row.objectId, version, {
      offerId: text(merged.offerId), code: text(merged.code), maxRedemptions: text(merged.maxRedemptions),
      maxPerSubscriber: text(merged.maxPerSubscriber), expiresAt: iso(merged.expiresAt), status: text(merged.status),
    });
  },
};

/** Kinds that are one object per site: the page names it `site` (the browser does not hold the site's id). */
const SITE_KINDS: readonly RevisionKind[] = ['service', 'models', 'siteSecurity', 'planGroupOrder'];
/** Kinds that are one object per network: the page may name it by the network's identifier. */
const NETWORK_KINDS: readonly RevisionKind[] = ['brand', 'settings', 'devices', 'network'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The object's id as revisions store it: `site` is the caller's site; a network's identifier is its id. */
async function storedObjectId(deps: HistoryDeps, ctx: AuthContext, kind: RevisionKind, objectId: string): Promise<string> {
  if (SITE_KINDS.includes(kind) && objectId === 'site') return ctx.site.id;
  if (NETWORK_KINDS.includes(kind) && !UUID.test(objectId)) {
    const network = (await deps.appcms.networks.networksOf(ctx.site.id)).find((n) => n.identifier === objectId);
    return network?.id ?? objectId;
  }
  return objectId;
}

function pageOf(query: { page?: number; pageSize?: number }): { page: number; pageSize: number } {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? REVISION_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1 || page > 100_000) throw invalid('page', 'page must be a whole number of 1 or more');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > REVISION_PAGE_SIZE_MAX) throw invalid('pageSize', `pageSize must be a whole number from 1 to ${REVISION_PAGE_SIZE_MAX}`);
  return { page, pageSize };
}

export function createHistory(deps: HistoryDeps) {
  return {
    /** One object's revisions, newest first. */
    async list(ctx: AuthContext, kind: string, objectId: string, query: { page?: number; pageSize?: number }): Promise<RevisionHistoryResponse> {
      if (!isRevisionKind(kind)) throw invalid('kind', HISTORY_MESSAGES.badKind);
      requireReadOf(ctx, kind);
      const { page, pageSize } = pageOf(query);
      const stored = await storedObjectId(deps, ctx, kind, objectId);
      const { rows, total } = await deps.revisions.listRevisions(ctx.site.id, kind, stored, { offset: (page - 1) * pageSize, limit: pageSize });
      return {
        success: true, kind, objectId, items: rows.map(toRevision), total, page, pageSize,
        canRestore: canEdit(ctx.user.roles, REVISION_KINDS[kind].area), restorable: RESTORABLE_KINDS.includes(kind),
      };
    },

    /**
     * Writes the revision's `before` values back as a new revision, through the object's editor rule
     * with `version` (the object's version the caller read): stale is the editor's own 409. One
     * transaction (issue 37). The revision that created its object has no earlier values: refused.
     */
    async restore(ctx: AuthContext, seq: number, version: number): Promise<RevisionRestoreResponse> {
      const row = await deps.revisions.findRevision(ctx.site.id, seq);
      if (!row || !isRevisionKind(row.objectKind)) throw notFound(HISTORY_MESSAGES.notFound);
      const kind = row.objectKind;
      requireWriteOf(ctx, kind);
      const restorer = RESTORERS[kind];
      if (!restorer || !RESTORABLE_KINDS.includes(kind)) throw conflict(HISTORY_MESSAGES.notRestorable(REVISION_KINDS[kind].label));
      if (row.creation) throw conflict(HISTORY_MESSAGES.creation(REVISION_KINDS[kind].label));
      const written: RevisionRow[] = [];
      await deps.revisions.inOneTransaction(() => withRevisionContext({ reason: `Restore of revision #${seq}`, restoredFrom: seq, restoreOf: seq, written }, () => restorer(deps, ctx, row, version)));
      afterRewrite(ctx);
      const last = written.at(-1);
      const revision = last ? await deps.revisions.findRevision(ctx.site.id, last.seq) : undefined;
      return { success: true, revision: revision ? toRevision(revision) : null, version: last?.objectVersion ?? version };
    },

    /**
     * Undo (issue 28): every revision the caller's own request `requestId` wrote (no row limit),
     * newest first, each written back to its `before` values through the object's editor rule as a
     * new revision, with the version the request left. One transaction (issue 37): every object goes
     * back or none does. Refused, writing nothing, when the request is older than UNDO_ACCEPT_MS,
     * created an object, or any of its objects changed since (a newer revision of it exists, or an
     * edit commits while the undo runs: the 409 names them).
     */
    async undo(ctx: AuthContext, requestId: string): Promise<RevisionUndoResponse> {
      const rows = await deps.revisions.requestRevisions(ctx.site.id, ctx.user.id, requestId, new Date(Date.now() - UNDO_ACCEPT_MS));
      if (rows.length === 0) throw notFound(UNDO_MESSAGES.nothing);
      for (const row of rows) {
        if (!isRevisionKind(row.objectKind)) throw conflict(UNDO_MESSAGES.notUndoable(row.objectKind));
        requireWriteOf(ctx, row.objectKind);
        if (!UNDOABLE_KINDS.includes(row.objectKind) || !RESTORERS[row.objectKind]) throw conflict(UNDO_MESSAGES.notUndoable(REVISION_KINDS[row.objectKind].label));
        if (row.creation) throw conflict(UNDO_MESSAGES.creation(REVISION_KINDS[row.objectKind].label, row.objectName));
      }
      const named = (row: RevisionRow) => `${REVISION_KINDS[row.objectKind as RevisionKind].label}${row.objectName ? ` ${row.objectName}` : ''}`;
      const changedSince = async (among: readonly RevisionRow[]) => {
        const latest = await deps.revisions.latestRevisionSeqs(ctx.site.id, among.map((r) => ({ kind: r.objectKind, objectId: r.objectId })));
        return among.filter((r) => latest.get(deps.revisions.objectKey(r.objectKind, r.objectId)) !== r.seq);
      };
      const written: RevisionRow[] = [];
      await deps.revisions.inOneTransaction(async () => {
        const changed = await changedSince(rows);
        if (changed.length > 0) throw conflict(UNDO_MESSAGES.changedSinceAll(changed.map(named)));
        for (const row of rows) {
          const restorer = RESTORERS[row.objectKind as RevisionKind]!;
          try {
            await withRevisionContext({ reason: UNDO_MESSAGES.reason(requestId), restoredFrom: row.seq, written }, () => restorer(deps, ctx, row, row.objectVersion ?? 0));
          } catch (error) {
            // An edit that committed while the undo ran: the editor's stale-version 409, named as changed since.
            if (isDomainError(error, 'conflict') && (await changedSince([row]).catch(() => [])).length > 0) throw conflict(UNDO_MESSAGES.changedSinceAll([named(row)]));
            throw error;
          }
        }
      });
      afterRewrite(ctx);
      const answered = await deps.revisions.findRevisions(ctx.site.id, written.map((w) => w.seq));
      return { success: true, revisions: answered.map(toRevision) };
    },
  };

  /** After a restore or an undo commits: no instance keeps serving what the transaction replaced. */
  function afterRewrite(ctx: AuthContext): void {
    deps.revisions.cache.invalidateSite(ctx.site.id);
  }
}

export type History = ReturnType<typeof createHistory>;

/** For tests: the revisions a piece of work wrote (the context collects them). */
export async function revisionsWrittenBy<T>(work: () => Promise<T>): Promise<{ result: T; written: RevisionRow[] }> {
  const written: RevisionRow[] = [];
  const result = await withRevisionContext({ ...currentRevisionContext(), written }, work);
  return { result, written };
}
