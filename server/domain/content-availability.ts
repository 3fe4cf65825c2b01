/**
 * Content availability rules (issue 29): an item's publish at / unpublish at and country groups,
 * country groups (CRUD), video licences (CRUD) and the "all matching" bulk status. Reads need a
 * Content role, writes the Content write (or contributor) role; every query is scoped to the
 * caller's site; every write commits with its revision and its audit entry, and a time that changed
 * reaches the job queue through the scheduler (server/domain/content-scheduler.ts) after the commit.
 */
import { AREAS } from '../../common/constants';
import {
  AVAILABILITY_BOUNDS, AVAILABILITY_MESSAGES, COUNTRY_CODES,
  type AvailabilityRequest, type AvailabilityResponse, type BulkMatchingRequest, type BulkMatchingResponse,
  type CountryGroupCreateRequest, type CountryGroupResponse, type CountryGroupUpdateRequest, type CountryGroupsResponse,
  type LicenceCreateRequest, type LicenceResponse, type LicenceUpdateRequest, type LicencesResponse,
} from '../../common/content-availability';
import type { ContentKind, ContentStatus } from '../../common/content';
import { readInstant } from '../../common/instant-bounds';
import { OWN_MESSAGES } from '../../common/messages';
import { canContinue, canEdit } from '../../common/roles';
import { scrubDetail } from '../../common/audit-detail';
import type { AvailabilityRepository, LicenceReads } from './ports';
import type { AvailabilityChanges, ContentRow as AvailabilityRow } from './rows';
import type { AuthContext } from './auth-context';
import type { ContentScheduler } from './content-scheduler';
import { conflict, forbidden, invalid, notFound } from './errors';
import { licenceRefusal } from './licence-rule';
import { auditObject, recordRevision } from './revisions';

export interface ContentAvailabilityService {
  get(caller: AuthContext, contentId: string): Promise<AvailabilityResponse>;
  set(caller: AuthContext, contentId: string, request: AvailabilityRequest): Promise<AvailabilityResponse>;
  listGroups(caller: AuthContext): Promise<CountryGroupsResponse>;
  createGroup(caller: AuthContext, request: CountryGroupCreateRequest): Promise<CountryGroupResponse>;
  updateGroup(caller: AuthContext, id: string, request: CountryGroupUpdateRequest): Promise<CountryGroupResponse>;
  deleteGroup(caller: AuthContext, id: string, version: number): Promise<{ success: true }>;
  listLicences(caller: AuthContext, contentId?: string): Promise<LicencesResponse>;
  createLicence(caller: AuthContext, request: LicenceCreateRequest): Promise<LicenceResponse>;
  updateLicence(caller: AuthContext, id: string, request: LicenceUpdateRequest): Promise<LicenceResponse>;
  deleteLicence(caller: AuthContext, id: string, version: number): Promise<{ success: true }>;
  bulkMatching(caller: AuthContext, request: BulkMatchingRequest): Promise<BulkMatchingResponse>;
  /** The licence rule for items about to be published at `at` (the content service's edit and bulk status call it). */
  assertPublishable(reads: LicenceReads, siteId: string, contentIds: string[], at: Date, timeZone: string): Promise<void>;
}

function requireRead(caller: AuthContext): void {
  if (!canContinue(caller.user.roles, AREAS.content)) throw forbidden();
}

function requireEdit(caller: AuthContext): void {
  requireRead(caller);
  if (!canEdit(caller.user.roles, AREAS.content)) throw forbidden(OWN_MESSAGES.contentNoEditRole);
}

const M = AVAILABILITY_MESSAGES;
const COUNTRIES = new Set(COUNTRY_CODES);

/** An ISO date and time → the instant; a 400 naming the field when it is not one, or outside common/instant-bounds.ts's range (issue 37). */
export function parseTime(field: string, label: string, value: string): Date {
  // ISO 8601, with a year of four digits or an expanded ±YYYYYY one (then out of range, not malformed).
  const ms = /^(\d{4}|[+-]\d{6})-\d{2}-\d{2}T/.test(value) ? readInstant(value) : 'invalid';
  if (ms === 'invalid') throw invalid(field, M.invalidDate(label), { [field]: M.invalidDate(label) });
  if (ms === 'out_of_range') throw invalid(field, M.dateOutOfRange(label), { [field]: M.dateOutOfRange(label) });
  return new Date(ms);
}

function cleanCountries(countries: string[]): string[] {
  const codes = [...new Set(countries.map((c) => c.trim().toUpperCase()))];
  for (const code of codes) if (!COUNTRIES.has(code)) throw invalid('countries', M.countryGroupUnknownCountry(code), { countries: M.countryGroupUnknownCountry(code) });
  if (codes.length === 0) throw invalid('countries', M.countryGroupNeedsCountry, { countries: M.countryGroupNeedsCountry });
  return codes.sort();
}

function cleanName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (!trimmed) throw invalid('name', OWN_MESSAGES.fieldRequired('Name'), { name: OWN_MESSAGES.fieldRequired('Name') });
  return trimmed;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const contentObject = (row: { id: string; title: string }) => ({ kind: 'content', objectId: row.id, objectName: row.title }) as const;
const groupObject = (row: { id: string; name: string }) => ({ kind: 'countryGroup', objectId: row.id, objectName: row.name }) as const;
const licenceObject = (row: { id: string; name: string }) => ({ kind: 'licence', objectId: row.id, objectName: row.name }) as const;

function availabilityView(row: AvailabilityRow) {
  return { status: row.status, publishAt: iso(row.scheduledAt), unpublishAt: iso(row.unpublishAt), countryGroupIds: row.countryGroupIds };
}

export function createContentAvailability(deps: { store: AvailabilityRepository; scheduler: Pick<ContentScheduler, 'sync'>; now?: () => Date; log?: { warn(obj: unknown, msg?: string): void } }): ContentAvailabilityService {
  const { store, scheduler } = deps;
  const now = deps.now ?? (() => new Date());

  async function syncLater(siteId: string, ids: string[]): Promise<void> {
    for (const id of ids) {
      // The write is committed; a failed send is repaired by the scheduler's reconcile at the next start.
      await scheduler.sync(siteId, id).catch((error: unknown) => deps.log?.warn({ contentId: id, err: error instanceof Error ? error.message : String(error) }, 'availability job sync failed'));
    }
  }

  async function assertGroups(siteId: string, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (await store.countCountryGroups(siteId, unique) !== unique.length) throw invalid('countryGroupIds', M.unknownCountryGroup, { countryGroupIds: M.unknownCountryGroup });
    return unique;
  }

  async function assertPublishable(reads: LicenceReads, siteId: string, contentIds: string[], at: Date, timeZone: string): Promise<void> {
    const licences = await reads.licencesOfItems(siteId, contentIds);
    for (const id of contentIds) {
      const refusal = licenceRefusal(licences.filter((l) => l.contentId === id), at, timeZone);
      if (refusal) throw invalid('status', refusal, { status: refusal });
    }
  }

  async function answer(caller: AuthContext, row: AvailabilityRow): Promise<AvailabilityResponse> {
    return {
      success: true,
      availability: {
        contentId: row.id, title: row.title, kind: row.kind as ContentKind, status: row.status as ContentStatus, version: row.version,
        publishAt: iso(row.scheduledAt), unpublishAt: iso(row.unpublishAt), countryGroupIds: row.countryGroupIds,
        timezone: caller.site.defaultTimezone,
      },
      licences: await store.listLicences(caller.site.id, row.id),
    };
  }

  return {
    assertPublishable,

    async get(caller, contentId) {
      requireRead(caller);
      const row = await store.findItem(caller.site.id, contentId);
      if (!row) throw notFound(OWN_MESSAGES.contentNotFound);
      return answer(caller, row);
    },

    async set(caller, contentId, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const row = await store.findItem(siteId, contentId);
      if (!row) throw notFound(OWN_MESSAGES.contentNotFound);
      if (row.version !== request.version) throw conflict(OWN_MESSAGES.contentConflict);
      const at = now();
      const publishAt = request.publishAt === null ? null : parseTime('publishAt', 'Publish at', request.publishAt);
      const unpublishAt = request.unpublishAt === null ? null : parseTime('unpublishAt', 'Unpublish at', request.unpublishAt);
      const changes: AvailabilityChanges = { countryGroupIds: await assertGroups(siteId, request.countryGroupIds) };
      if (publishAt) {
        if (row.status === 'published') throw invalid('publishAt', M.publishAtWhenPublished, { publishAt: M.publishAtWhenPublished });
        if (publishAt.getTime() <= at.getTime()) throw invalid('publishAt', M.publishAtInPast, { publishAt: M.publishAtInPast });
        await assertPublishable(store, siteId, [row.id], publishAt, caller.site.defaultTimezone);
        changes.status = 'scheduled';
        changes.scheduledAt = publishAt;
      } else if (row.status === 'scheduled') {
        changes.status = 'draft';
        changes.scheduledAt = null;
      }
      if (unpublishAt) {
        if (publishAt && unpublishAt.getTime() <= publishAt.getTime()) throw invalid('unpublishAt', M.unpublishBeforePublish, { unpublishAt: M.unpublishBeforePublish });
        if (unpublishAt.getTime() <= at.getTime() && !sameInstant(unpublishAt, row.unpublishAt)) throw invalid('unpublishAt', M.unpublishAtInPast, { unpublishAt: M.unpublishAtInPast });
      }
      changes.unpublishAt = unpublishAt;
      const saved = await store.transaction(async (tx) => {
        const after = await tx.updateAvailability(siteId, row.id, request.version, changes, at);
        if (!after) throw conflict(OWN_MESSAGES.contentConflict);
        const object = contentObject(after);
        const revision = await recordRevision(tx, {
          ...object, siteId, actorUserId: caller.user.id, objectVersion: after.version, before: availabilityView(row), after: availabilityView(after),
        });
        await tx.insertAuditEvent({
          at, action: 'content.availability', actorUserId: caller.user.id, siteId, ...auditObject(object),
          detail: scrubDetail({ contentId: row.id, version: after.version, before: availabilityView(row), after: availabilityView(after), changed: revision?.changes.map((c) => c.field) ?? [] }),
        });
        return after;
      });
      await syncLater(siteId, [saved.id]);
      return answer(caller, saved);
    },

    async listGroups(caller) {
      requireRead(caller);
      return { success: true, groups: await store.listCountryGroups(caller.site.id) };
    },

    async createGroup(caller, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const name = cleanName(request.name);
      const countries = cleanCountries(request.countries);
      if (await store.countryGroupNameTaken(siteId, name)) throw conflict(M.countryGroupNameTaken(name));
      const at = now();
      const id = await store.transaction(async (tx) => {
        const row = await tx.insertCountryGroup(siteId, { name, countries }, at);
        await recordRevision(tx, { ...groupObject(row), siteId, actorUserId: caller.user.id, objectVersion: row.version, before: null, after: { name, countries } });
        await tx.insertAuditEvent({
          at, action: 'content.country_group.create', actorUserId: caller.user.id, siteId, ...auditObject(groupObject(row)),
          detail: scrubDetail({ name, countries }),
        });
        return row.id;
      }).catch((error: unknown) => {
        if (/country_groups_site_name_idx|duplicate key/i.test(String((error as { cause?: unknown }).cause ?? error))) throw conflict(M.countryGroupNameTaken(name));
        throw error;
      });
      return { success: true, group: (await store.findCountryGroup(siteId, id))! };
    },

    async updateGroup(caller, id, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const current = await store.findCountryGroup(siteId, id);
      if (!current) throw notFound(M.countryGroupNotFound);
      if (current.version !== request.version) throw conflict(M.countryGroupConflict);
      const values: { name?: string; countries?: string[] } = {};
      if (request.name !== undefined) values.name = cleanName(request.name);
      if (request.countries !== undefined) values.countries = cleanCountries(request.countries);
      if (values.name && await store.countryGroupNameTaken(siteId, values.name, id)) throw conflict(M.countryGroupNameTaken(values.name));
      const at = now();
      await store.transaction(async (tx) => {
        const row = await tx.updateCountryGroup(siteId, id, request.version, values, at);
        if (!row) throw conflict(M.countryGroupConflict);
        const before = { name: current.name, countries: current.countries };
        const after = { name: row.name, countries: row.countries };
        await recordRevision(tx, { ...groupObject(row), siteId, actorUserId: caller.user.id, objectVersion: row.version, before, after });
        await tx.insertAuditEvent({
          at, action: 'content.country_group.update', actorUserId: caller.user.id, siteId, ...auditObject(groupObject(row)),
          detail: scrubDetail({ before, after }),
        });
      });
      return { success: true, group: (await store.findCountryGroup(siteId, id))! };
    },

    async deleteGroup(caller, id, version) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const current = await store.findCountryGroup(siteId, id);
      if (!current) throw notFound(M.countryGroupNotFound);
      if (current.version !== version) throw conflict(M.countryGroupConflict);
      if (current.usedByItems + current.usedByLicences > 0) throw conflict(M.countryGroupInUse(current.name, current.usedByItems, current.usedByLicences));
      const at = now();
      await store.transaction(async (tx) => {
        if (!await tx.deleteCountryGroup(siteId, id, version)) throw conflict(M.countryGroupConflict);
        await recordRevision(tx, { ...groupObject(current), siteId, actorUserId: caller.user.id, objectVersion: null, before: { name: current.name, countries: current.countries }, after: null });
        await tx.insertAuditEvent({
          at, action: 'content.country_group.delete', actorUserId: caller.user.id, siteId, ...auditObject(groupObject(current)),
          detail: scrubDetail({ name: current.name, countries: current.countries }),
        });
      });
      return { success: true };
    },

    async listLicences(caller, contentId) {
      requireRead(caller);
      return { success: true, licences: await store.listLicences(caller.site.id, contentId?.toLowerCase()) };
    },

    async createLicence(caller, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const item = await store.findItem(siteId, request.contentId.toLowerCase());
      if (!item) throw notFound(OWN_MESSAGES.contentNotFound);
      const name = cleanName(request.name);
      const startsAt = parseTime('startsAt', 'Start', request.startsAt);
      const endsAt = parseTime('endsAt', 'End', request.endsAt);
      if (endsAt.getTime() <= startsAt.getTime()) throw invalid('endsAt', M.licenceEndsBeforeStart, { endsAt: M.licenceEndsBeforeStart });
      const countryGroupIds = await assertGroups(siteId, request.countryGroupIds);
      const at = now();
      const id = await store.transaction(async (tx) => {
        const row = await tx.insertLicence(siteId, { contentId: item.id, name, startsAt, endsAt, countryGroupIds }, at);
        const after = { contentId: item.id, name, startsAt: iso(startsAt), endsAt: iso(endsAt), countryGroupIds };
        await recordRevision(tx, { ...licenceObject(row), siteId, actorUserId: caller.user.id, objectVersion: row.version, before: null, after });
        await tx.insertAuditEvent({
          at, action: 'content.licence.create', actorUserId: caller.user.id, siteId, ...auditObject(licenceObject(row)),
          detail: scrubDetail({ ...after, contentTitle: item.title }),
        });
        return row.id;
      });
      return { success: true, licence: (await store.findLicence(siteId, id))! };
    },

    async updateLicence(caller, id, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const current = await store.findLicence(siteId, id);
      if (!current) throw notFound(M.licenceNotFound);
      if (current.version !== request.version) throw conflict(M.licenceConflict);
      const values: { name?: string; startsAt?: Date; endsAt?: Date; countryGroupIds?: string[] } = {};
      if (request.name !== undefined) values.name = cleanName(request.name);
      if (request.startsAt !== undefined) values.startsAt = parseTime('startsAt', 'Start', request.startsAt);
      if (request.endsAt !== undefined) values.endsAt = parseTime('endsAt', 'End', request.endsAt);
      if (request.countryGroupIds !== undefined) values.countryGroupIds = await assertGroups(siteId, request.countryGroupIds);
      const start = values.startsAt ?? new Date(current.startsAt);
      const end = values.endsAt ?? new Date(current.endsAt);
      if (end.getTime() <= start.getTime()) throw invalid('endsAt', M.licenceEndsBeforeStart, { endsAt: M.licenceEndsBeforeStart });
      const at = now();
      await store.transaction(async (tx) => {
        const row = await tx.updateLicence(siteId, id, request.version, values, at);
        if (!row) throw conflict(M.licenceConflict);
        const before = { name: current.name, startsAt: current.startsAt, endsAt: current.endsAt, countryGroupIds: current.countryGroupIds };
        const after = { name: row.name, startsAt: iso(row.startsAt), endsAt: iso(row.endsAt), countryGroupIds: row.countryGroupIds };
        await recordRevision(tx, { ...licenceObject(row), siteId, actorUserId: caller.user.id, objectVersion: row.version, before, after });
        await tx.insertAuditEvent({
          at, action: 'content.licence.update', actorUserId: caller.user.id, siteId, ...auditObject(licenceObject(row)),
          detail: scrubDetail({ before, after }),
        });
      });
      return { success: true, licence: (await store.findLicence(siteId, id))! };
    },

    async deleteLicence(caller, id, version) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const current = await store.findLicence(siteId, id);
      if (!current) throw notFound(M.licenceNotFound);
      if (current.version !== version) throw conflict(M.licenceConflict);
      const at = now();
      await store.transaction(async (tx) => {
        if (!await tx.deleteLicence(siteId, id, version)) throw conflict(M.licenceConflict);
        const before = { name: current.name, startsAt: current.startsAt, endsAt: current.endsAt, countryGroupIds: current.countryGroupIds };
        await recordRevision(tx, { ...licenceObject(current), siteId, actorUserId: caller.user.id, objectVersion: null, before, after: null });
        await tx.insertAuditEvent({
          at, action: 'content.licence.delete', actorUserId: caller.user.id, siteId, ...auditObject(licenceObject(current)),
          detail: scrubDetail({ ...before, contentId: current.contentId, contentTitle: current.contentTitle }),
        });
      });
      return { success: true };
    },

    async bulkMatching(caller, request) {
      requireEdit(caller);
      const siteId = caller.site.id;
      const at = now();
      const max = AVAILABILITY_BOUNDS.bulkMatchingMax;
      const updated = await store.transaction(async (tx) => {
        const rows = await tx.lockMatching({ siteId, kind: request.mediaType, status: request.filterStatus, q: request.q ?? '' }, max + 1);
        if (rows.length > max) throw invalid('expected', M.bulkMatchingTooMany(max));
        if (rows.length !== request.expected) throw conflict(M.bulkMatchingChanged(request.expected, rows.length));
        const changing = rows.filter((row) => row.status !== request.status);
        if (request.status === 'published') await assertPublishable(tx, siteId, changing.map((row) => row.id), at, caller.site.defaultTimezone);
        const after = await tx.setStatusOf(siteId, changing.map((row) => row.id), request.status, at);
        const byId = new Map(after.map((row) => [row.id, row]));
        const keys = (row: AvailabilityRow) => ({ status: row.status, scheduledAt: iso(row.scheduledAt), publishedAt: iso(row.publishedAt), unpublishAt: iso(row.unpublishAt) });
        for (const row of changing) {
          const next = byId.get(row.id);
          if (!next) continue;
          await recordRevision(tx, { ...contentObject(next), siteId, actorUserId: caller.user.id, objectVersion: next.version, before: keys(row), after: keys(next) });
        }
        await tx.insertAuditEvent({
          at, action: 'content.bulk_status', actorUserId: caller.user.id, siteId,
          ...(after.length === 1 && after[0] ? auditObject(contentObject(after[0])) : {}),
          detail: scrubDetail({
            status: request.status, matching: { mediaType: request.mediaType ?? null, q: request.q ?? '', status: request.filterStatus ?? null }, count: after.length,
            items: changing.slice(0, 200).map((row) => ({ contentId: row.id, title: row.title, before: row.status })),
          }),
        });
        return { ids: after.map((row) => row.id), cancelled: changing.filter((row) => row.unpublishAt !== null).length };
      });
      await syncLater(siteId, updated.ids);
      return {
        success: true, updated: updated.ids.length,
        ...(updated.cancelled > 0 ? { message: M.unpublishCancelledMany(updated.cancelled) } : {}),
      };
    },
  };
}

function sameInstant(a: Date, b: Date | null): boolean {
  return b !== null && a.getTime() === b.getTime();
}
