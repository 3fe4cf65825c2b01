/**
 * The management GraphQL endpoint's gate (issue 25, server/graphql/gate.ts): credentials are checked
 * and sizes capped before Mercurius parses anything. A document too large for anyone is a 413; a
 * caller without valid credentials may send only a small document of the social sign-in mutations
 * (googleLogin / microsoftLogin), everything else is a 401; a signed-in caller's oversize document
 * is a 413. Answers are the GraphQL error shape with our message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { OWN_MESSAGES } from '../common/messages';
import { GRAPHQL_LIMITS } from './graphql/gate';
import { createTestApp, type Session, type TestApp } from './test/kit';

const GQL = API_PATHS.graphql;
const SOCIAL = 'mutation GoogleLogin($token: String!, $deviceId: String) { googleLogin(token: $token, deviceId: $deviceId) { success message } }';

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.login('admin@demo.test');
});

afterAll(async () => {
  await t?.close();
});

type Errors = { errors?: { message: string; extensions?: { code?: string } }[] };
const post = (headers: Record<string, string>, body: string) =>
  t.inject({ method: 'POST', url: GQL, headers: { ...headers, 'content-type': 'application/json' }, payload: body });

describe('GraphQL gate (issue 25)', () => {
  it('the caps: 16 KB of query text and 64 KB of body signed in; 2 KB and 16 KB without credentials', () => {
    expect(GRAPHQL_LIMITS).toEqual({ maxBodyBytes: 65_536, maxQueryChars: 16_384, anonymousMaxBodyBytes: 16_384, anonymousMaxQueryChars: 2_048 });
  });

  it('a 1 MB document is a 413 with our message, for anyone, before it is parsed', async () => {
    // Under Fastify's default 1 MiB body limit, as in the report. Unbalanced braces: had it been
    // parsed, the answer would be a 400 syntax error.
    const huge = JSON.stringify({ query: `{ ${'a { '.repeat(249_000)}` });
    expect(huge.length).toBeGreaterThan(990_000);
    expect(huge.length).toBeLessThan(1_048_576);
    for (const headers of [{}, admin.headers]) {
      const started = performance.now();
      const res = await post(headers, huge);
      expect(res.statusCode).toBe(413);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json<Errors>().errors?.[0]).toEqual({ message: OWN_MESSAGES.graphqlTooLarge, extensions: { code: 'PAYLOAD_TOO_LARGE' } });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('without credentials, a document other than the social sign-in is a 401 before it is parsed', async () => {
    for (const query of ['{ __typename }', 'query serviceGet { serviceGet(site: "x") { id } }', `${SOCIAL} query other { __typename }`,
      'mutation { googleLogin(token: "t") { success } networkPublish(site: "a", network: "b") { success } }', '{ a', 'fragment f on Mutation { googleLogin(token: "t") { success } } mutation { ...f }']) {
      const res = await post({}, JSON.stringify({ query }));
      expect(res.statusCode, query).toBe(401);
      expect(res.json<Errors>().errors?.[0], query).toEqual({ message: OWN_MESSAGES.unauthorized, extensions: { code: 'UNAUTHENTICATED' } });
    }
    const get = await t.inject({ method: 'GET', url: `${GQL}?query=${encodeURIComponent('{ __typename }')}` });
    expect(get.statusCode).toBe(401);
    // A wrong token is no credential: the same 401.
    const wrong = await post({ ...admin.headers, authorization: 'Bearer nope' }, JSON.stringify({ query: '{ __typename }' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json<Errors>().errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('without credentials, a social sign-in document over 2 KB or a body over 16 KB is a 401', async () => {
    const padded = `${SOCIAL}${' '.repeat(GRAPHQL_LIMITS.anonymousMaxQueryChars)}`;
    const long = await post({}, JSON.stringify({ query: padded, variables: { token: 'x' } }));
    expect(long.statusCode).toBe(401);
    const big = await post({}, JSON.stringify({ query: SOCIAL, variables: { token: 'x'.repeat(GRAPHQL_LIMITS.anonymousMaxBodyBytes) } }));
    expect(big.statusCode).toBe(401);
    expect(big.json<Errors>().errors?.[0]?.message).toBe(OWN_MESSAGES.unauthorized);
  });

  it('the social sign-in still works without credentials (its own refusal is data, not a 401)', async () => {
    for (const token of ['not-a-jwt', 'x'.repeat(9000)]) {
      const res = await post({}, JSON.stringify({ operationName: 'GoogleLogin', query: SOCIAL, variables: { token, deviceId: null } }));
      expect(res.statusCode).toBe(200);
      expect(res.json<{ data: { googleLogin: { success: boolean } } }>().data.googleLogin.success).toBe(false);
    }
    const microsoft = await post({}, JSON.stringify({ query: 'mutation { microsoftLogin(token: "a.b.c") { success } }' }));
    expect(microsoft.statusCode).toBe(200);
    expect(microsoft.json<{ data: { microsoftLogin: { success: boolean } } }>().data.microsoftLogin.success).toBe(false);
  });

  it('signed in: a query over 16 KB or a body over 64 KB is a 413; normal operations are unaffected', async () => {
    const longQuery = `{ __typename ${' '.repeat(GRAPHQL_LIMITS.maxQueryChars)}}`;
    const long = await post(admin.headers, JSON.stringify({ query: longQuery }));
    expect(long.statusCode).toBe(413);
    expect(long.json<Errors>().errors?.[0]).toEqual({ message: OWN_MESSAGES.graphqlTooLarge, extensions: { code: 'PAYLOAD_TOO_LARGE' } });
    const bigBody = await post(admin.headers, JSON.stringify({ query: '{ __typename }', variables: { v: 'x'.repeat(GRAPHQL_LIMITS.maxBodyBytes) } }));
    expect(bigBody.statusCode).toBe(413);
    const ok = await post(admin.headers, JSON.stringify({ query: `{ __typename ${' '.repeat(8_000)}}`, variables: { v: 'x'.repeat(30_000) } }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
