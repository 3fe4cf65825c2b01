/**
 * Customer Support over the management GraphQL API (issue 16): search (prefixes, masking, paging,
 * status filter, site isolation), the subscriber page, every action refused without write, reasons
 * and versions checked, complimentary days exact, a cancelled-now subscription gone from today's
 * active count in the subscription rollups Analytics reads, and the audit trail.
 * Each test works on subscribers it creates (unique e-mails), so the shared PostgreSQL run stays clean.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { OWN_MESSAGES } from '../common/messages';
import { SUBSCRIPTION_STATES, SUBSCRIPTION_STATE_RULES, type SubscriptionState } from '../common/figures';
import { REPORTS_PATH, type ReportAnswer } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import { SEARCH_TOTAL_CAP, SUPPORT_AUDIT_ACTIONS, SUPPORT_MESSAGES, type SubscriberDetail, type SubscriberSearchPage } from '../common/support';
import { DEMO_SITES } from './db/demo-accounts';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { createSubscriberRepository } from './db/support-repository';
import {
  auditEvents, contentItems, dailySubscriptionRollups, networks, payments, plans, playbackSessions, staffUsers,
  subscriberDevices, subscribers, subscriptions, supportNotes,
} from './db/schema';
import { SUPPORT_SEARCH_BUDGET, maskEmail, maskPhone } from './domain/support';
import { createTestApp, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T> {
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; param?: string } }[];
}

const DETAIL = `
  profile { id name email phone country status networkName version }
  subscriptions { id planName status currentPeriodEnd cancelAtPeriodEnd cancelledAt endedAt version }
  payments { id status amount currency }
  devices { id name lastSeenAt signedOutAt }
  playback { id contentTitle startupMs rebufferCount rebufferSeconds errorCode }
  notes { id body authorName }
`;
const SEARCH = `query subscriberSearch($query: String!, $status: String, $state: String, $plan: String, $network: String, $page: Int, $pageSize: Int) {
  subscriberSearch(query: $query, status: $status, state: $state, plan: $plan, network: $network, page: $page, pageSize: $pageSize) {
    total totalIsCapped page pageSize items { id name email phone country status createdAt } plans { value label } networks { value label }
  }
}`;
const SUBSCRIBER = `query subscriber($id: ID!) { subscriber(id: $id) { ${DETAIL} } }`;
const CANCEL = `mutation subscriptionCancel($subscriptionId: ID!, $mode: String!, $reason: String!, $version: Int!) {
  subscriptionCancel(subscriptionId: $subscriptionId, mode: $mode, reason: $reason, version: $version) { ${DETAIL} }
}`;
const GRANT = `mutation subscriptionGrantDays($subscriptionId: ID!, $days: Int!, $reason: String!, $version: Int!) {
  subscriptionGrantDays(subscriptionId: $subscriptionId, days: $days, reason: $reason, version: $version) { ${DETAIL} }
}`;
const SIGN_OUT = `mutation subscriberSignOutDevices($subscriberId: ID!, $deviceId: ID, $reason: String!, $version: Int!) {
  subscriberSignOutDevices(subscriberId: $subscriberId, deviceId: $deviceId, reason: $reason, version: $version) { ${DETAIL} }
}`;
const ADD_NOTE = `mutation subscriberAddNote($subscriberId: ID!, $body: String!) {
  subscriberAddNote(subscriberId: $subscriberId, body: $body) { ${DETAIL} }
}`;
const REVEAL = `mutation subscriberRevealContact($subscriberId: ID!, $reason: String!) {
  subscriberRevealContact(subscriberId: $subscriberId, reason: $reason) { email phone }
}`;

const DAY_MS = 86_400_000;

let t: TestApp;
let support: Session;
let reader: Session;
let contentOnly: Session;
let northwindSupport: Session;

async function graphql<T>(session: Session | null, query: string, variables: Record<string, unknown>) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session?.headers ?? {}, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<GraphqlBody<T>>() };
}

interface Fixture {
  siteId: string;
  networkId: string;
  planId: string;
  subscriberId: string;
  email: string;
  subscriptionId: string;
  deviceIds: string[];
}

/** One subscriber of `siteName` with a live monthly subscription, two payments, two devices, playback and a note. */
async function createSubscriber(siteName: string, options: { email?: string; name?: string; phone?: string; status?: string } = {}): Promise<Fixture> {
  const site = await t.siteByName(siteName);
  const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
  if (!network) throw new Error('no default network');
  const tag = randomUUID().slice(0, 8);
  const [plan] = await t.db.insert(plans).values({
    siteId: site.id, name: `Monthly ${tag}`, prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active',
  }).returning();
  const email = options.email ?? `viewer-${tag}@example.com`;
  const now = Date.now();
  const [subscriber] = await t.db.insert(subscribers).values({
    siteId: site.id, networkId: network.id, email, name: options.name ?? `Viewer ${tag}`, phone: options.phone ?? '+1 (555) 010-4321',
    country: 'US', status: options.status ?? 'active', createdAt: new Date(now - 40 * DAY_MS),
  }).returning();
  const [subscription] = await t.db.insert(subscriptions).values({
    siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, planId: plan!.id, status: 'active',
    startedAt: new Date(now - 35 * DAY_MS), currentPeriodStart: new Date(now - 5 * DAY_MS),
    currentPeriodEnd: new Date(Date.UTC(2031, 2, 30, 1, 30)), amount: 999, currency: 'USD',
  }).returning();
  await t.db.insert(payments).values([
    { siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: plan!.id, amount: 999, currency: 'USD', status: 'succeeded', method: 'card', at: new Date(now - 35 * DAY_MS) },
    { siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: plan!.id, amount: 999, currency: 'USD', status: 'failed', method: 'card', at: new Date(now - 5 * DAY_MS) },
  ]);
  const devices = await t.db.insert(subscriberDevices).values([
    { siteId: site.id, subscriberId: subscriber!.id, deviceType: 'roku', os: 'Roku OS 12', appVersion: '3.4.1', name: 'Living room Roku' },
    { siteId: site.id, subscriberId: subscriber!.id, deviceType: 'ios', os: 'iOS 17.4', appVersion: '5.2.3', name: 'iPhone' },
  ]).returning();
  const [content] = await t.db.insert(contentItems).values({
    siteId: site.id, kind: 'video', title: `The Long Night ${tag}`, titleSearch: `the long night ${tag}`, genre: 'drama', durationSeconds: 3600, status: 'published',
  }).returning();
  await t.db.insert(playbackSessions).values({
    id: randomUUID(), siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, contentId: content!.id, deviceId: devices[0]!.id,
    deviceType: 'roku', country: 'US', isp: 'Comcast', cdn: 'akamai', startedAt: new Date(now - DAY_MS), lastEventAt: new Date(now - DAY_MS + 60_000),
    watchedSeconds: 1200, startupMs: 4200, rebufferCount: 7, rebufferSeconds: 95, avgBitrateKbps: 2400, errorCode: 'NET-408',
  });
  await t.db.insert(supportNotes).values({ siteId: site.id, subscriberId: subscriber!.id, body: 'Asked about 4K on Roku.' });
  return {
    siteId: site.id, networkId: network.id, planId: plan!.id, subscriberId: subscriber!.id, email,
    subscriptionId: subscription!.id, deviceIds: devices.map((d) => d.id),
  };
}

const search = (session: Session, variables: Record<string, unknown>) =>
  graphql<{ subscriberSearch: SubscriberSearchPage }>(session, SEARCH, variables);
const detail = async (session: Session, id: string) => (await graphql<{ subscriber: SubscriberDetail }>(session, SUBSCRIBER, { id })).body.data!.subscriber;
const auditOf = (action: string, subscriberId: string) => t.db.select().from(auditEvents)
  .where(and(eq(auditEvents.action, action), sql`${auditEvents.detail}->>'subscriberId' = ${subscriberId}`))
  .orderBy(desc(auditEvents.at));

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const northwindAgent = await t.createUser({ site: DEMO_SITES.northwind, roles: { 'Customer Support': 'write' }, prefix: 'nw-support' });
  [support, reader, contentOnly, northwindSupport] = await Promise.all([
    t.login('support@demo.test'),
    t.login('support-reader@demo.test'),
    t.login('content@demo.test'),
    t.login(northwindAgent.username, northwindAgent.password),
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('masking', () => {
  it('hides most of the e-mail and all but the last four digits of the phone', () => {
    expect(maskEmail('maria.lopez@example.com')).toBe('ma•••@example.com');
    expect(maskEmail('jo@example.com')).toBe('j•••@example.com');
    expect(maskPhone('+1 (555) 010-4321')).toBe('•••• 4321');
    expect(maskPhone('')).toBe('');
  });
});

describe('subscriberSearch', () => {
  it('finds by the whole e-mail or its whole local part, case-insensitively, and masks e-mail and phone in the list', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    for (const query of [f.email.toUpperCase(), f.email.slice(0, f.email.indexOf('@')).toUpperCase()]) {
      const { status, body } = await search(support, { query });
      expect(status).toBe(200);
      expect(body.data!.subscriberSearch.items.map((i) => i.id)).toEqual([f.subscriberId]);
      expect(body.data!.subscriberSearch.items[0]).toMatchObject({ email: maskEmail(f.email), phone: '•••• 4321', status: 'active' });
      expect(JSON.stringify(body)).not.toContain(f.email);
    }
  });

  it('finds by a name prefix, by the whole phone number and by an id prefix', async () => {
    const tag = randomUUID().slice(0, 6);
    const f = await createSubscriber(DEMO_SITES.viewlift, { name: `Zelda${tag} Quist`, phone: `+44 20 7${tag.replace(/\D/g, '').padEnd(3, '7').slice(0, 3)} 99${tag.length}1` });
    const byName = await search(support, { query: `zelda${tag}` });
    expect(byName.body.data!.subscriberSearch.items.map((i) => i.id)).toEqual([f.subscriberId]);
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, f.subscriberId));
    const digits = row!.phone.replace(/\D/g, '');
    const byPhone = await search(support, { query: `+${digits.slice(0, 2)} ${digits.slice(2)}` });
    expect(byPhone.body.data!.subscriberSearch.items.map((i) => i.id)).toContain(f.subscriberId);
    const byId = await search(support, { query: f.subscriberId.slice(0, 13).toUpperCase() });
    expect(byId.body.data!.subscriberSearch.items.map((i) => i.id)).toEqual([f.subscriberId]);
  });

  it('pages through the matches with a total and filters by status', async () => {
    // One word of letters: the five names share it and no other subscriber has it.
    const prefix = `pager${randomUUID().replace(/[^a-f]/g, 'x').slice(0, 6)}`;
    for (let i = 0; i < 5; i++) await createSubscriber(DEMO_SITES.viewlift, { name: `${prefix} ${i}`, status: i === 0 ? 'suspended' : 'active' });
    const first = (await search(support, { query: prefix, page: 1, pageSize: 2 })).body.data!.subscriberSearch;
    const third = (await search(support, { query: prefix, page: 3, pageSize: 2 })).body.data!.subscriberSearch;
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.items).toHaveLength(2);
    expect(third.items).toHaveLength(1);
    const suspended = (await search(support, { query: prefix, status: 'suspended' })).body.data!.subscriberSearch;
    expect(suspended.total).toBe(1);
    expect(suspended.items[0]!.status).toBe('suspended');
  });

  it('is site-isolated: another site\'s agent never sees these subscribers, by search or by id', async () => {
    const prefix = `isolated-${randomUUID().slice(0, 6)}`;
    const ours = await createSubscriber(DEMO_SITES.viewlift, { email: `${prefix}@example.com` });
    const theirs = await createSubscriber(DEMO_SITES.northwind, { email: `${prefix}@example.com` });
    const fromViewlift = (await search(support, { query: prefix })).body.data!.subscriberSearch;
    const fromNorthwind = (await search(northwindSupport, { query: prefix })).body.data!.subscriberSearch;
    expect(fromViewlift.items.map((i) => i.id)).toEqual([ours.subscriberId]);
    expect(fromNorthwind.items.map((i) => i.id)).toEqual([theirs.subscriberId]);
    const crossSite = await graphql(northwindSupport, SUBSCRIBER, { id: ours.subscriberId });
    expect(crossSite.status).toBe(404);
    expect(crossSite.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.subscriberNotFound, extensions: { code: 'NOT_FOUND' } });
    const crossCancel = await graphql(northwindSupport, CANCEL, { subscriptionId: ours.subscriptionId, mode: 'NOW', reason: 'Requested by viewer', version: 1 });
    expect(crossCancel.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses a user without a Customer Support role, and a caller without a session', async () => {
    const forbidden = await search(contentOnly, { query: 'a' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors?.[0]).toMatchObject({ message: OWN_MESSAGES.forbidden, extensions: { code: 'FORBIDDEN' } });
    const anonymous = await graphql(null, SEARCH, { query: 'a' });
    expect(anonymous.status).toBe(401);
  });

  it('names the parameter of bad input', async () => {
    const badStatus = await search(support, { query: '', status: 'sleeping' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badStatus, extensions: { code: 'BAD_USER_INPUT', param: 'status' } });
    const badPage = await search(support, { query: '', page: 0 });
    expect(badPage.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badPage, extensions: { param: 'page' } });
    const tooLong = await search(support, { query: 'x'.repeat(201) });
    expect(tooLong.body.errors?.[0]?.extensions?.param).toBe('query');
  });
});

describe('search by the e-mail\'s domain and by a whole word of it (issue 38)', () => {
  /** An agent of its own: these lookups do not spend the shared account's search budget. */
  let agent: Session;
  beforeAll(async () => {
    const user = await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Customer Support': 'read' }, prefix: 'cs-domain' });
    agent = await t.login(user.username, user.password);
  });
  const ids = async (query: string) => {
    const res = await search(agent, { query });
    expect(res.status, query).toBe(200);
    return res.body.data!.subscriberSearch.items.map((i) => i.id).sort();
  };

  it('"example.org" and "@example.org" find every address at that domain and its subdomains, never a longer name or another site\'s', async () => {
    const tag = randomUUID().replace(/[^a-f0-9]/g, '').slice(0, 8);
    const domain = `d${tag}.example`;
    const at = await createSubscriber(DEMO_SITES.viewlift, { email: `maria.lopez@${domain}` });
    const sub = await createSubscriber(DEMO_SITES.viewlift, { email: `JO@Mail.${domain.toUpperCase()}` });
    const longer = await createSubscriber(DEMO_SITES.viewlift, { email: `ann@x${domain}` });
    const otherSite = await createSubscriber(DEMO_SITES.northwind, { email: `ann@${domain}` });
    const both = [at.subscriberId, sub.subscriberId].sort();
    for (const query of [domain, `@${domain}`, `@${domain.toUpperCase()}`, `  ${domain} `]) expect(await ids(query), query).toEqual(both);
    expect(await ids(`mail.${domain}`)).toEqual([sub.subscriberId]);
    expect(await ids(`x${domain}`)).toEqual([longer.subscriberId]);
    // Not a domain's end at a label: a cut label, a cut end, a domain with the local part's end.
    for (const query of [`${tag}.example`, `@${tag}.example`, `@${domain.slice(0, -1)}`, `z@${domain}`, `ez@${domain}`]) {
      expect(await ids(query), query).toEqual([]);
    }
    const fromNorthwind = (await search(northwindSupport, { query: `@${domain}` })).body.data!.subscriberSearch;
    expect(fromNorthwind.items.map((i) => i.id)).toEqual([otherSite.subscriberId]);
    // Still masked in the list.
    const res = await search(agent, { query: domain });
    expect(res.body.data!.subscriberSearch.items.map((i) => i.email).sort()).toEqual([maskEmail(`maria.lopez@${domain}`), maskEmail(`JO@Mail.${domain.toUpperCase()}`)].sort());
    expect(JSON.stringify(res.body)).not.toContain('maria.lopez');
  });

  it('counts a subscriber matched by several lookups once: domain, subdomain, whole local part and name words, with the status filter (migration 0034)', async () => {
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 8);
    const domain = `d${tag}.example`;
    // The domain and the name's words; the subdomain and the whole local part; the name's words alone; the domain alone.
    const both = await createSubscriber(DEMO_SITES.viewlift, { email: `ann@${domain}`, name: `D${tag} Example` });
    const local = await createSubscriber(DEMO_SITES.viewlift, { email: `${domain}@mail.${domain}`, status: 'suspended' });
    const named = await createSubscriber(DEMO_SITES.viewlift, { email: `ann.${tag}@elsewhere.example`, name: `Example D${tag}`, status: 'suspended' });
    const plain = await createSubscriber(DEMO_SITES.viewlift, { email: `bo@${domain}` });
    const all = (await search(agent, { query: domain })).body.data!.subscriberSearch;
    expect(all.total).toBe(4);
    expect(all.totalIsCapped).toBe(false);
    expect(all.items.map((i) => i.id).sort()).toEqual([both.subscriberId, local.subscriberId, named.subscriberId, plain.subscriberId].sort());
    const suspended = (await search(agent, { query: domain, status: 'suspended' })).body.data!.subscriberSearch;
    expect(suspended.total).toBe(2);
    expect(suspended.items.map((i) => i.id).sort()).toEqual([local.subscriberId, named.subscriberId].sort());
    const second = (await search(agent, { query: `@${domain}`, page: 2, pageSize: 2 })).body.data!.subscriberSearch;
    expect(second.total).toBe(3);
    expect(second.items).toHaveLength(1);
  });

  it('counts up to the cap: more matches answer the cap with totalIsCapped, the newest page stays exact and pages past the cap are served', async () => {
    expect(SEARCH_TOTAL_CAP).toBe(10_000);
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 8);
    const domain = `c${tag}.example`;
    // Three at the domain (its arm), one by the name's words only (a later arm).
    const made = [];
    for (const email of [`a@${domain}`, `b@${domain}`, `c@mail.${domain}`]) made.push(await createSubscriber(DEMO_SITES.viewlift, { email }));
    made.push(await createSubscriber(DEMO_SITES.viewlift, { email: `d.${tag}@elsewhere.example`, name: `C${tag} Example` }));
    const siteId = made[0]!.siteId;
    const store = createSubscriberRepository(t.db);
    const find = (totalCap: number, page = 1, pageSize = 20) => store.search(siteId, { query: domain, status: null, page, pageSize, totalCap });
    const exact = await find(4);
    expect(exact.total).toBe(4);
    expect(exact.totalIsCapped).toBe(false);
    expect(exact.rows.map((r) => r.id).sort()).toEqual(made.map((m) => m.subscriberId).sort());
    // Each arm under the cap, their sum over it; one arm over it alone.
    for (const cap of [3, 2]) {
      const capped = await find(cap);
      expect(capped, `cap ${cap}`).toMatchObject({ total: cap, totalIsCapped: true });
      expect(capped.rows.map((r) => r.id), `cap ${cap}`).toEqual(exact.rows.map((r) => r.id));
    }
    // Pages past the cap: the walk goes on to the last match, then nothing.
    const newest = exact.rows.map((r) => r.id);
    expect((await find(2, 1, 2)).rows.map((r) => r.id)).toEqual(newest.slice(0, 2));
    expect(await find(2, 2, 2)).toMatchObject({ total: 2, totalIsCapped: true });
    expect((await find(2, 2, 2)).rows.map((r) => r.id)).toEqual(newest.slice(2, 4));
    expect((await find(2, 3, 2)).rows).toEqual([]);
    // Below the cap a page past the matches is empty as before.
    expect(await find(4, 3, 2)).toMatchObject({ rows: [], total: 4, totalIsCapped: false });
    // The site's own cap through GraphQL: these four are far below it.
    expect((await search(agent, { query: domain })).body.data!.subscriberSearch).toMatchObject({ total: 4, totalIsCapped: false });
  });

  it('a word of the address finds it only whole, case-insensitively, from four letters or digits; the name and whole-address lookups match as before', async () => {
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 6);
    const f = await createSubscriber(DEMO_SITES.viewlift, { email: `kim_lopez${tag}+tv@inbox-${tag}.example`, name: `Quill${tag} Ray` });
    // 'kim', 'lopez<tag>', 'tv', 'inbox', '<tag>', 'example': parts split at '_', '+', '@', '-' and '.'.
    for (const query of [`lopez${tag}`, `LOPEZ${tag}`, tag]) expect(await ids(query), query).toContain(f.subscriberId);
    // Never a prefix, an inner piece of a word, a word shorter than four, or two words at once.
    for (const query of [`lopez${tag.slice(0, -1)}`, `opez${tag}`, 'kim', `kim lopez${tag}`, `kim_lopez${tag}`]) {
      expect(await ids(query), query).not.toContain(f.subscriberId);
    }
    // What matched before still matches: the whole address, the whole local part, the name's words.
    expect(await ids(`KIM_LOPEZ${tag}+TV@INBOX-${tag}.EXAMPLE`)).toEqual([f.subscriberId]);
    expect(await ids(`kim_lopez${tag}+tv`)).toEqual([f.subscriberId]);
    expect(await ids(`quill${tag}`)).toEqual([f.subscriberId]);
    expect(await ids(`quil ray`)).toContain(f.subscriberId);
  });
});

describe('search hardening (issue 25)', () => {
  /** A Customer Support account of its own: its search budget is not shared with the other tests. */
  async function freshAgent(level: 'read' | 'write' = 'read') {
    const user = await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Customer Support': level }, prefix: 'cs-walk' });
    return { user, session: await t.login(user.username, user.password) };
  }
  const ids = async (session: Session, query: string) => {
    const res = await search(session, { query });
    expect(res.status, query).toBe(200);
    return res.body.data!.subscriberSearch.items.map((i) => i.id);
  };

  it('a scripted prefix walk recovers nothing of a masked e-mail or phone; only the whole e-mail, local part or number finds it', async () => {
    const tag = randomUUID().replace(/[^a-f]/g, '').slice(0, 5);
    const f = await createSubscriber(DEMO_SITES.viewlift, { email: `ava.tanaka.${tag}@mail.example`, phone: '+81 90 1234 5678' });
    const { session } = await freshAgent();
    const shown = maskEmail(f.email).split('•')[0]!;
    expect(shown).toBe('av');
    // The walk of the report: extend the known start one character at a time while the target stays in the results.
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789.-_+@';
    let known = shown;
    let queries = 0;
    for (let step = 0; step < 30; step++) {
      let next: string | undefined;
      for (const c of alphabet) {
        queries++;
        if ((await ids(session, known + c)).includes(f.subscriberId)) {
          next = c;
          break;
        }
      }
      if (next === undefined) break;
      known += next;
    }
    expect(known).toBe(shown);
    expect(queries).toBe(alphabet.length);
    // The attacker's best partial guesses, all short of the whole: none narrows to the subscriber.
    const local = f.email.slice(0, f.email.indexOf('@'));
    for (const partial of [local.slice(0, -1), `${local}@`, `${local}@mail.exampl`, f.email.slice(1), '@mail.exampl', 'ail.example', '8190123', '819012345', '45678', '12345678']) {
      expect(await ids(session, partial), partial).not.toContain(f.subscriberId);
    }
    // The lookups support needs still work: the whole e-mail, the whole local part, the whole number.
    expect(await ids(session, f.email.toUpperCase())).toEqual([f.subscriberId]);
    expect(await ids(session, local)).toEqual([f.subscriberId]);
    expect(await ids(session, '+81 90 1234 5678')).toContain(f.subscriberId);
    // The four digits the mask shows (issue 29: search by phone tail) find it; one digit more does not (above).
    expect(await ids(session, '5678')).toContain(f.subscriberId);
    // Issue 38 (a second agent: the walk spent the first one's budget): the domain the mask shows finds it;
    // a word of the address only whole and of four or more characters.
    const second = (await freshAgent()).session;
    expect(await ids(second, '@mail.example')).toContain(f.subscriberId);
    expect(await ids(second, 'tanaka')).toContain(f.subscriberId);
    for (const partial of ['ava', 'tanak', 'anaka', `${tag.slice(0, -1)}`]) expect(await ids(second, partial), partial).not.toContain(f.subscriberId);
  });

  it('every search is audited with its actor, site, query, filters and result count (listing too)', async () => {
    const tag = randomUUID().slice(0, 8);
    const f = await createSubscriber(DEMO_SITES.viewlift, { email: `audited-${tag}@example.com` });
    const { user, session } = await freshAgent();
    expect(await ids(session, `AUDITED-${tag}`)).toEqual([f.subscriberId]);
    await search(session, { query: '', status: 'suspended', page: 2, pageSize: 5 });
    const rows = await t.db.select().from(auditEvents)
      .where(and(eq(auditEvents.action, SUPPORT_AUDIT_ACTIONS.search), eq(auditEvents.actorUserId, user.id)))
      .orderBy(auditEvents.at);
    expect(rows.map((r) => ({ siteId: r.siteId, detail: r.detail }))).toEqual([
      { siteId: f.siteId, detail: { query: `AUDITED-${tag}`, status: null, state: null, plan: null, network: null, page: 1, pageSize: 20, resultCount: 1 } },
      { siteId: f.siteId, detail: { query: '', status: 'suspended', state: null, plan: null, network: null, page: 2, pageSize: 5, resultCount: expect.any(Number) } },
    ]);
  });

  it('the search budget refuses the 61st lookup in 10 minutes with a 429 and the seconds to wait; listing and other agents go on', async () => {
    expect(SUPPORT_SEARCH_BUDGET).toEqual({ limit: 60, windowSeconds: 600 });
    const { session } = await freshAgent();
    const results = [];
    for (let i = 0; i < 60; i++) results.push((await search(session, { query: `budget-${i}` })).status);
    expect(results).toEqual(Array.from({ length: 60 }, () => 200));
    const over = await search(session, { query: 'budget-60' });
    expect(over.status).toBe(429);
    expect(over.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.searchBudgetExceeded, extensions: { code: 'TOO_MANY_REQUESTS' } });
    expect((over.body.errors?.[0]?.extensions as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect((await search(session, { query: '' })).status).toBe(200);
    expect((await search(support, { query: 'budget-60' })).status).toBe(200);
  });
});

describe('subscriber page', () => {
  it('shows profile, subscriptions, payments with status, devices, playback QoS and notes; e-mail masked', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const d = await detail(reader, f.subscriberId);
    expect(d.profile).toMatchObject({ id: f.subscriberId, email: maskEmail(f.email), phone: '•••• 4321', version: 1 });
    expect(d.subscriptions[0]).toMatchObject({ id: f.subscriptionId, status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: '2031-03-30T01:30:00.000Z' });
    expect(d.payments.map((p) => p.status)).toEqual(['failed', 'succeeded']);
    expect(d.devices).toHaveLength(2);
    expect(d.playback[0]).toMatchObject({ startupMs: 4200, rebufferCount: 7, rebufferSeconds: 95, errorCode: 'NET-408' });
    expect(d.notes[0]!.body).toBe('Asked about 4K on Roku.');
  });

  it('answers a malformed id with a 400 naming it', async () => {
    const res = await graphql(support, SUBSCRIBER, { id: 'not-an-id' });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badId('id'), extensions: { param: 'id' } });
  });
});

describe('actions need Customer Support write', () => {
  it('refuses every action to the read-only support account and changes nothing', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const reason = 'Viewer asked on the phone';
    const attempts = [
      graphql(reader, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason, version: 1 }),
      graphql(reader, CANCEL, { subscriptionId: f.subscriptionId, mode: 'NOW', reason, version: 1 }),
      graphql(reader, GRANT, { subscriptionId: f.subscriptionId, days: 7, reason, version: 1 }),
      graphql(reader, SIGN_OUT, { subscriberId: f.subscriberId, reason, version: 1 }),
      graphql(reader, SIGN_OUT, { subscriberId: f.subscriberId, deviceId: f.deviceIds[0], reason, version: 1 }),
      graphql(reader, ADD_NOTE, { subscriberId: f.subscriberId, body: 'Should not be written' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.errors?.[0]).toMatchObject({ message: OWN_MESSAGES.forbidden, extensions: { code: 'FORBIDDEN' } });
    }
    const d = await detail(support, f.subscriberId);
    expect(d.subscriptions[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, version: 1, currentPeriodEnd: '2031-03-30T01:30:00.000Z' });
    expect(d.devices.every((device) => device.signedOutAt === null)).toBe(true);
    expect(d.notes).toHaveLength(1);
    const audits = await t.db.select().from(auditEvents).where(sql`${auditEvents.detail}->>'subscriberId' = ${f.subscriberId}`);
    expect(audits).toEqual([]);
  });
});

describe('cancel a subscription', () => {
  it('at period end: keeps it running, marks cancel-at-period-end and logs who and why', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const res = await graphql<{ subscriptionCancel: SubscriberDetail }>(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason: 'Moving abroad', version: 1 });
    expect(res.status).toBe(200);
    expect(res.body.data!.subscriptionCancel.subscriptions[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, endedAt: null, version: 2 });
    const [entry] = await auditOf(SUPPORT_AUDIT_ACTIONS.cancelSubscription, f.subscriberId);
    const [agent] = await t.db.select().from(staffUsers).where(eq(staffUsers.username, 'support@demo.test'));
    expect(entry!.actorUserId).toBe(agent!.id);
    expect(entry!.siteId).toBe(f.siteId);
    expect(entry!.detail).toMatchObject({ mode: 'AT_PERIOD_END', reason: 'Moving abroad', before: { cancelAtPeriodEnd: false, version: 1 }, after: { cancelAtPeriodEnd: true, version: 2 } });
    const again = await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason: 'Moving abroad', version: 2 });
    expect(again.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.alreadyCancelling, extensions: { code: 'CONFLICT' } });
  });

  it('now: ends it, and it stops counting as active in today\'s subscription rollups (the Analytics user base)', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await rebuildRollups(t.db, { siteId: f.siteId });
    // The site's day (rollup days are the site's, issue 38): the UTC day differs for hours after midnight UTC.
    const today = siteDayOf(Date.now(), await siteTimeZone(t.db, f.siteId));
    const activeToday = async () => {
      const [row] = await t.db.select().from(dailySubscriptionRollups).where(and(
        eq(dailySubscriptionRollups.siteId, f.siteId), eq(dailySubscriptionRollups.planId, f.planId), eq(dailySubscriptionRollups.day, today)));
      return row?.activeAtEnd ?? 0;
    };
    expect(await activeToday()).toBe(1);
    const res = await graphql<{ subscriptionCancel: SubscriberDetail }>(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'NOW', reason: 'Charged twice, refund agreed', version: 1 });
    expect(res.status).toBe(200);
    const cancelled = res.body.data!.subscriptionCancel.subscriptions[0]!;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: false });
    expect(cancelled.endedAt).not.toBeNull();
    expect(await activeToday()).toBe(0);
    const ended = await graphql(support, GRANT, { subscriptionId: f.subscriptionId, days: 3, reason: 'Goodwill gesture', version: 2 });
    expect(ended.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.subscriptionEnded, extensions: { code: 'CONFLICT' } });
  });

  it('answers a stale version with a 409 and leaves the row alone', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await graphql(support, GRANT, { subscriptionId: f.subscriptionId, days: 1, reason: 'Outage on Sunday', version: 1 });
    const stale = await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'NOW', reason: 'Requested by viewer', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.conflict, extensions: { code: 'CONFLICT' } });
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscriptionId));
    expect(row).toMatchObject({ status: 'active', version: 2 });
  });

  it('refuses a missing reason and an unknown mode, naming the parameter', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const noReason = await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'NOW', reason: '  ', version: 1 });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.reasonRequired, extensions: { param: 'reason' } });
    const badMode = await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'LATER', reason: 'Requested by viewer', version: 1 });
    expect(badMode.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badCancelMode, extensions: { param: 'mode' } });
  });
});

describe('complimentary days', () => {
  it('extend the period end by exactly that many days and are logged', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const res = await graphql<{ subscriptionGrantDays: SubscriberDetail }>(support, GRANT, { subscriptionId: f.subscriptionId, days: 14, reason: 'Outage on Sunday', version: 1 });
    expect(res.status).toBe(200);
    const expected = new Date(Date.UTC(2031, 2, 30, 1, 30) + 14 * DAY_MS);
    expect(res.body.data!.subscriptionGrantDays.subscriptions[0]!.currentPeriodEnd).toBe(expected.toISOString());
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscriptionId));
    expect(row!.currentPeriodEnd.getTime()).toBe(expected.getTime());
    const [entry] = await auditOf(SUPPORT_AUDIT_ACTIONS.grantDays, f.subscriberId);
    expect(entry!.detail).toMatchObject({ days: 14, reason: 'Outage on Sunday', before: { currentPeriodEnd: '2031-03-30T01:30:00.000Z' }, after: { currentPeriodEnd: expected.toISOString() } });
  });

  it('refuses 0, 366 and fractions of a day', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    for (const days of [0, 366]) {
      const res = await graphql(support, GRANT, { subscriptionId: f.subscriptionId, days, reason: 'Outage on Sunday', version: 1 });
      expect(res.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.daysRange, extensions: { param: 'days' } });
    }
    const fraction = await graphql(support, GRANT, { subscriptionId: f.subscriptionId, days: 1.5, reason: 'Outage on Sunday', version: 1 });
    expect(fraction.status).toBe(400);
  });
});

describe('devices', () => {
  it('signs out one device, then all the others, each bumping the subscriber version', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const one = await graphql<{ subscriberSignOutDevices: SubscriberDetail }>(support, SIGN_OUT, { subscriberId: f.subscriberId, deviceId: f.deviceIds[0], reason: 'Lost phone', version: 1 });
    expect(one.status).toBe(200);
    const afterOne = one.body.data!.subscriberSignOutDevices;
    expect(afterOne.profile.version).toBe(2);
    expect(afterOne.devices.find((d) => d.id === f.deviceIds[0])!.signedOutAt).not.toBeNull();
    expect(afterOne.devices.find((d) => d.id === f.deviceIds[1])!.signedOutAt).toBeNull();
    const stale = await graphql(support, SIGN_OUT, { subscriberId: f.subscriberId, reason: 'Account shared', version: 1 });
    expect(stale.status).toBe(409);
    const all = await graphql<{ subscriberSignOutDevices: SubscriberDetail }>(support, SIGN_OUT, { subscriberId: f.subscriberId, reason: 'Account shared', version: 2 });
    expect(all.body.data!.subscriberSignOutDevices.devices.every((d) => d.signedOutAt !== null)).toBe(true);
    const nothingLeft = await graphql(support, SIGN_OUT, { subscriberId: f.subscriberId, reason: 'Account shared', version: 3 });
    expect(nothingLeft.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.noDevicesSignedIn });
    const entries = await auditOf(SUPPORT_AUDIT_ACTIONS.signOutDevices, f.subscriberId);
    expect(entries.map((e) => (e.detail as { scope: string }).scope).sort()).toEqual(['all', 'one']);
  });
});

describe('notes and reveal', () => {
  it('adds a note with its author, logged', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const res = await graphql<{ subscriberAddNote: SubscriberDetail }>(support, ADD_NOTE, { subscriberId: f.subscriberId, body: 'Walked them through resetting the Roku app.' });
    expect(res.body.data!.subscriberAddNote.notes[0]).toMatchObject({ body: 'Walked them through resetting the Roku app.', authorName: 'Sam Support' });
    expect(await auditOf(SUPPORT_AUDIT_ACTIONS.addNote, f.subscriberId)).toHaveLength(1);
    const empty = await graphql(support, ADD_NOTE, { subscriberId: f.subscriberId, body: '   ' });
    expect(empty.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.noteRequired, extensions: { param: 'body' } });
  });

  it('reveals the full e-mail and phone to a read-only agent too, and logs who and why', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const res = await graphql<{ subscriberRevealContact: { email: string; phone: string } }>(reader, REVEAL, { subscriberId: f.subscriberId, reason: 'Verifying identity on a call' });
    expect(res.body.data!.subscriberRevealContact).toEqual({ email: f.email, phone: '+1 (555) 010-4321' });
    const [entry] = await auditOf(SUPPORT_AUDIT_ACTIONS.revealContact, f.subscriberId);
    expect(entry!.detail).toMatchObject({ reason: 'Verifying identity on a call' });
    const noReason = await graphql(reader, REVEAL, { subscriberId: f.subscriberId, reason: '' });
    expect(noReason.body.errors?.[0]?.extensions?.param).toBe('reason');
  });
});

describe('subscription filters (issue 27)', () => {
  /**
   * A network of its own (so concurrent tests on the shared PostgreSQL cannot move its numbers) with one
   * subscriber per subscription row below, each row's status, trial and end as the billing side keeps them.
   */
  async function filterWorld() {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const tag = randomUUID().slice(0, 8);
    const [network] = await t.db.insert(networks).values({ siteId: site.id, identifier: `filters-${tag}`, name: `Filters ${tag}`, image: '' }).returning();
    const [planA, planB] = await t.db.insert(plans).values([
      { siteId: site.id, name: `Filter A ${tag}`, prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' },
      { siteId: site.id, name: `Filter B ${tag}`, prices: [{ currency: 'USD', amount: 1999 }], billingPeriod: 'month', status: 'active' },
    ]).returning();
    const now = Date.now();
    const at = (days: number) => new Date(now + days * DAY_MS);
    type Row = { status: string; plan: string; trialEndsAt?: Date; cancelAtPeriodEnd?: boolean; endedAt?: Date; cancelledAt?: Date };
    const rows: Row[] = [
      { status: 'trialing', plan: planA!.id, trialEndsAt: at(3) },
      { status: 'trialing', plan: planA!.id, trialEndsAt: at(5), cancelAtPeriodEnd: true, cancelledAt: at(-1) },
      { status: 'active', plan: planA!.id },
      { status: 'active', plan: planB!.id },
      { status: 'active', plan: planB!.id, cancelAtPeriodEnd: true, cancelledAt: at(-2) },
      { status: 'past_due', plan: planA!.id },
      { status: 'cancelled', plan: planB!.id, cancelAtPeriodEnd: true, cancelledAt: at(-12), endedAt: at(-10) },
      { status: 'expired', plan: planA!.id, endedAt: at(-3) },
    ];
    const ids: string[] = [];
    for (const [i, row] of rows.entries()) {
      const [subscriber] = await t.db.insert(subscribers).values({
        siteId: site.id, networkId: network!.id, email: `filter-${tag}-${i}@example.com`, name: `Filter ${tag} ${i}`, phone: '', country: 'US',
        status: 'active', createdAt: at(-60 + i),
      }).returning();
      await t.db.insert(subscriptions).values({
        siteId: site.id, networkId: network!.id, subscriberId: subscriber!.id, planId: row.plan, status: row.status,
        startedAt: at(-40), trialEndsAt: row.trialEndsAt ?? null, currentPeriodStart: at(-5), currentPeriodEnd: at(25),
        cancelAtPeriodEnd: row.cancelAtPeriodEnd ?? false, cancelledAt: row.cancelledAt ?? null, endedAt: row.endedAt ?? null,
        amount: 999, currency: 'USD',
      });
      ids.push(subscriber!.id);
    }
    // Today in the site's zone (rollup days are the site's, issue 38; for hours after midnight UTC it is not UTC's day).
    const today = siteDayOf(Date.now(), await siteTimeZone(t.db, site.id));
    await rebuildRollups(t.db, { siteId: site.id, from: today, to: today });
    return { site, network: network!, planA: planA!, planB: planB!, rows, ids, today };
  }

  const listed = async (variables: Record<string, unknown>) => {
    const res = await search(support, { query: '', pageSize: 100, ...variables });
    expect(res.body.errors).toBeUndefined();
    return res.body.data!.subscriberSearch;
  };

  it('lists the subscribers with a subscription in each state, on a plan, on a network, with the matching count', async () => {
    const w = await filterWorld();
    const expected: Record<SubscriptionState, number[]> = {
      trialing: [0, 1], paying: [2, 3, 4, 5], past_due: [5], cancelling: [1, 4], cancelled: [6], expired: [7],
    };
    for (const state of SUBSCRIPTION_STATES) {
      const page = await listed({ state, network: w.network.identifier });
      expect(page.total).toBe(expected[state].length);
      expect(page.items.map((i) => i.id).sort()).toEqual(expected[state].map((n) => w.ids[n]).sort());
    }
    const onB = await listed({ state: 'paying', plan: w.planB.id, network: w.network.identifier });
    expect(onB.items.map((i) => i.id).sort()).toEqual([w.ids[3], w.ids[4]].sort());
    expect((await listed({ network: w.network.identifier })).total).toBe(8);
    const options = await listed({ network: w.network.identifier, pageSize: 1 });
    expect(options.plans).toContainEqual({ value: w.planA.id, label: w.planA.name });
    expect(options.networks).toContainEqual({ value: w.network.identifier, label: w.network.name });
  });

  it('counts as paying exactly the rows the Dashboard tile counts: same number as user_base today and as the raw rows', async () => {
    const w = await filterWorld();
    const { today } = w;
    const admin = await t.login('admin@demo.test');
    const res = await t.get(`${REPORTS_PATH}/user_base?from=${today}&to=${today}&network=${w.network.identifier}`, admin.headers);
    expect(res.statusCode).toBe(200);
    const tile = res.json<ReportAnswer>().totals.subscribers;
    const raw = await t.db.select({ n: sql<number>`count(DISTINCT ${subscriptions.subscriberId})::int` }).from(subscriptions)
      .where(and(eq(subscriptions.networkId, w.network.id), sql`${subscriptions.status} IN ('active', 'past_due')`));
    const users = await listed({ state: 'paying', network: w.network.identifier });
    expect(tile).toBe(4);
    expect(raw[0]!.n).toBe(4);
    expect(users.total).toBe(4);
    expect(SUBSCRIPTION_STATE_RULES.paying.statuses).toEqual(['active', 'past_due']);
  });

  it('refuses an unknown state, a plan or network of another site, with our own message', async () => {
    const w = await filterWorld();
    const bad = async (variables: Record<string, unknown>) => (await search(support, { query: '', ...variables })).body.errors?.[0]?.message;
    expect(await bad({ state: 'active' })).toBe(SUPPORT_MESSAGES.badState);
    expect(await bad({ plan: randomUUID() })).toBe(SUPPORT_MESSAGES.badPlan);
    expect(await bad({ plan: 'not-an-id' })).toBe(SUPPORT_MESSAGES.badPlan);
    expect(await bad({ network: 'no-such-network' })).toBe(SUPPORT_MESSAGES.badNetwork);
    const northwind = await search(northwindSupport, { query: '', network: w.network.identifier });
    expect(northwind.body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.badNetwork);
    const northwindPlan = await search(northwindSupport, { query: '', plan: w.planA.id });
    expect(northwindPlan.body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.badPlan);
  });

  it('audits a filtered listing with its filters and does not count it in the lookup budget', async () => {
    const w = await filterWorld();
    const agent = await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Customer Support': 'read' }, prefix: 'filter-agent' });
    const session = await t.login(agent.username, agent.password);
    for (let i = 0; i < SUPPORT_SEARCH_BUDGET.limit + 1; i++) {
      const res = await search(session, { query: '', state: 'paying', network: w.network.identifier, pageSize: 1 });
      expect(res.body.errors).toBeUndefined();
    }
    const [last] = await t.db.select().from(auditEvents)
      .where(and(eq(auditEvents.action, SUPPORT_AUDIT_ACTIONS.search), eq(auditEvents.actorUserId, agent.id)))
      .orderBy(desc(auditEvents.at)).limit(1);
    expect(last?.detail).toEqual({
      query: '', status: null, state: 'paying', plan: null, network: w.network.identifier, page: 1, pageSize: 1, resultCount: 4,
    });
  });
});
