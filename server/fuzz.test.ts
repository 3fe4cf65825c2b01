/**
 * Issues 19 and 25: property-based input (fast-check) at every route and every GraphQL field the app
 * registers. Never a 5xx; every refusal is JSON with a message; a refused request leaves the data
 * unchanged.
 *
 * Two kinds of input:
 * - Hostile: random dictionaries, raw bodies, hostile path parameters, headers and GraphQL documents
 *   (issue 19). These rarely get past validation.
 * - Near-valid (issue 25): built from each route's own JSON schema (captured from Fastify's onRoute)
 *   or each GraphQL argument's type, with real ids of the seeded small world in the paths and the
 *   current `version` of the row, signed in as an account whose roles reach the area; then one field
 *   at a time is pushed to a boundary (2^31, 2^53, 1e21, -1, floats, huge strings, wrong types,
 *   missing or extra fields), and some cases are anonymous, read-only or from the other site.
 *   Every route's handler must be reached at least once (a 2xx or a handler-level 4xx, not a schema
 *   400) and every GraphQL field's resolver.
 *
 * Bounded: about 3,000 cases (FUZZ_RUNS scales them, FUZZ_SEED picks another seed). The file has a
 * database of its own (openIsolatedTestDb): near-valid writes succeed and change the demo sites.
 *
 * "Data" is every table except the security bookkeeping a refused request is meant to write
 * (sessions' last-seen, OTP attempt counters, reset tokens, rate-limit buckets, the audit log, the
 * SMS outbox); a trigger on each counts the rows written (fuzz_changes, in this file's database only).
 * FUZZ_DEBUG=<text> prints every near-valid request whose route contains the text.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import {
  buildSchema, getNamedType, isInputObjectType, isLeafType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLOutputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_PATHS, SERVICE_TYPES, UPLOAD_SLOTS } from '../common/appcms';
import { API_PATHS } from '../common/constants';
import {
  BILLING_PERIODS, COUPON_STATUSES, CURRENCIES, DISCOUNT_TYPES, ELIGIBILITIES, MONEY_MINOR_MAX, OFFER_STATUSES, PLAN_STATUSES,
} from '../common/monetization-rules';
import { INGEST_KEY_HEADER } from '../common/ingest-contract';
import { GRANULARITIES, REPORT_NAMES, REPORTS_PATH } from '../common/reports';
import { DEMO_ACCOUNTS, DEMO_SITES, demoAccount } from './db/demo-accounts';
import * as schema from './db/schema';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { NETWORK_DATA_KINDS } from './domain/networks';
import { GRAPHQL_CODES } from './graphql/plugin';
import { managementSchema } from './graphql/schema';
import { monetizationSchema } from './graphql/monetization';
import { socialLoginSchema } from './graphql/social-login';
import { supportSchema } from './graphql/support';
import {
  LAST_DATE, MONEY_BOUNDS, OUTSIDE_DATES, graphqlValueFor, mutate, mutationArbitrary, schemaPaths, validFor, type JsonSchema, type ValuePools,
} from './test/fuzz-inputs';
import { createTestApp, openIsolatedTestDb, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';

/**
 * Every route as Fastify registers it, with its schema; and which handlers ran (the route's own
 * function, after validation and hooks): the test app's onRoute hook (createTestApp's `onRoute`, added
 * as the Fastify instance is made, before any route), so the file needs no module mock and runs in a
 * worker that other test files share (vitest.config.ts: the server tests are not isolated).
 */
const captured = {
  routes: [] as { method: string; url: string; schema?: { body?: unknown; querystring?: unknown; params?: unknown } }[],
  entered: new Set<string>(),
};
function captureRoute(route: RouteOptions): void {
  for (const method of (Array.isArray(route.method) ? route.method : [route.method]) as string[]) captured.routes.push({ method: String(method), url: route.url, schema: route.schema as never });
  const handler = route.handler;
  route.handler = function (this: unknown, request, reply) {
    captured.entered.add(`${request.method} ${route.url}`);
    return handler.call(this as never, request, reply);
  };
}

const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = Number(process.env.FUZZ_SEED ?? 19);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

/** Issue 37: a field that holds a date (an instant), and one that holds an amount of money. */
const DATE_FIELD = /At$/;
const MONEY_FIELD = /^(amount|discountValue)$/;
const BOOKKEEPING = new Set(['sessions', 'otp_codes', 'reset_tokens', 'rate_limits', 'audit_events', 'sms_outbox']);
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALL_WRITE = { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' } as const;
/** Demo accounts the run signs in with (never targets of the staff routes, so the run keeps its sessions). */
const READERS = ['content-reader@demo.test', 'monetization-reader@demo.test', 'support-reader@demo.test', 'appcms-reader@demo.test', 'siteadmin@demo.test', 'noaccess@demo.test'];
const OTHER_SITE = 'admin@northwind.test';
/**
 * Routes whose handler a request cannot reach, with the reason (checked: each is listed only while
 * no generated request reaches it).
 */
const UNREACHABLE: Record<string, string> = {};

interface Route { method: string; url: string; schema?: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema } }

/** Text a naive server trips on: NUL, other controls, lone surrogates, quotes, SQL, escapes, huge. */
const hostileChar = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\ud800', '\udfff', '\t', '\n', "'", '"', '\\', '%', '<', '>', '$', '{', '}', ';', '\u2028', '\ufeff', '😀'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const hostileString = fc.oneof(
  fc.string({ unit: hostileChar, maxLength: 40 }),
  fc.constantFrom("' OR '1'='1", "'; DROP TABLE staff_users; --", '../../etc/passwd', '%00', '%ZZ', '${7*7}', '__proto__', 'constructor',
    '<script>alert(1)</script>', '-1', '1e309', 'NaN', '9'.repeat(40), '2024-02-30', 'admin@demo.test', ''),
  fc.constant('x'.repeat(20_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' },
    hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(hostileString, tie('value'), { maxKeys: 4 })),
})).value;

const FIELDS = ['username', 'password', 'deviceId', 'otp', 'code', 'phoneNumber', 'token', 'newPassword', 'isLogin', 'status', 'items', 'id',
  'version', 'title', 'description', 'tags', 'roles', 'email', 'displayName', 'enabled', 'reason', 'query', 'variables', 'events'];
const QUERY_KEYS = ['q', 'to', 'limit', 'start', 'max', 'sort', 'status', 'from', 'granularity', 'network', 'by', 'mediaType', 'query', 'variables', 'site'];

const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 }),
  hostileValue,
);
const rawBody = fc.record({
  type: fc.constantFrom('application/json', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data',
    'application/csp-report', 'application/reports+json', 'application/json; charset=utf-16', '*/*', ''),
  text: fc.oneof(hostileString, fc.constantFrom('{', '[', '{"a":', 'null', '1', '"x"', `${'['.repeat(3000)}${']'.repeat(3000)}`)),
});
const queryString = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(hostileString.map(pct), hostileString.filter((s) => !/[#&?]/.test(s)).map((s) => s.replace(/[^\x21-\x7e]/g, '')))), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const headers = fc.record({
  authorization: fc.oneof(fc.constant(undefined), hostileString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`), fc.constantFrom('Bearer', 'Basic YTpi', 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.e30.')),
  xapikey: fc.oneof(fc.constant(undefined), hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, ''))),
  accept: fc.constantFrom(undefined, 'application/json', 'text/html', '*/*', 'x'.repeat(2000)),
  'x-forwarded-for': fc.constantFrom(undefined, '1.2.3.4', 'garbage', '127.0.0.1, 10.0.0.1'),
}, { requiredKeys: [] });

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser would send it). */
function pct(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

function messageOf(res: LightMyRequestResponse): string | undefined {
  let json: { message?: unknown; errors?: { message?: unknown }[] };
  try {
    json = res.json();
  } catch {
    return undefined;
  }
  const message = json.message ?? json.errors?.[0]?.message;
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}

let t: TestApp;
let ownDb: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let actor: Session;
let actorName: string;
let readers: Session[];
let otherSite: Session;
let routes: Route[];
let fingerprintSql: ReturnType<typeof sql.raw>;
let requests = 0;
const started = Date.now();
/** route key → statuses seen; GraphQL field → reached with data / reached its resolver. */
const routeOk = new Set<string>();
const fieldOk = new Set<string>();
const fieldReached = new Set<string>();
/** Real values of the seeded world, by kind. */
const pool: Record<string, string[]> = {};

let fingerprintMs = 0;
async function fingerprint(): Promise<string> {
  const start = performance.now();
  const [row] = await queryRows<{ f: string }>(t.db, fingerprintSql);
  fingerprintMs += performance.now() - start;
  return row!.f;
}

let last = '';
/** Sends one request and checks the answer; refused writes must leave the data as it was. */
async function check(options: InjectOptions, routeKey?: string, writes = MUTATING.has(String(options.method))): Promise<LightMyRequestResponse> {
  requests++;
  const res = await t.inject(options);
  const label = `${options.method} ${String(options.url).slice(0, 200)} ${typeof options.payload === 'string' ? options.payload.slice(0, 300) : ''} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (String(options.url).split('?')[0] === API_PATHS.verify) {
    // Spec §7.4: the session check answers only `valid` (a proxy's auth_request reads the status).
    if (res.statusCode === 401 && options.method !== 'HEAD') expect(res.body, label).toBe('{"valid":false}');
  } else if (res.statusCode >= 400 && options.method !== 'HEAD') {
    expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
    expect(messageOf(res), label).toBeDefined();
  } else if (res.body.length > 0 && options.method !== 'HEAD' && /json/.test(String(res.headers['content-type']))) {
    expect(() => JSON.parse(res.body), label).not.toThrow();
  }
  if (routeKey && res.statusCode < 300) routeOk.add(routeKey);
  if (process.env.FUZZ_DEBUG && routeKey?.includes(process.env.FUZZ_DEBUG)) console.log(label);
  if (writes) {
    const now = await fingerprint();
    if (res.statusCode >= 400) expect(now, `data changed by a refused request: ${label}`).toBe(last);
    last = now;
    if (res.statusCode < 300) await repair();
  }
  return res;
}

/**
 * A successful write may have locked the run out (the site now requires a second factor or an
 * authenticator, or the actor's sessions were ended): put the site back and sign in again, so the
 * rest of the run still reaches the handlers.
 */
async function repair(): Promise<void> {
  const probe = await t.inject({ method: 'GET', url: `${API_PATHS.content}?limit=1`, headers: actor.headers });
  if (probe.statusCode === 200) return;
  await t.db.execute(sql`UPDATE sites SET second_factor_rule = 'optional'`);
  await t.db.execute(sql`UPDATE staff_users SET disabled = false, two_factor_on_login = false WHERE username = ${actorName}`);
  actor = await t.login(actorName);
  last = await fingerprint();
}

function fill(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z]+/g, () => pct(params[i++] ?? 'x') || 'x');
}

async function column(query: ReturnType<typeof sql>): Promise<string[]> {
  return (await queryRows<{ v: string }>(t.db, query)).map((row) => String(row.v));
}

/** Values of a column: 16 rows of the actor's site, then 4 of the other (a cross-tenant id must answer like an unknown one). */
async function ofBothSites(table: string, value: string): Promise<string[]> {
  const of = (site: string, limit: number) => column(sql.raw(`SELECT ${value} AS v FROM "${table}" WHERE site_id = (SELECT id FROM sites WHERE site_internal_name = '${site}') ORDER BY id LIMIT ${limit}`));
  return [...await of(DEMO_SITES.viewlift, 16), ...await of(DEMO_SITES.northwind, 4)];
}

/** Sets every `version` beside an `id` (top level and in lists such as a bulk edit's items) to the row's current one. */
async function withCurrentVersions(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) await withCurrentVersions(item);
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.id === 'string' && 'version' in record) {
    const version = await versionOf(record.id);
    if (version !== undefined) record.version = version;
  }
  for (const child of Object.values(record)) if (Array.isArray(child)) await withCurrentVersions(child);
}

/** The current version of the row with this id (staff, content, monetization, subscribers, subscriptions). */
async function versionOf(id: string | undefined): Promise<number | undefined> {
  if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await queryRows<{ version: number }>(t.db, sql`
    SELECT version FROM (
      SELECT id, version FROM staff_users UNION ALL SELECT id, version FROM content_items UNION ALL SELECT id, version FROM plans
      UNION ALL SELECT id, version FROM plan_groups UNION ALL SELECT id, version FROM offers UNION ALL SELECT id, version FROM coupons
      UNION ALL SELECT id, version FROM subscribers UNION ALL SELECT id, version FROM subscriptions
    ) v WHERE id::text = ${id.toLowerCase()} LIMIT 1`);
  return row?.version;
}

/** Real values for a field of a route (`where` is its URL or GraphQL field name). */
function poolsFor(where: string): ValuePools {
  return {
    forName(name: string) {
      // An uploaded file's address names its site by id (GET /v2.0/appcms/files/:site/:key), the editors by internal name.
      if (name === 'site' && where.startsWith(APPCMS_PATHS.files)) return pool.siteIds;
      if (name === 'site') return [DEMO_SITES.viewlift, DEMO_SITES.viewlift, DEMO_SITES.viewlift, DEMO_SITES.northwind];
      if (name === 'network' || name === 'networkIdentifier') return pool.networks;
      if (name === 'kind') return [...NETWORK_DATA_KINDS];
      if (name === 'slot') return [...UPLOAD_SLOTS];
      if (name === 'report') return [...REPORT_NAMES];
      if (name === 'granularity') return [...GRANULARITIES];
      if (name === 'sessionId') return where.includes('/staff/') ? pool.sessions : pool.spareSessions;
      // A revision's number (issue 28: POST /v1/revisions/:seq/restore); the walk's own writes record the first ones.
      if (name === 'seq') return ['1', '2', '3', '40'];
      if (name === 'id' || name === 'ids') {
        if (where.includes('/staff')) return pool.staff;
        if (where.includes(API_PATHS.content)) return pool.content;
        if (/^planGroup/.test(where)) return pool.planGroups;
        if (/^plan/.test(where)) return pool.plans;
        if (/^offer/.test(where)) return pool.offers;
        if (/^coupon/.test(where)) return pool.coupons;
        if (/^subscriber/.test(where)) return pool.subscribers;
        return pool.content;
      }
      if (/^(offerId|offerIds)$/.test(name)) return pool.offers;
      if (/^(planId|planIds)$/.test(name)) return pool.plans;
      if (/^(groupId|planGroupId)$/.test(name)) return pool.planGroups;
      if (name === 'subscriberId') return pool.subscribers;
      if (name === 'subscriptionId') return pool.subscriptions;
      if (name === 'deviceId') return where.startsWith('subscriber') ? pool.devices : undefined;
      if (name === 'username') return [demoAccount('content@demo.test').username, 'support@demo.test', 'nobody@demo.test'];
      if (name === 'password' && where.startsWith('/v')) return [TEST_SEED_PASSWORD];
      if (name === 'code' && where.startsWith('coupon')) return Array.from({ length: 20 }, (_, i) => `FUZZ${1000 + i}`);
      if (name === 'otp' || name === 'code') return ['123456', '000000'];
      if (name === 'status' && !where.startsWith('/')) {
        if (where.startsWith('plan')) return [...PLAN_STATUSES];
        if (where.startsWith('offer')) return [...OFFER_STATUSES];
        if (where.startsWith('coupon')) return [...COUPON_STATUSES];
      }
      // A video's captions language (DELETE /v2.0/media/:id/captions/:language: at most 20 characters, so a UUID never reaches it).
      if (name === 'language') return ['en', 'fr', 'pt-BR'];
      if (name === 'models') return [...SERVICE_TYPES];
      if (name === 'billingPeriod') return [...BILLING_PERIODS];
      if (name === 'discountType') return [...DISCOUNT_TYPES];
      if (name === 'eligibility') return [...ELIGIBILITIES];
      if (name === 'amount') return ['9.99', '4.99', '1'];
      if (name === 'discountValue') return ['10', '5'];
      if (/^(maxRedemptions|maxPerSubscriber|count)$/.test(name)) return ['1', '10', '100'];
      if (name === 'prefix') return ['FUZZ', 'SPRING'];
      if (name === 'startsAt') return ['2026-01-01', '2026-01-01T00:00:00.000Z'];
      if (/^(endsAt|expiresAt)$/.test(name)) return ['2026-12-31', '2026-12-31T00:00:00.000Z'];
      if (/^(search|query|q|who)$/.test(name)) return ['', 'ava', 'chiara', 'sports', 'news', 'mail.example'];
      if (name === 'currency') return [...CURRENCIES];
      if (name === 'mode') return ['NOW', 'AT_PERIOD_END'];
      if (name === 'reason') return ['Customer asked by phone'];
      if (name === 'from' || name === 'to') return ['2026-01-01', '2026-02-01', '2026-03-01'];
      // The catalogue fields of a content edit or create (each refused when not one of its list).
      if (name === 'rating') return ['PG-13', 'NR'];
      if (name === 'originalLanguage') return ['en', 'pt-BR'];
      if (name === 'releaseDate') return ['2024-05-01'];
      return undefined;
    },
  };
}

/** Session for one case: mostly an account that reaches every area with write, sometimes none, a reader, the other site. */
const WHO = fc.constantFrom('actor', 'actor', 'actor', 'actor', 'actor', 'actor', 'actor', 'reader', 'anonymous', 'other');
function headersOf(who: string, pick: number): Record<string, string> {
  if (who === 'actor') return actor.headers;
  if (who === 'reader') return readers[pick % readers.length]!.headers;
  if (who === 'other') return otherSite.headers;
  return {};
}

/** A 16 × 16 PNG (the smallest the uploads take). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGP8z8DAQAxgYhhVSF+FAP5FAh9EqYBoAAAAAElFTkSuQmCC', 'base64');

/** A near-valid body for a route without a body schema (the AppCMS editors check theirs in the domain): what the matching read answers. */
async function templateBody(route: Route, url: string): Promise<unknown> {
  const read = async (path: string) => {
    const res = await t.inject({ method: 'GET', url: path, headers: actor.headers });
    return res.statusCode === 200 ? res.json<Record<string, unknown>>() : {};
  };
  const tail = url.split('/').slice(-2).join('/');
  if (route.url.startsWith(APPCMS_PATHS.signingKey)) return { confirm: true };
  if (route.url.startsWith(APPCMS_PATHS.settingsRestore)) {
    const versions = await read(`${APPCMS_PATHS.settingsVersions}/${tail}`);
    const list = (versions.versions ?? []) as { version?: number }[];
    return { version: (await read(`${APPCMS_PATHS.settings}/${tail}`)).version ?? 1, restore: list[list.length - 1]?.version ?? 1 };
  }
  if (route.url.startsWith(APPCMS_PATHS.settings)) return { version: (await read(url)).version ?? 1, values: {} };
  if (route.url.startsWith(APPCMS_PATHS.service)) return { version: (await read(url)).version ?? 1 };
  if (route.url.startsWith(APPCMS_PATHS.brand) || route.url.startsWith(APPCMS_PATHS.devices)) {
    const { network: _network, success: _success, ...rest } = await read(url);
    return rest;
  }
  return {};
}

interface Case {
  who: string;
  pick: number;
  /** Per path parameter: 0-5 real, 6 random UUID, 7 malformed. */
  params: { choice: number; n: number; malformed: string }[];
  valid: { body: unknown; query: unknown };
  mutation: { target: 'none' | 'body' | 'query'; m: { pick: number; kind: 'set' | 'drop' | 'extra' | 'whole'; value: unknown; key: string } };
}

const MALFORMED = fc.constantFrom('-'.repeat(36), 'x', '%00', '{00000000-0000-0000-0000-000000000000}', '00000000-0000-0000-0000-00000000000G',
  'viewlift-demo', 'northwind-tv', '..', 'a'.repeat(300), '0', '-1', '2147483648', 'null', 'undefined');

/** The reports take any parameter at the schema and check them in parseReportParams: their near-valid query. */
const REPORT_QUERY: JsonSchema = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { type: 'string' }, to: { type: 'string' }, granularity: { type: 'string' }, network: { type: 'string' },
    compare: { enum: ['previous'] }, include: { enum: ['options'] }, currency: { type: 'string' },
  },
};

function caseFor(route: Route): fc.Arbitrary<Case> {
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const pools = poolsFor(route.url);
  const querySchema = route.url.startsWith(REPORTS_PATH) ? REPORT_QUERY : route.schema?.querystring;
  const valid = fc.record({
    body: route.schema?.body ? validFor(route.schema.body, 'body', pools) : fc.constant(undefined),
    query: querySchema ? validFor(querySchema, 'query', pools) : fc.constant(undefined),
  });
  return fc.record({
    who: WHO,
    pick: fc.nat(),
    params: fc.tuple(...names.map(() => fc.record({ choice: fc.nat({ max: 7 }), n: fc.nat(), malformed: MALFORMED }))),
    valid,
    mutation: fc.record({ target: fc.constantFrom('none', 'none', 'body', 'body', 'body', 'query'), m: mutationArbitrary }),
  }) as fc.Arbitrary<Case>;
}

function paramValue(url: string, name: string, p: Case['params'][number]): string {
  const real = poolsFor(url).forName(name) ?? [];
  if (p.choice <= 5 && real.length > 0) return encodeURIComponent(real[p.n % real.length]!);
  if (p.choice === 6 || (p.choice <= 5 && name !== 'key')) return p.n % 5 === 0 ? randomUUID().toUpperCase() : randomUUID();
  if (name === 'key') return `${'a'.repeat(64)}.png`;
  return p.malformed === '%00' ? '%00' : encodeURIComponent(p.malformed);
}

function queryText(query: unknown): string {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return query === undefined ? '' : `q=${encodeURIComponent(JSON.stringify(query))}`;
  return Object.entries(query).flatMap(([k, v]) => [v].flat().map((one) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof one === 'object' ? JSON.stringify(one) : String(one))}`)).join('&');
}

/** A copy of `value` with `path` set (containers made where missing; a numeric key in a list is an index). */
function withPath(value: unknown, path: readonly string[], leaf: unknown): unknown {
  const copy = (value !== null && typeof value === 'object' ? structuredClone(value) : {}) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  path.slice(0, -1).forEach((key, i) => {
    const next = parent[key];
    if (next === null || typeof next !== 'object') parent[key] = /^\d+$/.test(path[i + 1]!) ? [] : {};
    parent = parent[key] as Record<string, unknown>;
  });
  parent[path[path.length - 1]!] = leaf;
  return copy;
}

/** Sends one near-valid (or one-field-mutated) request at `route`; `set` (path → value) is applied last (issue 37's boundary walk). */
async function nearValid(route: Route, c: Case, set: readonly (readonly [readonly string[], unknown])[] = []): Promise<LightMyRequestResponse> {
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const values = names.map((name, i) => paramValue(route.url, name, c.params[i]!));
  let i = 0;
  const path = route.url.replace(/:[A-Za-z]+/g, () => values[i++]!);
  const key = `${route.method} ${route.url}`;
  let payload = c.valid.body;
  if (payload === undefined && MUTATING.has(route.method) && !route.schema?.body) payload = await templateBody(route, path);
  if (payload !== null && typeof payload === 'object' && 'version' in payload) {
    const idIndex = names.indexOf('id');
    const version = idIndex >= 0 ? await versionOf(decodeURIComponent(values[idIndex]!)) : undefined;
    if (version !== undefined) (payload as Record<string, unknown>).version = version;
  }
  await withCurrentVersions(payload);
  for (const [at, value] of set) payload = withPath(payload, at, value);
  let query = c.valid.query;
  if (c.mutation.target === 'body' && MUTATING.has(route.method)) payload = mutate(payload ?? {}, schemaPaths(route.schema?.body), c.mutation.m).value;
  if (c.mutation.target === 'query' || (c.mutation.target === 'body' && !MUTATING.has(route.method))) {
    query = mutate(query ?? {}, schemaPaths(route.url.startsWith(REPORTS_PATH) ? REPORT_QUERY : route.schema?.querystring), { ...c.mutation.m, kind: c.mutation.m.kind === 'whole' ? 'extra' : c.mutation.m.kind }).value;
  }
  const qs = queryText(query);
  const headerSet: Record<string, string> = { ...(route.url === API_PATHS.logout ? {} : headersOf(c.who, c.pick)) };
  const options: InjectOptions = { method: route.method as InjectOptions['method'], url: `${path}${qs ? `?${qs}` : ''}`, headers: headerSet };
  if (route.url.startsWith(APPCMS_PATHS.uploads)) {
    options.payload = PNG;
    headerSet['content-type'] = 'image/png';
  } else if (MUTATING.has(route.method)) {
    options.payload = JSON.stringify(payload ?? {});
    headerSet['content-type'] = 'application/json';
  }
  if (route.url.startsWith('/v1/')) headerSet[INGEST_KEY_HEADER] = demoIngestionKey(c.pick % 2 ? DEMO_SITES.viewlift : DEMO_SITES.northwind);
  const outboxToken = (t.config as { devOutboxToken?: string }).devOutboxToken;
  if (route.url === API_PATHS.devOutbox && outboxToken && c.pick % 4 !== 0) headerSet['x-dev-outbox-token'] = outboxToken;
  return check(options, key);
}

beforeAll(async () => {
  ownDb = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: ownDb.handle, onRoute: captureRoute });
  await seedSmallWorld(t.db);
  const user = await t.createUser({ roles: ALL_WRITE, prefix: 'fuzz-actor' });
  actorName = user.username;
  actor = await t.login(actorName);
  await t.login(actorName); // a second session of the actor's own, for the account routes to end
  readers = await Promise.all(READERS.map((name) => t.login(name)));
  otherSite = await t.login(OTHER_SITE);
  // The demo staff the run does not sign in with are the staff routes' targets; they get a session each to end.
  for (const name of ['content@demo.test', 'support@demo.test']) await t.login(name);
  const signedIn = [actorName, ...READERS, OTHER_SITE];
  const staffNames = DEMO_ACCOUNTS.map((a) => a.username).filter((name) => !signedIn.includes(name));
  pool.staff = await column(sql`SELECT id::text AS v FROM staff_users WHERE username IN (${sql.join(staffNames.map((n) => sql`${n}`), sql`, `)}) ORDER BY username`);
  pool.sessions = await column(sql`SELECT id::text AS v FROM sessions WHERE user_id::text IN (${sql.join(pool.staff.map((n) => sql`${n}`), sql`, `)})`);
  pool.spareSessions = await column(sql`SELECT s.id::text AS v FROM sessions s JOIN staff_users u ON u.id = s.user_id WHERE u.username = ${actorName} ORDER BY s.created_at DESC LIMIT 1`);
  pool.networks = await ofBothSites('networks', 'identifier');
  pool.content = await ofBothSites('content_items', 'id::text');
  pool.plans = await ofBothSites('plans', 'id::text');
  pool.planGroups = await ofBothSites('plan_groups', 'id::text');
  pool.offers = await ofBothSites('offers', 'id::text');
  pool.coupons = await ofBothSites('coupons', 'id::text');
  pool.subscribers = await ofBothSites('subscribers', 'id::text');
  pool.subscriptions = await ofBothSites('subscriptions', 'id::text');
  pool.devices = await ofBothSites('subscriber_devices', 'id::text');
  pool.siteIds = await column(sql`SELECT id::text AS v FROM sites WHERE site_internal_name IN (${DEMO_SITES.viewlift}, ${DEMO_SITES.northwind}) ORDER BY site_internal_name DESC`);
  for (const [name, values] of Object.entries(pool)) expect(values.length, `seeded ${name}`).toBeGreaterThan(0);

  const seen = new Set<string>();
  routes = captured.routes.filter((route) => {
    const key = `${route.method} ${route.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }) as Route[];
  const tables = Object.values(schema)
    .filter((value) => typeof value === 'object' && value !== null && Symbol.for('drizzle:IsDrizzleTable') in value)
    .map((table) => getTableConfig(table as PgTable).name)
    .filter((name) => !BOOKKEEPING.has(name));
  // Every row written to a data table (inserted, updated or deleted, in a transaction that commits) counts
  // one: comparing the count is O(1), where hashing the small world's tables took most of the run.
  await t.db.execute(sql.raw('CREATE TABLE fuzz_changes (n bigint NOT NULL)'));
  await t.db.execute(sql.raw('INSERT INTO fuzz_changes VALUES (0)'));
  await t.db.execute(sql.raw('CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE fuzz_changes SET n = n + 1; RETURN NULL; END $$'));
  for (const name of tables) await t.db.execute(sql.raw(`CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION fuzz_count()`));
  fingerprintSql = sql.raw('SELECT n::text AS f FROM fuzz_changes');
  last = await fingerprint();
}, 180_000);
afterAll(async () => {
  await t?.close();
  await ownDb?.drop();
  const pairs = routes?.filter((route) => route.method !== 'HEAD').length ?? 0;
  console.log(`fuzz: ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${(fingerprintMs / 1000).toFixed(1)} s comparing data); ${routeOk.size} of ${pairs} method+path pairs answered 2xx at least once; ${fieldOk.size} of ${fieldReached.size} GraphQL fields answered data`);
  const no2xx = routes?.filter((route) => route.method !== 'HEAD' && !routeOk.has(`${route.method} ${route.url}`)).map((route) => `${route.method} ${route.url}`) ?? [];
  console.log(`fuzz: no 2xx (refused at the handler every time): ${no2xx.join(', ')}; GraphQL fields without data: ${[...fieldReached].filter((name) => !fieldOk.has(name)).join(', ')}`);
});

describe('hostile input at every route', () => {
  it('finds the routes, with their schemas', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', url: API_PATHS.login }));
    expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', url: API_PATHS.graphql }));
    expect(routes.find((route) => route.method === 'PATCH' && route.url === `${API_PATHS.content}/:id`)?.schema?.body?.required).toEqual(['version']);
  });

  it('bodies, query strings, path parameters and headers: never a 500, refusals are JSON with a message, refused writes change nothing', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 10_000 }), fc.array(hostileString, { minLength: 3, maxLength: 3 }), queryString,
      fc.oneof(body.map((b) => ({ json: b })), rawBody.map((r) => ({ raw: r }))), headers, fc.boolean(),
      async (which, params, query, payload, extra, signedIn) => {
        const route = routes[which % routes.length]!;
        // Signing the actor out would blind the rest of the run to authenticated code.
        const auth = signedIn && route.url !== API_PATHS.logout ? actor.headers : {};
        const merged: Record<string, string> = Object.fromEntries(Object.entries({ ...extra, ...auth }).filter(([, v]) => v !== undefined)) as Record<string, string>;
        const options: InjectOptions = { method: route.method as InjectOptions['method'], url: `${fill(route.url, params)}${query ? `?${query}` : ''}`, headers: merged };
        if (MUTATING.has(route.method)) {
          if ('json' in payload) {
            options.payload = JSON.stringify(payload.json ?? null);
            merged['content-type'] = 'application/json';
          } else {
            options.payload = payload.raw.text;
            if (payload.raw.type) merged['content-type'] = payload.raw.type;
          }
        }
        await check(options);
      },
    ), { numRuns: runs(400), seed: SEED, endOnFailure: true });
  }, 180_000);

  it('near-valid input from each route\'s schema, then one field at a time at a boundary: never a 5xx, refusals JSON with a message; every handler is reached', async () => {
    const rest = routes.filter((route) => route.method !== 'HEAD' && route.url !== API_PATHS.graphql);
    // Every route once as the schema describes it, signed in with every area's write; then at random.
    for (const route of rest) {
      const [one] = fc.sample(caseFor(route), { numRuns: 1, seed: SEED });
      await nearValid(route, { ...one!, who: 'actor', params: one!.params.map((p) => ({ ...p, choice: 0 })), mutation: { ...one!.mutation, target: 'none' } });
    }
    await fc.assert(fc.asyncProperty(
      fc.nat().chain((n) => caseFor(rest[n % rest.length]!).map((c) => ({ route: rest[n % rest.length]!, c }))),
      async ({ route, c }) => { await nearValid(route, c); },
    ), { numRuns: runs(1000), seed: SEED, endOnFailure: true });

    const notReached = rest.map((route) => `${route.method} ${route.url}`).filter((key) => !captured.entered.has(key));
    expect(notReached.filter((key) => !(key in UNREACHABLE))).toEqual([]);
    expect(Object.keys(UNREACHABLE).filter((key) => captured.entered.has(key)), 'reached after all: drop from UNREACHABLE').toEqual([]);
  }, 300_000);

  it('issue 37: every date field of every route at the four dates PostgreSQL cannot store (never a 5xx, never accepted) and at the last instant (never a 5xx)', async () => {
    const walked: string[] = [];
    for (const route of routes.filter((r) => MUTATING.has(r.method) && r.schema?.body)) {
      for (const path of schemaPaths(route.schema!.body).filter((p) => DATE_FIELD.test(p[p.length - 1]!))) {
        const field = path.join('.');
        walked.push(`${route.method} ${route.url} ${field}`);
        for (const value of [...OUTSIDE_DATES, LAST_DATE]) {
          const [one] = fc.sample(caseFor(route), { numRuns: 1, seed: SEED });
          const c: Case = { ...one!, who: 'actor', params: one!.params.map((p) => ({ ...p, choice: 0 })), mutation: { ...one!.mutation, target: 'none' } };
          // A go-live date is read only with the status that takes one; a live start only for a live item.
          const companions = field === 'scheduledAt' ? [[['status'], 'scheduled'] as const] : route.url === API_PATHS.content && field === 'startsAt' ? [[['kind'], 'live'] as const] : [];
          const res = await nearValid(route, c, [...companions, [path, value]]);
          if (value !== LAST_DATE) expect(res.statusCode, `${route.method} ${route.url} ${field} = ${value} was accepted: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }
      }
    }
    // The Content area's date inputs are all found (the list is what the walk found, not a hand-kept list).
    expect(walked).toEqual(expect.arrayContaining([
      `PATCH ${API_PATHS.content}/:id scheduledAt`, `POST ${API_PATHS.content} startsAt`,
      'PUT /v2.0/content/:id/availability publishAt', 'PUT /v2.0/content/:id/availability unpublishAt',
      'POST /v2.0/licences startsAt', 'POST /v2.0/licences endsAt', 'PATCH /v2.0/licences/:id startsAt', 'PATCH /v2.0/licences/:id endsAt',
    ]));
  }, 120_000);
});

/** Every query and mutation the endpoint answers, with its type from the schema the fuzz builds from. */
async function graphqlOps(): Promise<{ op: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[]> {
  const built = buildSchema([managementSchema, monetizationSchema, socialLoginSchema, supportSchema].join('\n'));
  const shape = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: actor.headers, payload: { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' } });
  const introspected = shape.json<{ data: { __schema: Record<'queryType' | 'mutationType', { fields: { name: string }[] }> } }>().data.__schema;
  const ops: { op: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] = [];
  for (const [op, type, root] of [['query', introspected.queryType, built.getQueryType()], ['mutation', introspected.mutationType, built.getMutationType()]] as const) {
    for (const { name } of type.fields) {
      const field = root?.getFields()[name];
      expect(field, `${name} is in the schema the fuzz builds from`).toBeDefined();
      ops.push({ op, field: field! });
    }
  }
  return ops;
}

function selection(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named) || !isObjectType(named)) return '';
  const fieldsOf = Object.values((named as GraphQLObjectType).getFields());
  const parts = fieldsOf.flatMap((f) => {
    if (f.args.some((a) => a.type.toString().endsWith('!'))) return [];
    if (isLeafType(getNamedType(f.type))) return depth === 0 || /^(id|version|name|__typename)$/.test(f.name) ? [f.name] : [];
    return depth === 0 ? [`${f.name} ${selection(f.type, depth + 1)}`.trim()].filter((s) => s.endsWith('}')) : [];
  });
  return `{ __typename ${parts.join(' ')} }`;
}

interface GraphqlAnswer { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[] }

/** Sends one operation with `variables` and checks the answer (check()); the answer's body. */
async function send(op: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>, who: string, pick: number, viaGet: boolean): Promise<GraphqlAnswer> {
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const query = `${op} Fuzz${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selection(field.type)} }`;
  const auth = headersOf(who, pick);
  const res = viaGet && op === 'query'
    ? await check({ method: 'GET', url: `${API_PATHS.graphql}?${new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString()}`, headers: auth }, `GET ${API_PATHS.graphql}`)
    : await check({ method: 'POST', url: API_PATHS.graphql, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ query, variables }) }, `POST ${API_PATHS.graphql}`, op === 'mutation');
  const json = res.json<GraphqlAnswer>();
  if (json.data?.[field.name] !== undefined && json.data[field.name] !== null && !json.errors) {
    fieldOk.add(field.name);
    fieldReached.add(field.name);
  }
  const code = json.errors?.[0]?.extensions?.code;
  if (code && (Object.values(GRAPHQL_CODES) as string[]).includes(code)) fieldReached.add(field.name);
  return json;
}

async function withVersion(field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  await withCurrentVersions(variables);
  if (!field.args.some((a) => a.name === 'version')) return variables;
  const id = ['id', 'subscriptionId', 'subscriberId'].map((name) => variables[name]).find((v) => typeof v === 'string') as string | undefined;
  if (field.name === 'monetizationSettingsSave') {
    const [row] = await queryRows<{ v: number }>(t.db, sql`SELECT monetization_version AS v FROM sites WHERE site_internal_name = ${DEMO_SITES.viewlift}`);
    return { ...variables, version: row?.v ?? 1 };
  }
  const version = await versionOf(id);
  return version === undefined ? variables : { ...variables, version };
}

const variablesFor = (field: GraphQLField<unknown, unknown>) => fc.record(
  Object.fromEntries(field.args.map((a) => [a.name, graphqlValueFor(a.type, a.name, poolsFor(field.name))])),
).map((v) => Object.fromEntries(Object.entries(v).filter(([, value]) => value !== undefined)));

/** Every leaf of a GraphQL input type (lists at their first item, input objects two levels deep), with its scalar's name. */
function inputLeaves(type: GraphQLInputType, path: string[], depth = 0): { path: string[]; scalar: string }[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return inputLeaves(inner.ofType, [...path, '0'], depth);
  if (isInputObjectType(inner)) return depth > 2 ? [] : Object.values(inner.getFields()).flatMap((f) => inputLeaves(f.type, [...path, f.name], depth + 1));
  return isScalarType(inner) ? [{ path, scalar: inner.name }] : [];
}

describe('GraphQL', () => {
  it('documents and variables: never a 500, errors carry a message, refused mutations change nothing', async () => {
    // A shallow introspection (the full one is deeper than the depth limit allows).
    type Fields = { fields: { name: string; args: { name: string }[] }[] } | null;
    const shape = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: actor.headers, payload: { query: '{ __schema { queryType { fields { name args { name } } } mutationType { fields { name args { name } } } } }' } });
    const { queryType, mutationType } = shape.json<{ data: { __schema: { queryType: Fields; mutationType: Fields } } }>().data.__schema;
    const fields = [
      ...(queryType?.fields ?? []).map((field) => ({ op: 'query', field })),
      ...(mutationType?.fields ?? []).map((field) => ({ op: 'mutation', field })),
    ];
    expect(fields.length).toBeGreaterThan(5);
    const literal = fc.oneof(hostileString.map((s) => JSON.stringify(s)), fc.integer().map(String), fc.constantFrom('null', 'true', '[]', '{}', '"a"', 'FOO', '1.5', '$v'));
    const document = fc.oneof(
      fc.record({ which: fc.nat(), args: fc.array(literal, { maxLength: 4 }), sel: fc.constantFrom('', '{ __typename }', '{ id }', '{ nope }') }).map(({ which, args, sel }) => {
        const { op, field } = fields[which % fields.length]!;
        const list = field.args.map((a, i) => `${a.name}: ${args[i] ?? 'null'}`).join(', ');
        return `${op}($v: String) { ${field.name}${list ? `(${list})` : ''} ${sel} }`;
      }),
      hostileString,
      fc.nat({ max: 3000 }).map((n) => `{ ${'a { '.repeat(n)}b${' }'.repeat(n)} }`),
      fc.constantFrom('query { __schema { types { name } } }', 'fragment a on Query { ...a } { ...a }', '{ __typename @skip(if: "x") }', 'subscription { x }'),
    );
    await fc.assert(fc.asyncProperty(
      document, fc.option(fc.dictionary(fc.constantFrom('v', 'input', 'id', 'q'), hostileValue, { maxKeys: 3 })), fc.oneof(fc.constant(undefined), hostileValue),
      fc.boolean(), fc.boolean(),
      async (query, variables, operationName, viaGet, signedIn) => {
        const auth = signedIn ? actor.headers : {};
        if (viaGet) {
          const qs = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
          await check({ method: 'GET', url: `${API_PATHS.graphql}?${qs.toString()}`, headers: auth });
        } else {
          await check({ method: 'POST', url: API_PATHS.graphql, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ query, variables, operationName }) });
        }
      },
    ), { numRuns: runs(200), seed: SEED, endOnFailure: true });
  }, 180_000);

  it('every query and mutation with arguments of its types, then one at a boundary: never a 5xx, every resolver is reached', async () => {
    const ops = await graphqlOps();

    // Each field once, shaped as its types say, signed in with every area's write; then at random.
    for (const { op, field } of ops) {
      const [variables] = fc.sample(variablesFor(field), { numRuns: 1, seed: SEED });
      await send(op, field, await withVersion(field, variables!), 'actor', 0, false);
    }
    await fc.assert(fc.asyncProperty(
      fc.nat().chain((n) => {
        const { op, field } = ops[n % ops.length]!;
        return fc.record({ variables: variablesFor(field), who: WHO, pick: fc.nat(), viaGet: fc.boolean(), mutated: fc.boolean(), m: mutationArbitrary })
          .map((c) => ({ ...c, op, field }));
      }),
      async ({ op, field, variables, who, pick, viaGet, mutated, m }) => {
        const base = await withVersion(field, variables);
        const sent = mutated ? mutate(base, field.args.map((a) => [a.name]), { ...m, kind: m.kind === 'whole' ? 'set' : m.kind }).value as Record<string, unknown> : base;
        await send(op, field, sent, who, pick, viaGet);
      },
    ), { numRuns: runs(600), seed: SEED, endOnFailure: true });

    const names = ops.map(({ field }) => field.name);
    expect(names.filter((name) => !fieldReached.has(name) && !(name in UNREACHABLE_FIELDS))).toEqual([]);
  }, 300_000);

  it('issue 37: every money and date input of every operation at its bound and past it: never a 5xx, past the bound never accepted; the plan list and subscriber pages still answer', async () => {
    const ops = await graphqlOps();
    const walked: string[] = [];
    for (const { op, field } of ops) {
      for (const arg of field.args) {
        for (const { path, scalar } of inputLeaves(arg.type, [arg.name])) {
          const name = path[path.length - 1]!;
          const sibling = (key: string) => [...path.slice(0, -1), key];
          const cases: { value: unknown; over: boolean; also: (readonly [string[], unknown])[] }[] = [];
          if (DATE_FIELD.test(name) && scalar === 'String') {
            cases.push(...OUTSIDE_DATES.map((value) => ({ value, over: true, also: [] })), { value: LAST_DATE, over: false, also: [] });
          } else if (MONEY_FIELD.test(name) && scalar === 'Int') {
            cases.push({ value: MONEY_MINOR_MAX, over: false, also: [] }, { value: MONEY_MINOR_MAX + 1, over: true, also: [] });
          } else if (MONEY_FIELD.test(name) && scalar === 'String') {
            for (const bound of MONEY_BOUNDS) {
              const also: (readonly [string[], unknown])[] = [[sibling('currency'), bound.currency], ...(name === 'discountValue' ? [[sibling('discountType'), 'fixed'] as const] : [])];
              cases.push({ value: bound.max, over: false, also }, { value: bound.over, over: true, also });
            }
          } else continue;
          walked.push(`${field.name} ${path.join('.')}`);
          for (const { value, over, also } of cases) {
            const [sampled] = fc.sample(variablesFor(field), { numRuns: 1, seed: SEED });
            let variables = await withVersion(field, sampled!);
            for (const [at, v] of [...also, [path, value] as const]) variables = withPath(variables, at, v) as Record<string, unknown>;
            const json = await send(op, field, variables, 'actor', 0, false);
            if (over) expect(json.data?.[field.name] ?? null, `${field.name} ${path.join('.')} = ${JSON.stringify(value)} was accepted`).toBeNull();
          }
        }
      }
    }
    expect(walked).toEqual(expect.arrayContaining([
      'planCreate input.prices.0.amount', 'planUpdate input.prices.0.amount', 'offerCreate input.discountValue', 'offerUpdate input.discountValue',
      'paymentRefund amount', 'offerCreate input.startsAt', 'offerCreate input.endsAt', 'couponCreate input.expiresAt', 'couponBatchGenerate input.expiresAt',
    ]));

    // Plans at the bound in each kind of currency, then every reader of amounts: the plan list, the subscriber pages, a plan change now.
    const planIds: string[] = [];
    for (const bound of MONEY_BOUNDS) {
      const res = await check({
        method: 'POST', url: API_PATHS.graphql, headers: { ...actor.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({
          query: 'mutation($input: PlanInput!) { planCreate(input: $input) { id prices { amount } } }',
          variables: { input: { name: `Fuzz bound ${bound.currency}`, description: '', prices: [{ currency: bound.currency, amount: bound.max }], billingPeriod: 'month', trialDays: 0, deviceLimit: 1, status: 'active' } },
        }),
      }, `POST ${API_PATHS.graphql}`);
      const created = res.json<{ data: { planCreate: { id: string; prices: { amount: number }[] } } }>().data.planCreate;
      expect(created.prices).toEqual([{ amount: MONEY_MINOR_MAX }]);
      planIds.push(created.id);
    }
    const read = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await check({ method: 'POST', url: API_PATHS.graphql, headers: { ...actor.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ query, variables }) }, `POST ${API_PATHS.graphql}`, false);
      const json = res.json<GraphqlAnswer>();
      expect(json.errors, `${query}: ${res.body.slice(0, 300)}`).toBeUndefined();
      return json.data!;
    };
    const list = await read('{ plans(limit: 100) { items { id prices { currency amount } } } }');
    expect((list.plans as { items: { id: string }[] }).items.map((p) => p.id)).toEqual(expect.arrayContaining(planIds));
    for (const id of pool.subscribers!.slice(0, 8)) {
      await read('query($id: ID!) { subscriber(id: $id) { planOptions { id prices { currency amount } } subscriptions { amount nextPaymentAdjustment } payments { amount refundedAmount } } }', { id });
    }
    for (const id of pool.subscriptions!.slice(0, 4)) {
      const version = await versionOf(id);
      await check({
        method: 'POST', url: API_PATHS.graphql, headers: { ...actor.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ query: 'mutation($id: ID!, $planId: ID!, $version: Int!) { subscriptionChangePlan(subscriptionId: $id, planId: $planId, when: "NOW", reason: "Fuzz bound", version: $version) { subscriptions { amount } } }', variables: { id, planId: planIds[0], version } }),
      }, `POST ${API_PATHS.graphql}`);
    }
  }, 180_000);
});

/** GraphQL fields whose resolver no generated request reaches, with the reason. */
const UNREACHABLE_FIELDS: Record<string, string> = {};
