/**
 * Issue 38: the audit entry of a Customer Support search whose count reached SEARCH_TOTAL_CAP says
 * so. The search answers `total: 10,000, totalIsCapped: true`; the audit row keeps the count and the
 * flag (`resultCountIsCapped`), and Admin › Audit shows it in words ("More than 10,000 matches"),
 * never 10,000 as if it were the real count. A search under the cap records its count and no flag.
 * (A real capped search needs more than 10,000 matching subscribers: the store's search is made to
 * answer the capped count, everything after it is the running server's.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '../common/audit-actions';
import { API_PATHS } from '../common/constants';
import { SEARCH_TOTAL_CAP, SEARCH_TOTAL_CAPPED_TEXT, SUPPORT_AUDIT_ACTIONS } from '../common/support';
import { DEMO_SITES } from './db/demo-accounts';
import { searchSubscribers, type SupportDeps } from './domain/support';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.login('admin@demo.test');
});
afterAll(async () => {
  await t?.close();
});

async function searchesBy(username: string): Promise<AuditLogEntry[]> {
  const res = await t.inject({
    method: 'GET', url: `${API_PATHS.admin}/audit?action=${encodeURIComponent(SUPPORT_AUDIT_ACTIONS.search)}&who=${encodeURIComponent(username)}`, headers: admin.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: AuditLogEntry[] }>().items;
}

describe('the audit of a capped Customer Support search (issue 38)', () => {
  it('records "more than 10,000" for a capped count, and the plain count otherwise', async () => {
    const agent = await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Customer Support': 'read' }, prefix: 'cs-capped' });
    const siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
    const real = t.app.services.support;
    const capped: SupportDeps = {
      ...real,
      store: {
        ...real.store,
        search: async (...args) => ({ ...(await real.store.search(...args)), total: SEARCH_TOTAL_CAP, totalIsCapped: true }),
      },
    };
    const caller = { userId: agent.id, siteId, roles: { 'Customer Support': 'read' } };

    const page = await searchSubscribers(capped, caller, { query: '' });
    expect(page).toMatchObject({ total: SEARCH_TOTAL_CAP, totalIsCapped: true });
    let rows = await searchesBy(agent.username);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toMatchObject({ resultCount: SEARCH_TOTAL_CAP, resultCountIsCapped: true });
    expect(SEARCH_TOTAL_CAPPED_TEXT).toBe('More than 10,000 matches');
    expect(rows[0]!.note).toBe('More than 10,000 matches');

    const uncapped = await searchSubscribers(real, caller, { query: '' });
    expect(uncapped.totalIsCapped).toBe(false);
    rows = await searchesBy(agent.username);
    expect(rows).toHaveLength(2);
    const plain = rows.find((row) => row.detail.resultCountIsCapped === undefined);
    expect(plain?.detail).toMatchObject({ resultCount: uncapped.total });
    expect(plain?.note).toBe('');
  });
});
