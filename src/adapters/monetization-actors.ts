/**
 * The real I/O of the Monetization pages: the list machine's `fetchPage`, the editor machine's
 * `load` / `save` and field rules for each editor, over the management GraphQL endpoint with the one
 * urql client. Drafts are the editor's flat values (numbers as the text typed, prices as two parallel
 * lists); the converters here turn them into the GraphQL inputs the shared rules check.
 */
import { assign, fromCallback, fromPromise, type AnyActorLogic } from 'xstate';
import { COUPON_ACTIONS, PLAN_ACTIONS, PLAN_GROUP_ACTIONS, readPlanGroupOrder } from '../../common/monetization-contract';
import {
  MONETIZATION_MESSAGES, formatMoney, offerTakesNewCodes, parseWhole, validateCoupon, validateCouponBatch, validateOffer, validatePlan, validatePlanGroup, validateSettings,
  type CouponBatchInput, type CouponInput, type FieldErrors, type MonetizationSettingsInput, type OfferInput, type PlanGroupInput, type PlanInput,
} from '../../common/monetization-rules';
import { EditorFailure, type EditorContext, type EditorEvent, type EditorRecord, type EditorSaveInput, type EditorValues } from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import {
  listPageMachine, NEW_RECORD_ID, pageActionLogic, pageAddressLogic, pageEditorMachine, pageListMachine, pageRowHistoryMachine,
} from '../../machines/list-page.machine';
import { editorPageMachine } from '../../machines/editor-page.machine';
import { pageHistoryMachine } from '../../machines/history.machine';
import type { PageActionArgs, PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { COOKIE_NAMES } from '../../common/constants';
import { isoInTimeZone, knownTimeZone, zonedWallTimeToIso } from '../../common/zoned-time';
import { reportUnauthorized } from '../api/client';
import { readCookie } from './cookies';
import { createGraphqlClient, type GraphqlClient, GraphqlCallError, runGraphql } from '../api/graphql';
import * as api from '../api/monetization';
import { historyActors } from './history-io';
import { editorDrafts } from './form-drafts';
import { writeListQueryToAddress } from './list-address';
import { navigateTo } from './navigation';
import { readNetworkCredentials } from './network-credentials';
import { translated } from './translated';
import { postWrite, type WriteKind } from './write-signals';

let sharedClient: GraphqlClient | null = null;

/** One urql client for the Monetization pages, made on first use. */
export function monetizationClient(): GraphqlClient {
  sharedClient ??= createGraphqlClient({
    getCredentials: readNetworkCredentials,
    onUnauthorized: reportUnauthorized,
  });
  return sharedClient;
}

/** The id an editor is opened with to create a record rather than edit one. */
export const NEW_ID = NEW_RECORD_ID;

/** A GraphQL refusal as the editor machine reads it: conflict, not found, or invalid with field messages. */
export function editorFailureOf(error: unknown): unknown {
  if (!(error instanceof GraphqlCallError)) return error;
  if (error.code === 'CONFLICT') return new EditorFailure('conflict', error.message);
  if (error.code === 'NOT_FOUND') return new EditorFailure('not-found', error.message);
  if (Object.keys(error.fields).length > 0) return new EditorFailure('invalid', error.message, error.fields);
  return error;
}


const text = (values: EditorValues, field: string): string => {
  const value = values[field];
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
};
const list = (values: EditorValues, field: string): string[] => {
  const value = values[field];
  return Array.isArray(value) ? [...value] : [];
};

/** `datetime-local` text (local time) ⇄ ISO instants. */
/**
 * The site's zone for the editors' date-time fields (issue 30: one date format, the site's zone): the
 * `defaultTimezone` cookie the session keeps, a zone the browser knows, else 'UTC'. The fields are
 * entered and shown in it, as the lists show the stored instants.
 */
export const siteZone = (): string => knownTimeZone(readCookie(COOKIE_NAMES.defaultTimezone));

/** A stored instant as a datetime-local value ('YYYY-MM-DDTHH:mm') in `zone`; '' for none. */
export function toLocalInput(iso: string | null, zone: string = siteZone()): string {
  if (!iso) return '';
  return isoInTimeZone(iso, zone).replace(' ', 'T');
}
/** A datetime-local value in `zone` as an ISO instant; text that is not one is kept for the rules to name. */
export function toIso(local: string, zone: string = siteZone()): string {
  const wall = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(local.trim()) ? local.trim().slice(0, 16) : '';
  return wall ? zonedWallTimeToIso(wall, zone) ?? local : local;
}

/* ------------------------------- Models ------------------------------- */

export function settingsInputOf(draft: EditorValues): MonetizationSettingsInput {
  return { isMonetizationModelEnabled: draft.isMonetizationModelEnabled === true, models: list(draft, 'models') };
}
const settingsRecord = (s: api.MonetizationSettings): EditorRecord => ({
  values: { isMonetizationModelEnabled: s.isMonetizationModelEnabled, models: s.models }, version: s.version, data: { serviceType: s.serviceType },
});

/* ------------------------------- Plans ------------------------------- */

export function planInputOf(draft: EditorValues): PlanInput {
  const currencies = list(draft, 'priceCurrencies');
  const amounts = list(draft, 'priceAmounts');
  return {
    name: text(draft, 'name'),
    description: text(draft, 'description'),
    prices: currencies.map((currency, i) => ({ currency, amount: amounts[i] ?? '' })),
    billingPeriod: text(draft, 'billingPeriod'),
    trialDays: parseWhole(text(draft, 'trialDays')),
    deviceLimit: parseWhole(text(draft, 'deviceLimit')),
    status: text(draft, 'status'),
  };
}
/** GraphQL cannot carry NaN: a number the rules refused never leaves the browser, but keep the type honest. */
function sendablePlan(input: PlanInput): PlanInput {
  return { ...input, trialDays: Number.isNaN(input.trialDays) ? -1 : input.trialDays, deviceLimit: Number.isNaN(input.deviceLimit) ? -1 : input.deviceLimit };
}
const planRecord = (p: api.Plan): EditorRecord => ({
  id: p.id,
  values: {
    name: p.name, description: p.description, billingPeriod: p.billingPeriod, trialDays: String(p.trialDays),
    deviceLimit: String(p.deviceLimit), status: p.status,
    priceCurrencies: p.prices.map((x) => x.currency), priceAmounts: p.prices.map((x) => formatMoney(x.amount, x.currency)),
  },
  version: p.version,
  data: {
    subscriptionCount: p.subscriptionCount, payingSubscriptionCount: p.payingSubscriptionCount, payingSubscriberCount: p.payingSubscriberCount,
    oldPriceSubscriptionCount: p.oldPriceSubscriptionCount, movingAtRenewalCount: p.movingAtRenewalCount,
  },
});
export const NEW_PLAN: EditorRecord = {
  values: { name: '', description: '', billingPeriod: 'month', trialDays: '0', deviceLimit: '4', status: 'draft', priceCurrencies: ['USD'], priceAmounts: [''] },
  version: 0,
  data: { subscriptionCount: 0 },
};

/* ----------------------------- Plan groups ----------------------------- */

export function planGroupInputOf(draft: EditorValues): PlanGroupInput {
  return { name: text(draft, 'name'), description: text(draft, 'description'), planIds: list(draft, 'planIds') };
}
const groupRecord = (g: api.PlanGroup, plans: api.Plan[]): EditorRecord => ({
  id: g.id, values: { name: g.name, description: g.description, planIds: g.planIds }, version: g.version, data: { plans },
});

/* ------------------------------- Offers ------------------------------- */

export function offerInputOf(draft: EditorValues): OfferInput {
  return {
    name: text(draft, 'name'), discountType: text(draft, 'discountType'), discountValue: text(draft, 'discountValue'),
    currency: text(draft, 'currency'), planIds: list(draft, 'planIds'), startsAt: toIso(text(draft, 'startsAt')),
    endsAt: toIso(text(draft, 'endsAt')), eligibility: text(draft, 'eligibility'), status: text(draft, 'status'),
    duration: text(draft, 'duration') || 'once', durationMonths: text(draft, 'duration') === 'repeating' ? text(draft, 'durationMonths') : '',
  };
}
const offerRecord = (o: api.Offer, plans: api.Plan[]): EditorRecord => ({
  id: o.id,
  values: {
    name: o.name, discountType: o.discountType,
    discountValue: o.discountType === 'fixed' && o.currency ? formatMoney(o.discountValue, o.currency) : String(o.discountValue),
    currency: o.currency ?? 'USD', planIds: o.planIds, startsAt: toLocalInput(o.startsAt), endsAt: toLocalInput(o.endsAt),
    eligibility: o.eligibility, status: o.status, duration: o.duration, durationMonths: o.durationMonths === null ? '' : String(o.durationMonths),
  },
  version: o.version,
  data: { plans },
});

/* ------------------------------- Coupons ------------------------------- */

export function batchInputOf(draft: EditorValues): CouponBatchInput {
  return {
    offerId: text(draft, 'offerId'), count: text(draft, 'count'), prefix: text(draft, 'prefix'),
    maxRedemptions: text(draft, 'maxRedemptions'), maxPerSubscriber: text(draft, 'maxPerSubscriber'), expiresAt: toIso(text(draft, 'expiresAt')),
  };
}
/** One named code (SUMMER25, issue 30): the coupon form's `mode` 'single'; a batch of random codes is mode 'batch'. */
export function couponInputOf(draft: EditorValues): CouponInput {
  return {
    offerId: text(draft, 'offerId'), code: text(draft, 'code').trim(), maxRedemptions: text(draft, 'maxRedemptions'),
    maxPerSubscriber: text(draft, 'maxPerSubscriber'), expiresAt: toIso(text(draft, 'expiresAt')), status: 'active',
  };
}
/** The coupon form: only offers that take a new code (issue 38: not archived, not ended), the first chosen. */
export const batchRecord = (all: api.Offer[], generated: number | null, created: string | null = null, now = Date.now()): EditorRecord => {
  const offers = all.filter((o) => offerTakesNewCodes(o, now));
  return {
    values: { mode: 'batch', code: '', offerId: offers[0]?.id ?? '', count: '50', prefix: '', maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '' },
    version: 0,
    data: { offers, generated, created },
  };
};

/* ------------------------------- Field rules ------------------------------- */

export type MonetizationEditorKind = 'models' | 'plan' | 'planGroup' | 'offer' | 'couponBatch';

export const FIELD_RULES: Readonly<Record<MonetizationEditorKind, (draft: EditorValues) => FieldErrors>> = {
  models: (draft) => validateSettings(settingsInputOf(draft)),
  plan: (draft) => validatePlan(planInputOf(draft)),
  planGroup: (draft) => validatePlanGroup(planGroupInputOf(draft)),
  offer: (draft) => validateOffer(offerInputOf(draft)),
  couponBatch: (draft) => (draft.mode === 'single' ? validateCoupon(couponInputOf(draft)) : validateCouponBatch(batchInputOf(draft))),
};

/** The editor's `checkDraft` action and `breaksFieldRules` guard for one kind of editor. */
export function fieldRuleImplementations(kind: MonetizationEditorKind) {
  const rules = FIELD_RULES[kind];
  return {
    actions: { checkDraft: assign<EditorContext, EditorEvent, unknown, EditorEvent, never>(({ context }) => ({ fieldErrors: rules(context.draft) })) },
    guards: { breaksFieldRules: ({ context }: { context: EditorContext }) => Object.keys(rules(context.draft)).length > 0 },
  };
}

/* ------------------------------- Actors ------------------------------- */

const allPlans = async (client: GraphqlClient, signal: AbortSignal) =>
  (await runGraphql(client, 'query', api.PLANS, { limit: 100 }, signal)).plans.items;

/** fetchPage for each list, by kind. */
export function listActors(client: GraphqlClient = monetizationClient()) {
  const vars = (q: ListQuery) => ({ search: q.search, status: q.filters.status ?? '', offset: q.offset, limit: q.limit });
  return {
    plans: fromPromise<ListPage, ListQuery>(async ({ input, signal }) => (await runGraphql(client, 'query', api.PLANS, vars(input), signal)).plans),
    offers: fromPromise<ListPage, ListQuery>(async ({ input, signal }) => (await runGraphql(client, 'query', api.OFFERS, vars(input), signal)).offers),
    coupons: fromPromise<ListPage, ListQuery>(async ({ input, signal }) =>
      (await runGraphql(client, 'query', api.COUPONS, { ...vars(input), offerId: input.filters.offerId || undefined }, signal)).coupons),
    planGroups: fromPromise<ListPage, ListQuery>(async ({ signal }) => {
      const groups = (await runGraphql(client, 'query', api.PLAN_GROUPS, {}, signal)).planGroups;
      return { items: groups, total: groups.length };
    }),
  };
}

/** load and save for each editor, by kind. */
export function editorActors(kind: MonetizationEditorKind, client: GraphqlClient = monetizationClient()) {
  const load = (run: (id: string, signal: AbortSignal) => Promise<EditorRecord>) =>
    fromPromise<EditorRecord, { id: string }>(({ input, signal }) => translated(() => run(input.id, signal), editorFailureOf));
  const save = (run: (input: EditorSaveInput, signal: AbortSignal) => Promise<EditorRecord>) =>
    fromPromise<EditorRecord, EditorSaveInput>(({ input, signal }) => translated(() => run(input, signal), editorFailureOf));
  switch (kind) {
    case 'models':
      return {
        load: load(async (_, signal) => settingsRecord((await runGraphql(client, 'query', api.MONETIZATION_SETTINGS, {}, signal)).monetizationSettings)),
        save: save(async (input, signal) => settingsRecord((await runGraphql(client, 'mutation', api.MONETIZATION_SETTINGS_SAVE,
          { version: input.version, input: settingsInputOf(input.draft) }, signal)).monetizationSettingsSave)),
      };
    case 'plan':
      return {
        load: load(async (id, signal) => (id === NEW_ID ? NEW_PLAN : planRecord((await runGraphql(client, 'query', api.PLAN_GET, { id }, signal)).plan))),
        save: save(async (input, signal) => {
          const plan = sendablePlan(planInputOf(input.draft));
          return planRecord(input.id === NEW_ID
            ? (await runGraphql(client, 'mutation', api.PLAN_CREATE, { input: plan }, signal)).planCreate
            : (await runGraphql(client, 'mutation', api.PLAN_UPDATE, { id: input.id, version: input.version, input: plan }, signal)).planUpdate);
        }),
      };
    case 'planGroup':
      return {
        load: load(async (id, signal) => {
          const plans = await allPlans(client, signal);
          if (id === NEW_ID) return { values: { name: '', description: '', planIds: [] }, version: 0, data: { plans } };
          return groupRecord((await runGraphql(client, 'query', api.PLAN_GROUP_GET, { id }, signal)).planGroup, plans);
        }),
        save: save(async (input, signal) => {
          const plans = await allPlans(client, signal);
          const group = planGroupInputOf(input.draft);
          return groupRecord(input.id === NEW_ID
            ? (await runGraphql(client, 'mutation', api.PLAN_GROUP_CREATE, { input: group }, signal)).planGroupCreate
            : (await runGraphql(client, 'mutation', api.PLAN_GROUP_UPDATE, { id: input.id, version: input.version, input: group }, signal)).planGroupUpdate, plans);
        }),
      };
    case 'offer':
      return {
        load: load(async (id, signal) => {
          const plans = await allPlans(client, signal);
          if (id === NEW_ID) {
            return {
              values: {
                name: '', discountType: 'percent', discountValue: '', currency: 'USD', planIds: [], startsAt: toLocalInput(new Date().toISOString()),
                endsAt: '', eligibility: 'new', status: 'draft', duration: 'once', durationMonths: '',
              },
              version: 0,
              data: { plans },
            };
          }
          return offerRecord((await runGraphql(client, 'query', api.OFFER_GET, { id }, signal)).offer, plans);
        }),
        save: save(async (input, signal) => {
          const plans = await allPlans(client, signal);
          const offer = offerInputOf(input.draft);
          return offerRecord(input.id === NEW_ID
            ? (await runGraphql(client, 'mutation', api.OFFER_CREATE, { input: offer }, signal)).offerCreate
            : (await runGraphql(client, 'mutation', api.OFFER_UPDATE, { id: input.id, version: input.version, input: offer }, signal)).offerUpdate, plans);
        }),
      };
    case 'couponBatch':
      return {
        load: load(async (_, signal) => batchRecord((await runGraphql(client, 'query', api.OFFERS, { limit: 100 }, signal)).offers.items, null)),
        save: save(async (input, signal) => {
          if (input.draft.mode === 'single') {
            const created = (await runGraphql(client, 'mutation', api.COUPON_CREATE, { input: couponInputOf(input.draft) }, signal)).couponCreate;
            const offers = (await runGraphql(client, 'query', api.OFFERS, { limit: 100 }, signal)).offers.items;
            return { ...batchRecord(offers, null, created.code), values: { ...input.draft, code: '' } };
          }
          const result = (await runGraphql(client, 'mutation', api.COUPON_BATCH, { input: batchInputOf(input.draft) }, signal)).couponBatchGenerate;
          const offers = (await runGraphql(client, 'query', api.OFFERS, { limit: 100 }, signal)).offers.items;
          return { ...batchRecord(offers, result.count), values: { ...input.draft, count: input.draft.count ?? '50' } };
        }),
      };
  }
}

/** The page actions (pageAction machine's `perform`) of each list page, by name (common/monetization-contract.ts); each answers the message to show. */
export { COUPON_ACTIONS, PLAN_ACTIONS, PLAN_GROUP_ACTIONS };

const argText = (args: PageActionArgs, name: string) => String(args[name] ?? '');

/**
 * Issue 28: a page action that offers Undo names the request it made; issue 37: by the id the server
 * answered (x-request-id), read from the response. No Undo when the answer named none.
 */
function undoableCall(): { answered: () => string | null; onRequestId: (requestId: string | null) => void } {
  let requestId: string | null = null;
  return { answered: () => requestId, onRequestId: (id) => { requestId = id; } };
}

/**
 * `announce`: a move of a plan's subscribers to its current price changes their subscriptions (the next
 * payment): the other tabs' report pages are told (issue 38, ./write-signals.ts) and decide what to read again.
 */
export function planActionActor(client: GraphqlClient = monetizationClient(), announce: (kind: WriteKind) => void = postWrite) {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input, signal }) => {
    const id = argText(input.args, 'id');
    if (input.name === PLAN_ACTIONS.moveAtRenewal) {
      const { planMoveSubscribersAtRenewal } = await runGraphql(client, 'mutation', api.PLAN_MOVE_AT_RENEWAL, { id, version: Number(input.args.version) }, signal);
      if (planMoveSubscribersAtRenewal.moved > 0) announce('subscription');
      return MONETIZATION_MESSAGES.movedAtRenewal(planMoveSubscribersAtRenewal.moved);
    }
    if (input.name === PLAN_ACTIONS.delete) {
      const { planDelete } = await runGraphql(client, 'mutation', api.PLAN_DELETE, { id, version: Number(input.args.version) }, signal);
      return planDelete.deleted ? MONETIZATION_MESSAGES.deleted : MONETIZATION_MESSAGES.archivedInUse;
    }
    return MONETIZATION_MESSAGES.duplicatedAs((await runGraphql(client, 'mutation', api.PLAN_DUPLICATE, { id }, signal)).planDuplicate.name);
  });
}

/**
 * Moves one plan group to another place in the paywall order. The order sent is the one the person
 * saw (args `order`, with the versions read), so a reorder or edit by someone else since answers a
 * conflict rather than being overwritten.
 */
export function planGroupMoveActor(client: GraphqlClient = monetizationClient()) {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input, signal }) => {
    const groups = readPlanGroupOrder(argText(input.args, 'order'));
    const from = groups.findIndex((g) => g.id === argText(input.args, 'id'));
    const to = Number(input.args.to);
    if (from < 0 || !Number.isInteger(to) || to < 0 || to >= groups.length) throw new Error(MONETIZATION_MESSAGES.notFound);
    const [group] = groups.splice(from, 1);
    groups.splice(to, 0, group!);
    const call = undoableCall();
    await runGraphql(client, 'mutation', api.PLAN_GROUPS_REORDER, { order: groups.map((g) => ({ id: g.id, version: g.version })) }, signal, undefined, call.onRequestId);
    const requestId = call.answered();
    return { message: MONETIZATION_MESSAGES.groupMoved(input.label, to + 1), ...(requestId ? { undoRequestId: requestId } : {}) };
  });
}

/**
 * The Coupons page's actions: `setStatus` disables or enables one code (issue 30); `exportCsv`
 * downloads the coupons matching the list's query as CSV (codes with their redemption counts).
 */
export function couponExportActor(client: GraphqlClient = monetizationClient()) {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input, signal }) => {
    if (input.name === COUPON_ACTIONS.setStatus) {
      const status = argText(input.args, 'status');
      // Issue 28: a disable names its request, so the snackbar's Undo can enable the code again.
      const call = undoableCall();
      await runGraphql(client, 'mutation', api.COUPON_SET_STATUS, { id: argText(input.args, 'id'), version: Number(input.args.version), status }, signal, undefined, call.onRequestId);
      if (status !== 'disabled') return MONETIZATION_MESSAGES.couponEnabled(input.label);
      const requestId = call.answered();
      return { message: MONETIZATION_MESSAGES.couponDisabled(input.label), ...(requestId ? { undoRequestId: requestId } : {}) };
    }
    const offerId = argText(input.args, 'offerId');
    const { couponsCsv } = await runGraphql(client, 'query', api.COUPONS_CSV, {
      search: argText(input.args, 'search'), status: argText(input.args, 'status'), offerId: offerId || undefined,
    }, signal);
    const url = URL.createObjectURL(new Blob([couponsCsv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'coupons.csv';
    link.click();
    URL.revokeObjectURL(url);
    return MONETIZATION_MESSAGES.exported(Math.max(0, couponsCsv.trim().split(/\r?\n/).length - 1));
  });
}

/* ------------------------------- Pages ------------------------------- */

/** The Monetization list pages: each one's route, list, editor kind and page actions. */
export const MONETIZATION_LIST_PAGES = {
  plans: { route: '/monetization/plans', list: 'plans', editor: 'plan' },
  offers: { route: '/monetization/offers', list: 'offers', editor: 'offer' },
  planGroups: { route: '/monetization/planGroups', list: 'planGroups', editor: 'planGroup' },
  coupons: { route: '/monetization/coupon', list: 'coupons', editor: 'couponBatch' },
} as const satisfies Record<string, { route: string; list: keyof ReturnType<typeof listActors>; editor: MonetizationEditorKind }>;
export type MonetizationListPage = keyof typeof MONETIZATION_LIST_PAGES;

/** The I/O of one list page: the rows, the record's load and save, and the page actions. */
export interface ListPageIo {
  fetchPage: AnyActorLogic;
  load: AnyActorLogic;
  save: AnyActorLogic;
  perform: AnyActorLogic;
  /** The open record's History (`load`, `restore`); the browser's REST calls when not given. */
  history?: { load: AnyActorLogic; restore: AnyActorLogic };
}

/**
 * Where a page goes after a create (the new record's address) and after the editor's Close, and how
 * it writes the list's query into its address (issue 38).
 */
export interface ListPageNavigation {
  openCreated: (route: string, id: string) => void;
  closeEditor: (route: string) => void;
  writeQuery?: (route: string, query: ListQuery) => void;
}

const browserNavigation: ListPageNavigation = {
  openCreated: (route, id) => navigateTo(`${route}?edit=${encodeURIComponent(id)}`, { replace: true }),
  closeEditor: (route) => navigateTo(route),
  writeQuery: writeListQueryToAddress,
};

/**
 * One list page's machine with its I/O and the field rules of its editor. View tests call it with
 * fake I/O (src/test-harness/monetization-pages.ts); the browser's is `monetizationPages` below.
 */
export function monetizationListPage(page: MonetizationListPage, io: ListPageIo, navigation: ListPageNavigation = browserNavigation) {
  const { route, editor } = MONETIZATION_LIST_PAGES[page];
  const rules = fieldRuleImplementations(editor);
  // Issue 38: typed changes kept across a reload (src/adapters/form-drafts.ts; never a password, code or secret).
  const drafts = editorDrafts(`monetization.${editor}`, io.load);
  return listPageMachine.provide({
    actors: {
      list: pageListMachine.provide({ actors: { fetchPage: io.fetchPage } }),
      editor: pageEditorMachine.provide({ actors: { load: drafts.load, save: io.save }, guards: rules.guards, actions: { ...rules.actions, ...drafts.actions } }),
      pageAction: pageActionLogic.provide({ actors: { perform: io.perform } }),
      history: pageHistoryMachine.provide({ actors: io.history ?? historyActors() }),
      rowHistory: pageRowHistoryMachine.provide({ actors: io.history ?? historyActors() }),
      address: page === 'coupons' ? rowHistoryFromAddress(route) : pageAddressLogic,
    },
    actions: {
      openCreated: (_, params: { id: string }) => navigation.openCreated(route, params.id),
      closeEditor: () => navigation.closeEditor(route),
      writeQuery: (_, params: { query: ListQuery }) => navigation.writeQuery?.(route, params.query),
    },
  });
}

/**
 * Coupons: Back and Forward between `?history=<couponId>` addresses tell the page which code's History
 * to show (the History links and Close history change the address and send the event themselves; a
 * reload gives it as the page's input). The same rule as the route's validator: a non-empty id.
 */
function rowHistoryFromAddress(route: string) {
  return fromCallback(({ sendBack }) => {
    const onPop = () => {
      if (window.location.pathname.replace(/\/$/, '') !== route) return;
      const id = new URLSearchParams(window.location.search).get('history');
      sendBack(id ? { type: 'page.history', id } : { type: 'page.closeHistory' });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  });
}

/** Offers have no page actions: a request would be a mistake of the view, said as such. */
const noPageAction = () => fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
  throw new Error(`No page action "${input.name}" on this page`);
});

function browserIo(page: MonetizationListPage): ListPageIo {
  const { list, editor } = MONETIZATION_LIST_PAGES[page];
  const perform = { plans: planActionActor, offers: noPageAction, planGroups: planGroupMoveActor, coupons: couponExportActor }[page]();
  return { fetchPage: listActors()[list], ...editorActors(editor), perform };
}

/** Models: one record (the site's monetization settings) with its field rules; Close reopens it. */
export function monetizationModelsPage(io: Pick<ListPageIo, 'load' | 'save' | 'history'>, leave: () => void = () => navigateTo('/monetization/models')) {
  const rules = fieldRuleImplementations('models');
  const drafts = editorDrafts('monetization.models', io.load);
  return editorPageMachine.provide({
    actors: {
      editor: pageEditorMachine.provide({ actors: { load: drafts.load, save: io.save }, guards: rules.guards, actions: { ...rules.actions, ...drafts.actions } }),
      pageAction: pageActionLogic.provide({ actors: { perform: noPageAction() } }),
      history: pageHistoryMachine.provide({ actors: io.history ?? historyActors() }),
    },
    actions: { leave },
  });
}

/** The Monetization pages with their real I/O (src/adapters/page-logic.ts loads this module with the area). */
export const monetizationPages = {
  models: monetizationModelsPage(editorActors('models')),
  plans: monetizationListPage('plans', browserIo('plans')),
  offers: monetizationListPage('offers', browserIo('offers')),
  planGroups: monetizationListPage('planGroups', browserIo('planGroups')),
  coupons: monetizationListPage('coupons', browserIo('coupons')),
};
