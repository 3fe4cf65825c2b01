/**
 * Issue 41 (qoe-alerts): saved views, a named Dashboard 360 page with its search (range, filters,
 * breakdown), private to its owner or shared with the site. Any Dashboard 360 reader saves private
 * ones; sharing needs Dashboard 360 write; only the owner changes or deletes a view (a shared view
 * of someone else is read-only; someone else's private view is not found). The list is the caller's
 * own views and those shared with the site. Writes commit with their revision and audit row.
 */
import { scrubDetail } from '../../common/audit-detail';
import { AREAS } from '../../common/constants';
import { QOE_ALERT_REFUSALS as M } from '../../common/messages/qoe-alert-refusals';
import { isRecord } from '../../common/one-of';
import type { QoeSavedView, QoeSavedViewAnswer, QoeSavedViewRequest, QoeSavedViewsAnswer } from '../../common/qoe';
import { canEdit } from '../../common/roles';
import type { AuthContext } from './auth-context';
import { conflict, forbidden, invalid, notFound } from './errors';
import { cleanName, QOE_ALERT_AUDIT, requireQoeRead, type QoeAccessConfig } from './qoe-alerts';
import { isDuplicate, type Loose, type QoeAlertStore, type QoeSavedViewRow, type QoeSavedViewValues } from './qoe-alert-ports';
import { auditObject, recordRevision } from './revisions';

const field = (name: string, message: string) => invalid(name, message, { [name]: message });
const PATH = /^\/analytics(\/[A-Za-z0-9._~-]+)*\/?$/;
const SEARCH_MAX_KEYS = 30;
const SEARCH_MAX_VALUE = 2000;

function cleanView(request: Loose<QoeSavedViewRequest>): QoeSavedViewValues {
  const name = cleanName(request.name, { required: M.viewNameRequired, tooLong: M.viewNameTooLong });
  const path: unknown = request.path;
  if (typeof path !== 'string' || path.length > 200 || !PATH.test(path)) throw field('path', M.viewPathInvalid);
  const raw: unknown = request.search ?? {};
  if (!isRecord(raw) || Object.keys(raw).length > SEARCH_MAX_KEYS) throw field('search', M.viewSearchInvalid);
  const search: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(key) || typeof value !== 'string' || value.length > SEARCH_MAX_VALUE) throw field('search', M.viewSearchInvalid);
    search[key] = value;
  }
  const shared: unknown = request.shared ?? false;
  if (typeof shared !== 'boolean') throw field('shared', M.viewShareNeedsWrite);
  return { name, path, search, shared };
}

const viewFields = (v: QoeSavedViewValues) => ({ name: v.name, path: v.path, search: v.search, shared: v.shared });

export function createQoeSavedViews(deps: { store: QoeAlertStore; config: QoeAccessConfig; now?: () => Date }) {
  const { store, config } = deps;
  const now = deps.now ?? (() => new Date());
  const viewObject = (row: { id: string; name: string }) => ({ kind: 'qoeSavedView', objectId: row.id, objectName: row.name }) as const;

  function toView(row: QoeSavedViewRow, ctx: AuthContext): QoeSavedView {
    return {
      id: row.id, name: row.name, path: row.path, search: row.search, shared: row.shared, ownerId: row.ownerId, ownerName: row.ownerName,
      mine: row.ownerId === ctx.user.id, version: row.version, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** A view the caller may see: their own or a shared one (another's private view is not found). */
  async function visible(ctx: AuthContext, id: string): Promise<QoeSavedViewRow> {
    const row = await store.findView(ctx.site.id, id);
    if (!row || (row.ownerId !== ctx.user.id && !row.shared)) throw notFound(M.viewNotFound);
    return row;
  }

  function versionOf(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw field('version', M.versionRequired);
    return value;
  }

  async function answer(ctx: AuthContext, id: string): Promise<QoeSavedViewAnswer> {
    return { success: true, view: toView(await visible(ctx, id), ctx) };
  }

  return {
    async list(ctx: AuthContext): Promise<QoeSavedViewsAnswer> {
      requireQoeRead(ctx, config);
      return { success: true, views: (await store.listViews(ctx.site.id, ctx.user.id)).map((r) => toView(r, ctx)) };
    },

    async get(ctx: AuthContext, id: string): Promise<QoeSavedViewAnswer> {
      requireQoeRead(ctx, config);
      return answer(ctx, id);
    },

    async create(ctx: AuthContext, request: Loose<QoeSavedViewRequest>): Promise<QoeSavedViewAnswer> {
      const roles = requireQoeRead(ctx, config);
      const values = cleanView(request);
      if (values.shared && !canEdit(roles, AREAS.dashboard360)) throw forbidden(M.viewShareNeedsWrite);
      const siteId = ctx.site.id;
      if (await store.viewNameTaken(siteId, ctx.user.id, values.name)) throw field('name', M.viewNameTaken(values.name));
      const at = now();
      const { id } = await store.transaction(async (tx) => {
        const row = await tx.insertView(siteId, ctx.user.id, values, at);
        const object = viewObject({ id: row.id, name: values.name });
        await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: 1, before: null, after: viewFields(values) });
        await tx.insertAuditEvent({ at, action: QOE_ALERT_AUDIT.viewCreate, actorUserId: ctx.user.id, siteId, ...auditObject(object), detail: scrubDetail({ name: values.name, path: values.path, shared: values.shared }) });
        return row;
      }).catch((error: unknown) => {
        if (isDuplicate(error, 'qoe_saved_views_owner_name_idx')) throw field('name', M.viewNameTaken(values.name));
        throw error;
      });
      return answer(ctx, id);
    },

    async update(ctx: AuthContext, id: string, request: Loose<QoeSavedViewRequest>): Promise<QoeSavedViewAnswer> {
      const roles = requireQoeRead(ctx, config);
      const current = await visible(ctx, id);
      if (current.ownerId !== ctx.user.id) throw forbidden(M.viewNotOwner);
      const version = versionOf(request.version);
      const values = cleanView(request);
      // Sharing (or keeping shared) needs write; making a shared view private does not.
      if (values.shared && !current.shared && !canEdit(roles, AREAS.dashboard360)) throw forbidden(M.viewShareNeedsWrite);
      const siteId = ctx.site.id;
      if (await store.viewNameTaken(siteId, ctx.user.id, values.name, id)) throw field('name', M.viewNameTaken(values.name));
      if (current.version !== version) throw conflict(M.viewConflict);
      const at = now();
      await store.transaction(async (tx) => {
        const saved = await tx.updateView(siteId, id, version, values, at);
        if (!saved) throw conflict(M.viewConflict);
        const object = viewObject({ id, name: values.name });
        const revision = await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: version + 1, before: viewFields(current), after: viewFields(values) });
        await tx.insertAuditEvent({
          at, action: QOE_ALERT_AUDIT.viewUpdate, actorUserId: ctx.user.id, siteId, ...auditObject(object),
          detail: scrubDetail({ changed: revision?.changes.map((c) => c.field) ?? [], shared: values.shared }),
        });
      });
      return answer(ctx, id);
    },

    async remove(ctx: AuthContext, id: string, versionValue: unknown): Promise<{ success: true }> {
      requireQoeRead(ctx, config);
      const current = await visible(ctx, id);
      if (current.ownerId !== ctx.user.id) throw forbidden(M.viewNotOwner);
      const version = versionOf(versionValue);
      if (current.version !== version) throw conflict(M.viewConflict);
      const siteId = ctx.site.id;
      const at = now();
      await store.transaction(async (tx) => {
        const deleted = await tx.deleteView(siteId, id, version);
        if (!deleted) throw conflict(M.viewConflict);
        const object = viewObject(current);
        await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: version, before: viewFields(current), after: null });
        await tx.insertAuditEvent({ at, action: QOE_ALERT_AUDIT.viewDelete, actorUserId: ctx.user.id, siteId, ...auditObject(object), detail: scrubDetail({ name: current.name, shared: current.shared }) });
      });
      return { success: true };
    },
  };
}

export type QoeSavedViews = ReturnType<typeof createQoeSavedViews>;
