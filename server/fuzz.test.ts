/**
 * Issue 19: property-based hostile input (fast-check) at every route the app registers: bodies,
 * query strings, path parameters, headers and GraphQL documents. Never a 500; every refusal is JSON
 * with a message; a refused request leaves the data unchanged. Bounded: 1,400 cases in all (FUZZ_SEED picks another seed).
 *
 * "Data" is every table except the security bookkeeping a refused request is meant to write
 * (sessions' last-seen, OTP attempt counters, reset tokens, rate-limit buckets, the audit log, the
 * SMS outbox).
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import * as schema from './db/schema';
import { queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, type Session, type TestApp } from './test-support';

const BOOKKEEPING = new Set(['sessions', 'otp_codes', 'reset_tokens', 'rate_limits', 'audit_events', 'sms_outbox']);
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Route { method: string; url: string }

/** Every method + path from Fastify's route tree (printRoutes with full segments). */
function routesOf(tree: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2]!);
    for (const method of match[3]!.split(', ')) routes.push({ method, url: path });
  }
  return routes;
}

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
let admin: Session;
let routes: Route[];
let fingerprintSql: ReturnType<typeof sql.raw>;
let requests = 0;

async function fingerprint(): Promise<string> {
  const [row] = await queryRows<{ f: string }>(t.db, fingerprintSql);
  return row!.f;
}

let last = '';
/** Sends one request and checks the answer; refused writes must leave the data as it was. */
async function check(options: InjectOptions): Promise<void> {
  requests++;
  const res = await t.inject(options);
  const label = `${options.method} ${String(options.url).slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (String(options.url).split('?')[0] === API_PATHS.verify) {
    // Spec §7.4: the session check answers only `valid` (a proxy's auth_request reads the status).
    if (res.statusCode === 401 && options.method !== 'HEAD') expect(res.body, label).toBe('{"valid":false}');
  } else if (res.statusCode >= 400 && options.method !== 'HEAD') {
    expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
    expect(messageOf(res), label).toBeDefined();
  } else if (res.body.length > 0 && options.method !== 'HEAD') {
    expect(() => JSON.parse(res.body), label).not.toThrow();
  }
  if (MUTATING.has(String(options.method))) {
    const now = await fingerprint();
    if (res.statusCode >= 400) expect(now, `data changed by a refused request: ${label}`).toBe(last);
    last = now;
  }
}

function fill(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z]+/g, () => pct(params[i++] ?? 'x') || 'x');
}

beforeAll(async () => {
  t = await createTestApp();
  await seedSmallWorld(t.db);
  admin = await t.login('admin@demo.test');
  routes = routesOf(t.app.printRoutes({ commonPrefix: false }));
  const tables = Object.values(schema)
    .filter((value) => typeof value === 'object' && value !== null && Symbol.for('drizzle:IsDrizzleTable') in value)
    .map((table) => getTableConfig(table as PgTable).name)
    .filter((name) => !BOOKKEEPING.has(name));
  fingerprintSql = sql.raw(`SELECT concat_ws(',', ${tables.map((name) => `(SELECT count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) FROM "${name}" t)`).join(', ')}) AS f`);
  last = await fingerprint();
}, 120_000);
afterAll(async () => {
  await t.close();
  console.log(`fuzz: ${requests} requests over ${routes.length} method+path pairs`);
});

describe('hostile input at every route', () => {
  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: 'POST', url: API_PATHS.login });
    expect(routes).toContainEqual({ method: 'POST', url: API_PATHS.graphql });
  });

  it('bodies, query strings, path parameters and headers: never a 500, refusals are JSON with a message, refused writes change nothing', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 10_000 }), fc.array(hostileString, { minLength: 3, maxLength: 3 }), queryString,
      fc.oneof(body.map((b) => ({ json: b })), rawBody.map((r) => ({ raw: r }))), headers, fc.boolean(),
      async (which, params, query, payload, extra, signedIn) => {
        const route = routes[which % routes.length]!;
        // Signing the shared admin out would blind the rest of the run to authenticated code.
        const auth = signedIn && route.url !== API_PATHS.logout ? admin.headers : {};
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
    ), { numRuns: 1000, seed: Number(process.env.FUZZ_SEED ?? 19), endOnFailure: true });
  }, 120_000);

  it('GraphQL documents and variables: never a 500, errors carry a message, refused mutations change nothing', async () => {
    // A shallow introspection (the full one is deeper than the depth limit allows).
    type Fields = { fields: { name: string; args: { name: string }[] }[] } | null;
    const shape = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: admin.headers, payload: { query: '{ __schema { queryType { fields { name args { name } } } mutationType { fields { name args { name } } } } }' } });
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
        const auth = signedIn ? admin.headers : {};
        if (viaGet) {
          const qs = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
          await check({ method: 'GET', url: `${API_PATHS.graphql}?${qs.toString()}`, headers: auth });
        } else {
          await check({ method: 'POST', url: API_PATHS.graphql, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ query, variables, operationName }) });
        }
      },
    ), { numRuns: 400, seed: Number(process.env.FUZZ_SEED ?? 19), endOnFailure: true });
  }, 120_000);
});
