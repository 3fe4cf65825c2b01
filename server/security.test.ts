/**
 * Issue 19, Medium: hostile text is a 400 naming the parameter (never a 500, never SQL), GraphQL
 * client errors are 4xx, API answers are not cached, the CSP allows exactly this app (and the
 * inline configuration script by its hash), HSTS in production, CSP reports are logged.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { buildApp } from './app';
import { runtimeConfigScript } from './http/spa';
import { CSP_REPORT_PATH, contentSecurityPolicy } from './http/security-headers';
import { createTestApp, outboxHeaders, openTestDb, testConfig, type Session, type TestApp } from './test/kit';

const GQL = API_PATHS.graphql;
let t: TestApp;
let admin: Session;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'cms-security-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
  t = await createTestApp({ demo: true, staticDir: dist });
  admin = await t.login('admin@demo.test');
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('hostile text', () => {
  const HOSTILE = ['a\u0000b', '\u0007', 'x\u001by', '\u007f', '\ud800', 'a\udc00b', 'z\ud83d'];

  it('a control character or lone surrogate in a REST body is a 400 naming the field', async () => {
    for (const bad of HOSTILE) {
      for (const [url, body, field] of [
        [API_PATHS.login, { username: bad, password: 'x', deviceId: 'd' }, 'body.username'],
        [API_PATHS.login, { username: 'admin@demo.test', password: bad, deviceId: 'd' }, 'body.password'],
        [API_PATHS.forgotPassword, { username: bad }, 'body.username'],
      ] as const) {
        const res = await t.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(res.statusCode, `${url} ${JSON.stringify(bad)}`).toBe(400);
        expect(res.json()).toEqual({ success: false, message: `${field} must not contain control characters or invalid Unicode` });
      }
    }
  });

  it('in a query string or a path parameter too', async () => {
    const q = await t.inject({ method: 'GET', url: `${API_PATHS.content}?q=%00`, headers: admin.headers });
    expect(q.statusCode).toBe(400);
    expect(q.json().message).toBe('querystring.q must not contain control characters or invalid Unicode');
    const to = await t.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?to=%00`, headers: outboxHeaders(t.config) });
    expect(to.statusCode).toBe(400);
    const p = await t.inject({ method: 'GET', url: `${API_PATHS.appcmsNetworkData}/viewlift/brand/%00`, headers: admin.headers });
    expect(p.statusCode).toBe(400);
    expect(p.json().message).toBe('params.networkIdentifier must not contain control characters or invalid Unicode');
  });

  it('deep in a body, the 400 names the path of the first bad string (array indexes included), or the object of a bad key', async () => {
    const events = [0, 1, 2, 3].map((i) => ({ type: 'heartbeat', eventId: `e${i}`, at: '2026-01-01T00:00:00Z', isp: 'Comcast' }));
    for (const [payload, path] of [
      [{ events: events.map((e, i) => (i === 3 ? { ...e, isp: 'x\u0000' } : e)) }, 'body.events.3.isp'],
      [{ events: events.map((e, i) => (i === 2 ? { ...e, ['k\u0007']: 1 } : e)) }, 'body.events.2'],
      [{ ['top\u0000']: 1 }, 'body'],
      [{ a: { b: [[1, 'ok'], [2, '\ud800']] } }, 'body.a.b.1.1'],
    ] as const) {
      const res = await t.inject({ method: 'POST', url: API_PATHS.forgotPassword, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toEqual({ success: false, message: `${path} must not contain control characters or invalid Unicode` });
    }
  });

  it('tab, line feed and carriage return and well-formed emoji still pass', async () => {
    const res = await t.post(API_PATHS.forgotPassword, { username: 'nobody\t\r\n😀@example.test' });
    expect(res.statusCode).toBe(200);
  });

  it('in GraphQL variables, arguments and keys it is a 400 with a GraphQL error', async () => {
    const query = 'query($q: String) { __typename }';
    for (const payload of [
      { query, variables: { q: 'a\u0000' } },
      { query, variables: { ['k\u0000']: 'x' } },
      { query: '{ __typename(x: "\u0000") }' },
    ]) {
      const res = await t.inject({ method: 'POST', url: GQL, headers: admin.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].message).toMatch(/must not contain control characters or invalid Unicode/);
    }
    const get = await t.inject({ method: 'GET', url: `${GQL}?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{"q":"\\u0000"}')}`, headers: admin.headers });
    expect(get.statusCode).toBe(400);
  });
});

describe('GraphQL client errors', () => {
  it('only a string query: a JSON tree, a number, null or an array is a 400', async () => {
    for (const query of [{}, 1, [], null, { kind: 'Document', definitions: [] }, true]) {
      const res = await t.inject({ method: 'POST', url: GQL, headers: admin.headers, payload: { query } });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].message).toMatch(/query/);
    }
    const deep = `{"query":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const res = await t.inject({ method: 'POST', url: GQL, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: deep });
    expect(res.statusCode).toBe(400);
  });

  it('a wrong Content-Type is a 415 and malformed JSON a 400, not a 500', async () => {
    for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
      const res = await t.inject({ method: 'POST', url: GQL, headers: { ...admin.headers, 'content-type': type }, payload: 'query=x' });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().errors[0].message).toMatch(/Unsupported Media Type/i);
    }
    const bad = await t.inject({ method: 'POST', url: GQL, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: '{"query":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe('The request is not valid. The body is not valid JSON.');
  });
});

describe('headers', () => {
  it('authenticated API answers are never stored', async () => {
    for (const res of [
      await t.get(API_PATHS.loginInfo, admin.headers),
      await t.get(`${API_PATHS.content}?limit=1`, admin.headers),
      await t.inject({ method: 'POST', url: GQL, headers: admin.headers, payload: { query: '{ __typename }' } }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('a strict CSP allows the inline configuration script by its hash, and nothing else inline', async () => {
    const page = await t.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    const inline = /<script>([^<]*)<\/script>/.exec(page.body)?.[1];
    expect(inline).toBe(runtimeConfigScript(t.config.runtime));
    const hash = createHash('sha256').update(inline!).digest('base64');
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['script-src']).toBe(`'self' 'sha256-${hash}'`);
    expect(directives['object-src']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(directives['connect-src']).toBe("'self'");
    expect(directives['media-src']).toBe("'self' blob:");
    expect(directives['worker-src']).toBe("'self' blob:");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['report-uri']).toBe(CSP_REPORT_PATH);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('connect-src adds Firebase and its emulator only when configured', () => {
    const firebase = { apiKey: 'k', authDomain: 'demo.firebaseapp.com', projectId: 'demo', microsoftTenant: '', emulatorUrl: 'http://127.0.0.1:9099' };
    const csp = contentSecurityPolicy({ ...t.config.runtime, firebase });
    expect(csp).toMatch(/connect-src 'self' https:\/\/identitytoolkit\.googleapis\.com https:\/\/securetoken\.googleapis\.com http:\/\/127\.0\.0\.1:9099;/);
    expect(csp).toMatch(/frame-src https:\/\/demo\.firebaseapp\.com http:\/\/127\.0\.0\.1:9099;/);
  });

  it('HSTS in production', async () => {
    const db = await openTestDb();
    const app = await buildApp({ config: testConfig({ production: true, nodeEnv: 'production', seed: false }), db });
    const res = await app.inject({ method: 'GET', url: API_PATHS.loginInfo });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await app.close();
    await db.close();
  });
});

describe('CSP report endpoint', () => {
  it('logs each violation (report-uri and Reporting API forms) and answers 204; junk is a 4xx', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const db = await openTestDb();
    const app = await buildApp({ config: testConfig({ seed: false }), db, logger: { level: 'warn', stream } });
    const legacy = await app.inject({
      method: 'POST', url: CSP_REPORT_PATH, headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'document-uri': 'http://localhost/content', 'effective-directive': 'script-src-elem', 'blocked-uri': 'inline', 'line-number': 3 } }),
    });
    expect(legacy.statusCode).toBe(204);
    const modern = await app.inject({
      method: 'POST', url: CSP_REPORT_PATH, headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([{ type: 'csp-violation', body: { documentURL: 'http://localhost/x', effectiveDirective: 'connect-src', blockedURL: 'https://evil.example' } }]),
    });
    expect(modern.statusCode).toBe(204);
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; cspViolation?: Record<string, unknown> }).filter((l) => l.msg === 'Content-Security-Policy violation');
    expect(logged.map((l) => l.cspViolation)).toEqual([
      expect.objectContaining({ directive: 'script-src-elem', blockedURL: 'inline', line: 3 }),
      expect.objectContaining({ directive: 'connect-src', blockedURL: 'https://evil.example' }),
    ]);
    const junk = await app.inject({ method: 'POST', url: CSP_REPORT_PATH, headers: { 'content-type': 'application/csp-report' }, payload: '{' });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().success).toBe(false);
    await app.close();
    await db.close();
  });
});

describe('GraphQL syntax trees', () => {
  it('a query that is JSON text (a syntax tree, a number, a string) is refused, never executed', async () => {
    const tree = JSON.stringify({ kind: 'Document', definitions: [{ kind: 'OperationDefinition', operation: 'query', selectionSet: { kind: 'SelectionSet', selections: [{ kind: 'Field', name: { kind: 'Name', value: '__typename' } }] } }] });
    for (const query of [tree, '1', '-1', '"a"', '{}', '[]', 'null']) {
      const res = await t.inject({ method: 'POST', url: GQL, headers: admin.headers, payload: { query } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[0].message).toBe('query must be a GraphQL document');
    }
    const get = await t.inject({ method: 'GET', url: `${GQL}?query=${encodeURIComponent(tree)}`, headers: admin.headers });
    expect(get.statusCode).toBe(400);
  });

  it('variables over GET that are JSON but not an object (a string, a number, true, null) answer 400, not 500 (issue 25, found by the fuzz)', async () => {
    const query = '{ __typename }';
    for (const variables of ['" "', '1', 'true', 'null', '"x"']) {
      const res = await t.inject({ method: 'GET', url: `${GQL}?${new URLSearchParams({ query, variables }).toString()}`, headers: admin.headers });
      expect(res.statusCode, variables).toBe(400);
      expect(res.json(), variables).toEqual({ data: null, errors: [{ message: 'variables must be a JSON object', extensions: { code: 'BAD_USER_INPUT' } }] });
    }
    const ok = await t.inject({ method: 'GET', url: `${GQL}?${new URLSearchParams({ query, variables: '{}' }).toString()}`, headers: admin.headers });
    expect(ok.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
