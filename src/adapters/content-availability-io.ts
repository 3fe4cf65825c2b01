/**
 * The I/O of Content › Country groups, Content › Video licences and the item page's availability
 * panel (issue 29, browser side), over the REST calls of src/api/content-availability.ts. The pages
 * reuse machines/list-page.machine.ts (list, editor, confirmed delete) and the panel
 * machines/editor.machine.ts; the Content wiring file (content-actors.ts) provides them. Times are
 * entered and shown in the site's default time zone (the availability answer names it; elsewhere the
 * session's `defaultTimezone` cookie) and sent as UTC instants.
 */
import { assign, fromPromise, type AnyActorLogic } from 'xstate';
import { COOKIE_NAMES } from '../../common/constants';
import { CONTENT_KINDS, type ContentSummary } from '../../common/content';
import { isoInTimeZone, knownTimeZone, zonedWallTimeToIso } from '../../common/zoned-time';
import {
  AVAILABILITY_MESSAGES as M, COUNTRY_CODES, type AvailabilityResponse, type CountryGroup, type Licence,
} from '../../common/content-availability';
import { formatDateTime } from '../../common/display-format';
import { readInstant } from '../../common/instant-bounds';
import { isRecord } from '../../common/one-of';
import { MESSAGES } from '../../common/messages';
import {
  EditorFailure, editorMachine, type EditorContext, type EditorEvent, type EditorRecord, type EditorSaveInput, type EditorValues,
} from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import { listPageMachine, NEW_RECORD_ID, pageActionLogic, pageEditorMachine, pageListMachine } from '../../machines/list-page.machine';
import { pageHistoryMachine } from '../../machines/history.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { ApiError } from '../api/client';
import { fetchContentList, type ContentCredentials } from '../api/content';
import * as api from '../api/content-availability';
import { readCookie } from './cookies';
import { historyActors } from './history-io';
import { editorDrafts } from './form-drafts';
import { writeListQueryToAddress } from './list-address';
import { navigateTo } from './navigation';
import { readCredentials } from './session-store';
import { translated } from './translated';

export const CONTENT_LIST_ROUTES = { countryGroups: '/content/country-groups', licences: '/content/licences' } as const;
export type ContentListPageName = keyof typeof CONTENT_LIST_ROUTES;
/** The one page action of both pages. */
export const CONTENT_LIST_ACTIONS = { delete: 'delete' } as const;

type Read = () => ContentCredentials | null;
function need(read: Read): ContentCredentials {
  const credentials = read();
  if (!credentials) throw new ApiError(MESSAGES.credentialsMissing, 401);
  return credentials;
}

/** The server's refusal as the editor machine reads it: conflict, not found, or invalid with its field messages. */
export function availabilityFailureOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 409) return new EditorFailure('conflict', error.message);
  if (error.status === 404) return new EditorFailure('not-found', error.message);
  if (error.status === 400 || error.status === 422) {
    const fields = isRecord(error.body) && isRecord(error.body.fields)
      ? Object.fromEntries(Object.entries(error.body.fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
    return new EditorFailure('invalid', error.message, fields);
  }
  return error;
}

const text = (values: EditorValues, field: string): string => (typeof values[field] === 'string' ? values[field] : '');
const list = (values: EditorValues, field: string): string[] => {
  const value = values[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** "gb, ie us" → ['GB', 'IE', 'US'] (each once, in order). */
export function countriesOf(textValue: string): string[] {
  return [...new Set(textValue.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).filter(Boolean))];
}
/** A stored instant as the `datetime-local` value of the site's zone; '' for none. */
export const wallOf = (iso: string | null, timeZone: string): string => (iso ? isoInTimeZone(iso, timeZone).replace(' ', 'T') : '');

/* ---------------------------- Field rules ---------------------------- */

export type FieldErrors = Record<string, string>;

export function countryGroupErrors(draft: EditorValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!text(draft, 'name').trim()) errors.name = M.nameRequired;
  const countries = countriesOf(text(draft, 'countries'));
  const unknown = countries.find((c) => !COUNTRY_CODES.includes(c));
  if (unknown) errors.countries = M.countryGroupUnknownCountry(unknown);
  else if (countries.length === 0) errors.countries = M.countryGroupNeedsCountry;
  return errors;
}

/** Issue 37: outside the one range of date inputs (common/instant-bounds.ts), which the server refuses too. */
const outOfRange = (iso: string): boolean => readInstant(iso) === 'out_of_range';

export function licenceErrors(draft: EditorValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!text(draft, 'contentId')) errors.contentId = M.licenceNeedsItem;
  if (!text(draft, 'name').trim()) errors.name = M.nameRequired;
  const zone = knownTimeZone(draft.timeZone);
  const start = text(draft, 'startsAt') ? zonedWallTimeToIso(text(draft, 'startsAt'), zone) : null;
  const end = text(draft, 'endsAt') ? zonedWallTimeToIso(text(draft, 'endsAt'), zone) : null;
  if (!text(draft, 'startsAt')) errors.startsAt = M.dateRequired('Start');
  else if (!start) errors.startsAt = M.invalidDate('Start');
  else if (outOfRange(start)) errors.startsAt = M.dateOutOfRange('Start');
  if (!text(draft, 'endsAt')) errors.endsAt = M.dateRequired('End');
  else if (!end) errors.endsAt = M.invalidDate('End');
  else if (outOfRange(end)) errors.endsAt = M.dateOutOfRange('End');
  if (start && end && !errors.startsAt && !errors.endsAt && Date.parse(end) <= Date.parse(start)) errors.endsAt = M.licenceEndsBeforeStart;
  return errors;
}

export function availabilityErrors(draft: EditorValues): FieldErrors {
  const errors: FieldErrors = {};
  const zone = knownTimeZone(draft.timeZone);
  const publish = text(draft, 'publishAt') ? zonedWallTimeToIso(text(draft, 'publishAt'), zone) : null;
  const unpublish = text(draft, 'unpublishAt') ? zonedWallTimeToIso(text(draft, 'unpublishAt'), zone) : null;
  if (text(draft, 'publishAt') && !publish) errors.publishAt = M.invalidDate('Publish at');
  else if (publish && outOfRange(publish)) errors.publishAt = M.dateOutOfRange('Publish at');
  if (text(draft, 'unpublishAt') && !unpublish) errors.unpublishAt = M.invalidDate('Unpublish at');
  else if (unpublish && outOfRange(unpublish)) errors.unpublishAt = M.dateOutOfRange('Unpublish at');
  if (publish && unpublish && !errors.publishAt && !errors.unpublishAt && Date.parse(unpublish) <= Date.parse(publish)) errors.unpublishAt = M.unpublishBeforePublish;
  return errors;
}

/** The editor's `checkDraft` action and `breaksFieldRules` guard for a rule set. */
export function rulesOf(rules: (draft: EditorValues) => FieldErrors) {
  return {
    actions: { checkDraft: assign<EditorContext, EditorEvent, unknown, EditorEvent, never>(({ context }) => ({ fieldErrors: rules(context.draft) })) },
    guards: { breaksFieldRules: ({ context }: { context: EditorContext }) => Object.keys(rules(context.draft)).length > 0 },
  };
}

/* ------------------------------ Records ------------------------------ */

export type CountryGroupRow = CountryGroup;
/** A licence row as the list shows it: its times in the site's zone and its groups by name. */
export type LicenceRow = Licence & { startsText: string; endsText: string; groupNames: string[] };

const groupRecord = (g: CountryGroup): EditorRecord => ({
  id: g.id, values: { name: g.name, countries: g.countries.join(', ') }, version: g.version,
  data: { usedByItems: g.usedByItems, usedByLicences: g.usedByLicences },
});
export const NEW_COUNTRY_GROUP: EditorRecord = { values: { name: '', countries: '' }, version: 0, data: { usedByItems: 0, usedByLicences: 0 } };

/** What the licence editor offers: the site's items and country groups, and the zone its times are in. */
export interface LicenceChoices { items: { id: string; title: string; kind: string }[]; groups: { id: string; name: string }[]; timeZone: string }

const licenceRecord = (l: Licence | null, choices: LicenceChoices): EditorRecord => ({
  ...(l ? { id: l.id } : {}),
  values: {
    contentId: l?.contentId ?? '', name: l?.name ?? '', startsAt: wallOf(l?.startsAt ?? null, choices.timeZone),
    endsAt: wallOf(l?.endsAt ?? null, choices.timeZone), countryGroupIds: l?.countryGroupIds ?? [], timeZone: choices.timeZone,
  },
  version: l?.version ?? 0,
  data: choices,
});

/** The item's availability as the panel's editor holds it. */
export interface AvailabilityData { timezone: string; status: string; licences: Licence[]; groups: { id: string; name: string }[] }
const availabilityRecord = (answer: AvailabilityResponse, groups: CountryGroup[]): EditorRecord => {
  const a = answer.availability;
  const zone = knownTimeZone(a.timezone);
  return {
    id: a.contentId,
    values: { publishAt: wallOf(a.publishAt, zone), unpublishAt: wallOf(a.unpublishAt, zone), countryGroupIds: a.countryGroupIds, timeZone: zone },
    version: a.version,
    data: { timezone: zone, status: a.status, licences: answer.licences, groups: groups.map((g) => ({ id: g.id, name: g.name })) } satisfies AvailabilityData,
  };
};

/* ------------------------------ Actors ------------------------------ */

const matches = (search: string, ...texts: string[]) => {
  const words = search.trim().toLowerCase();
  return !words || texts.some((t) => t.toLowerCase().includes(words));
};
const page = <Row extends { id: string }>(rows: Row[], q: ListQuery): ListPage<Row> =>
  ({ items: rows.slice(q.offset, q.offset + q.limit), total: rows.length });

/** The site's items a licence can be for (by title, at most 100 of each kind: the list answers one kind at a time). */
async function itemChoices(c: ContentCredentials, signal?: AbortSignal): Promise<LicenceChoices['items']> {
  const answers = await Promise.all(CONTENT_KINDS.map((mediaType) => fetchContentList(c, { mediaType, start: 0, limit: 100, max: 100_000, q: '', sort: 'title' }, signal)));
  return answers.flatMap((a) => a.items).map((i: ContentSummary) => ({ id: i.id, title: i.title, kind: i.kind }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

export interface ContentListPageIo { fetchPage: AnyActorLogic; load: AnyActorLogic; save: AnyActorLogic; perform: AnyActorLogic; history?: { load: AnyActorLogic; restore: AnyActorLogic } }

export function countryGroupsIo(read: Read = readCredentials): ContentListPageIo {
  return {
    fetchPage: fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
      const { groups } = await api.fetchCountryGroups(need(read), signal);
      return page(groups.filter((g) => matches(input.search, g.name, g.countries.join(' '))), input);
    }),
    load: fromPromise<EditorRecord, { id: string }>(async ({ input, signal }) => translated(async () => {
      if (input.id === NEW_RECORD_ID) return NEW_COUNTRY_GROUP;
      const found = (await api.fetchCountryGroups(need(read), signal)).groups.find((g) => g.id === input.id);
      if (!found) throw new EditorFailure('not-found', M.countryGroupNotFound);
      return groupRecord(found);
    }, availabilityFailureOf)),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input, signal }) => translated(async () => {
      const body = { name: text(input.draft, 'name').trim(), countries: countriesOf(text(input.draft, 'countries')) };
      const answer = input.id === NEW_RECORD_ID
        ? await api.createCountryGroup(need(read), body, signal)
        : await api.updateCountryGroup(need(read), input.id, { version: input.version, ...body }, signal);
      return groupRecord(answer.group);
    }, availabilityFailureOf)),
    perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input, signal }) => {
      await api.deleteCountryGroup(need(read), String(input.args.id), Number(input.args.version), signal);
      return M.countryGroupDeleted(input.label);
    }),
  };
}

export function licencesIo(read: Read = readCredentials, timeZone: () => unknown = () => readCookie(COOKIE_NAMES.defaultTimezone)): ContentListPageIo {
  const choices = async (signal?: AbortSignal): Promise<LicenceChoices> => {
    const [items, { groups }] = await Promise.all([itemChoices(need(read), signal), api.fetchCountryGroups(need(read), signal)]);
    return { items, groups: groups.map((g) => ({ id: g.id, name: g.name })), timeZone: knownTimeZone(timeZone()) };
  };
  const toBody = (draft: EditorValues) => {
    const zone = knownTimeZone(draft.timeZone);
    return {
      name: text(draft, 'name').trim(), countryGroupIds: list(draft, 'countryGroupIds'),
      startsAt: zonedWallTimeToIso(text(draft, 'startsAt'), zone) ?? text(draft, 'startsAt'),
      endsAt: zonedWallTimeToIso(text(draft, 'endsAt'), zone) ?? text(draft, 'endsAt'),
    };
  };
  return {
    fetchPage: fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
      const zone = knownTimeZone(timeZone());
      const [{ licences }, { groups }] = await Promise.all([api.fetchLicences(need(read), signal), api.fetchCountryGroups(need(read), signal)]);
      const names = new Map(groups.map((g) => [g.id, g.name]));
      const rows: LicenceRow[] = licences.map((l) => ({
        ...l, startsText: formatDateTime(l.startsAt, zone), endsText: formatDateTime(l.endsAt, zone),
        groupNames: l.countryGroupIds.map((id) => names.get(id) ?? id),
      }));
      return page(rows.filter((l) => matches(input.search, l.name, l.contentTitle)), input);
    }),
    load: fromPromise<EditorRecord, { id: string }>(async ({ input, signal }) => translated(async () => {
      const offered = await choices(signal);
      if (input.id === NEW_RECORD_ID) return licenceRecord(null, offered);
      const found = (await api.fetchLicences(need(read), signal)).licences.find((l) => l.id === input.id);
      if (!found) throw new EditorFailure('not-found', M.licenceNotFound);
      return licenceRecord(found, offered);
    }, availabilityFailureOf)),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input, signal }) => translated(async () => {
      const body = toBody(input.draft);
      const answer = input.id === NEW_RECORD_ID
        ? await api.createLicence(need(read), { contentId: text(input.draft, 'contentId'), ...body }, signal)
        : await api.updateLicence(need(read), input.id, { version: input.version, ...body }, signal);
      return licenceRecord(answer.licence, await choices(signal));
    }, availabilityFailureOf)),
    perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input, signal }) => {
      await api.deleteLicence(need(read), String(input.args.id), Number(input.args.version), signal);
      return M.licenceDeleted(input.label);
    }),
  };
}

/** Where a page goes after a create (the new record's address) and after the editor's Close. */
export interface ContentListNavigation {
  openCreated: (route: string, id: string) => void;
  closeEditor: (route: string) => void;
  /** The list's search and page as the address (issue 38). */
  writeQuery?: (route: string, query: ListQuery) => void;
}
const browserNavigation: ContentListNavigation = {
  openCreated: (route, id) => navigateTo(`${route}?edit=${encodeURIComponent(id)}`, { replace: true }),
  closeEditor: (route) => navigateTo(route),
  writeQuery: writeListQueryToAddress,
};

/** One of the two list pages with its I/O and its editor's field rules (view tests pass fakes). */
export function contentListPage(name: ContentListPageName, io: ContentListPageIo, navigation: ContentListNavigation = browserNavigation) {
  const route = CONTENT_LIST_ROUTES[name];
  const rules = rulesOf(name === 'countryGroups' ? countryGroupErrors : licenceErrors);
  // Issue 38: typed changes kept across a reload (src/adapters/form-drafts.ts).
  const drafts = editorDrafts(`content.${name}`, io.load);
  return listPageMachine.provide({
    actors: {
      list: pageListMachine.provide({ actors: { fetchPage: io.fetchPage } }),
      editor: pageEditorMachine.provide({ actors: { load: drafts.load, save: io.save }, guards: rules.guards, actions: { ...rules.actions, ...drafts.actions } }),
      pageAction: pageActionLogic.provide({ actors: { perform: io.perform } }),
      history: pageHistoryMachine.provide({ actors: io.history ?? historyActors() }),
    },
    actions: {
      openCreated: (_, params: { id: string }) => navigation.openCreated(route, params.id),
      closeEditor: () => navigation.closeEditor(route),
      writeQuery: (_, params: { query: ListQuery }) => navigation.writeQuery?.(route, params.query),
    },
  });
}

/** The availability panel's I/O: GET (with the site's groups) and PUT of one item's availability. */
export function availabilityIo(read: Read = readCredentials) {
  return {
    load: fromPromise<EditorRecord, { id: string }>(async ({ input, signal }) => translated(async () => {
      const [answer, { groups }] = await Promise.all([api.fetchAvailability(need(read), input.id, signal), api.fetchCountryGroups(need(read), signal)]);
      return availabilityRecord(answer, groups);
    }, availabilityFailureOf)),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input, signal }) => translated(async () => {
      const zone = knownTimeZone(input.draft.timeZone);
      const instant = (field: string) => (text(input.draft, field) ? zonedWallTimeToIso(text(input.draft, field), zone) ?? text(input.draft, field) : null);
      const answer = await api.saveAvailability(need(read), input.id, {
        version: input.version, publishAt: instant('publishAt'), unpublishAt: instant('unpublishAt'), countryGroupIds: list(input.draft, 'countryGroupIds'),
      }, signal);
      const { groups } = await api.fetchCountryGroups(need(read), signal);
      return availabilityRecord(answer, groups);
    }, availabilityFailureOf)),
  };
}

/**
 * The item page's availability panel: the generic editor over GET/PUT availability, with its field rules;
 * Close does nothing. Issue 38: typed changes kept across a reload (src/adapters/form-drafts.ts).
 */
export function contentAvailabilityPanel(io: ReturnType<typeof availabilityIo> = availabilityIo()) {
  const rules = rulesOf(availabilityErrors);
  const drafts = editorDrafts('content.availability', io.load);
  return editorMachine.provide({
    actors: { load: drafts.load, save: io.save },
    guards: rules.guards,
    actions: { ...rules.actions, ...drafts.actions, leave: () => undefined },
  });
}
