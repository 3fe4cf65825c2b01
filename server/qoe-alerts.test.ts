/**
 * Issue 41 (qoe-alerts): alert rules over the QoE engine's totals, on PGlite and PostgreSQL.
 * Raw playback sessions (last event "now") past a rule's threshold → breaching, an incident once it
 * has been past for its duration (the evaluator is driven with its own clock), its peak, resolved by
 * itself when good sessions replace them; one open incident per rule when two evaluations race;
 * notifications: a signed webhook POST received by a local HTTP server and an e-mail outbox row;
 * permissions (a reader lists, gets 403 on writes), another site's rule is 404, bad input is a 400
 * in words, a stale version 409, and the webhook address check (SSRF).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../common/constants';
import { QOE_ALERT_REFUSALS as M } from '../common/messages/qoe-alert-refusals';
import { QOE_ALERT_MESSAGES } from '../common/messages/qoe-alerts';
import {
  QOE_ALERT_MIN_SESSIONS, QOE_ALERT_RULES_PATH, QOE_ALERT_SECRET_PATH, QOE_ALERT_SETTINGS_PATH, QOE_INCIDENTS_PAGE_SIZE, QOE_INCIDENT_COUNT_PATH, QOE_INCIDENTS_PATH, QOE_WEBHOOK_SIGNATURE_HEADER,
  type QoeAlertRule, type QoeAlertSettingsAnswer, type QoeIncidentsAnswer, type QoeWebhookPayload,
} from '../common/qoe';
import { DEMO_SITES } from './db/demo-accounts';
import { createQoeDeliveryStore } from './db/qoe-alert-repository';
import { auditEvents, contentItems, networks, playbackSessions, qoeAlertDeliveries, qoeAlertRules, qoeAlertSettings, qoeIncidents, revisions, smsOutbox, subscribers } from './db/schema';
import { secretFingerprint } from './domain/qoe-alerts';
import { isReservedAddress, signWebhook, verifyWebhook, webhookRefusal } from './domain/qoe-alert-webhook';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';

// The loops are driven by the tests (their own clock); a webhook to this machine is allowed here.
process.env.QOE_ALERT_EVAL_MS = '0';
process.env.QOE_ALERT_DELIVERY_MS = '0';
process.env.QOE_WEBHOOK_ALLOW_PRIVATE = '1';

let t: TestApp;
let writer: Session;
let reader: Session;
let siteId: string;
let networkId: string;
let contentId: string;
let subscriberId: string;
let hook: Server;
let hookUrl: string;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let hookStatus = 200;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const [w, r] = await Promise.all([
    t.createUser({ roles: { [AREAS.dashboard360]: 'write' }, prefix: 'qoe-writer' }),
    t.createUser({ roles: { [AREAS.dashboard360]: 'read' }, prefix: 'qoe-reader' }),
  ]);
  [writer, reader] = await Promise.all([t.login(w.username, w.password), t.login(r.username, r.password)]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  networkId = (await t.db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true))))[0]!.id;
  contentId = (await t.db.select().from(contentItems).where(eq(contentItems.siteId, siteId)).limit(1))[0]?.id ?? (await t.db.insert(contentItems).values({
    siteId, kind: 'video', title: 'Alert item', titleSearch: 'alert item', genre: 'drama', durationSeconds: 60, status: 'draft',
  }).returning())[0]!.id;
  subscriberId = (await t.db.insert(subscribers).values({
    siteId, networkId, email: `qoe-${randomUUID().slice(0, 8)}@example.com`, name: 'Alert viewer', phone: '+1 555 010 0000', country: 'US', status: 'active',
  }).returning())[0]!.id;
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = hookStatus;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await new Promise((resolve) => hook?.close(resolve));
  await t?.close();
});

/** Sessions of one ISP (the rule's filter), each with its last event at `at`. */
async function sessions(isp: string, count: number, at: Date, rebufferSeconds: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await t.db.insert(playbackSessions).values(ids.map((id) => ({
    id, siteId, networkId, subscriberId, contentId, deviceType: 'web', country: 'US', isp, cdn: 'Akamai',
    startedAt: new Date(at.getTime() - 60_000), lastEventAt: at, watchedSeconds: 100, startupMs: 900, rebufferCount: rebufferSeconds > 0 ? 1 : 0,
    rebufferSeconds, avgBitrateKbps: 3000,
  })));
  return ids;
}

/** The ISP's players are still playing: each session's last event (a heartbeat) moves to `at`. */
async function heartbeat(isp: string, at: Date): Promise<void> {
  await t.db.update(playbackSessions).set({ lastEventAt: at }).where(eq(playbackSessions.isp, isp));
}

async function ruleFor(isp: string, extra: Record<string, unknown> = {}): Promise<QoeAlertRule> {
  const res = await t.inject({
    method: 'POST', url: QOE_ALERT_RULES_PATH, headers: writer.headers,
    payload: { name: `Rebuffering on ${isp}`, metric: 'rebufferPct', comparison: 'above', threshold: 2, durationMinutes: 1, filters: `isp:${encodeURIComponent(isp)}`, enabled: true, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ rule: QoeAlertRule }>().rule;
}

const evaluate = async (ruleId: string, at: Date) => (await t.app.services.qoeAlerts.evaluator.evaluate(at)).find((o) => o.ruleId === ruleId);
const incidentsOf = (ruleId: string) => t.db.select().from(qoeIncidents).where(eq(qoeIncidents.ruleId, ruleId));

describe('evaluation: an incident opens after the duration, tracks its peak, and resolves by itself', () => {
  it('bad sessions → breaching → incident after durationMinutes (with notifications) → peak → good sessions resolve it', async () => {
    const isp = `Slow Net ${randomUUID().slice(0, 8)}`;
    // The site's first save of its alert settings (it makes the signing secret and shows it once).
    await t.db.delete(qoeAlertSettings).where(eq(qoeAlertSettings.siteId, siteId));
    const settings = (await t.get(QOE_ALERT_SETTINGS_PATH, writer.headers)).json<QoeAlertSettingsAnswer>().settings;
    const saved = await t.inject({ method: 'PUT', url: QOE_ALERT_SETTINGS_PATH, headers: writer.headers, payload: { webhookUrl: hookUrl, emails: ['ops@example.com'], version: settings.version } });
    expect(saved.statusCode, saved.body).toBe(200);
    const secret = saved.json<QoeAlertSettingsAnswer>().settings.webhookSecret!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS + 2, new Date(t0.getTime() - 10_000), 50);
    // Past the threshold (50 / 150 = 33 %): breaching from now, no incident before the duration.
    expect(await evaluate(rule.id, t0)).toMatchObject({ breaching: true, opened: false, sessions: QOE_ALERT_MIN_SESSIONS + 2 });
    expect((await evaluate(rule.id, new Date(t0.getTime() + 30_000)))!.opened).toBe(false);
    const [breaching] = await t.db.select().from(qoeAlertRules).where(eq(qoeAlertRules.id, rule.id));
    expect(breaching!.breachingSince?.toISOString()).toBe(t0.toISOString());
    expect(await incidentsOf(rule.id)).toEqual([]);

    const t1 = new Date(t0.getTime() + 60_000);
    await heartbeat(isp, new Date(t1.getTime() - 5_000));
    expect(await evaluate(rule.id, t1)).toMatchObject({ opened: true });
    const [opened] = await incidentsOf(rule.id);
    expect(opened).toMatchObject({ state: 'open', ruleName: rule.name, metric: 'rebufferPct', threshold: 2 });
    expect(opened!.startedAt.toISOString()).toBe(t0.toISOString());
    expect(opened!.peakValue).toBeCloseTo(100 * 50 / 150, 1);
    expect((await t.get(QOE_INCIDENT_COUNT_PATH, reader.headers)).json()).toEqual({ success: true, open: 1 });

    // Worse sessions: the peak follows; evaluating again does not open a second incident.
    await sessions(isp, QOE_ALERT_MIN_SESSIONS + 2, t1, 100);
    expect(await evaluate(rule.id, new Date(t1.getTime() + 15_000))).toMatchObject({ opened: false, breaching: true });
    const [worse] = await incidentsOf(rule.id);
    expect(worse!.peakValue).toBeGreaterThan(opened!.peakValue);
    const peak = worse!.peakValue;

    // Good sessions replace them: the bad ones leave the window, the good ones are seen.
    await t.db.update(playbackSessions).set({ rebufferSeconds: 0, rebufferCount: 0 }).where(eq(playbackSessions.isp, isp));
    const t2 = new Date(t1.getTime() + 30_000);
    expect(await evaluate(rule.id, t2)).toMatchObject({ resolved: true, breaching: false, value: 0 });
    const [resolved] = await incidentsOf(rule.id);
    expect(resolved).toMatchObject({ state: 'resolved', resolvedReason: 'recovered', peakValue: peak });
    expect(resolved!.resolvedAt!.toISOString()).toBe(t2.toISOString());
    const [after] = await t.db.select().from(qoeAlertRules).where(eq(qoeAlertRules.id, rule.id));
    expect(after!.breachingSince).toBeNull();

    // The incidents list (reader): the resolved incident with its report link.
    const list = (await t.get(`${QOE_INCIDENTS_PATH}?state=all`, reader.headers)).json<QoeIncidentsAnswer>();
    const listed = list.incidents.find((i) => i.id === resolved!.id)!;
    expect(listed).toMatchObject({ state: 'resolved', resolvedReason: 'recovered', ruleId: rule.id });
    expect(listed.reportPath).toMatch(/^\/analytics\/qos-overall\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&f=isp%3ASlow/);
    expect((await t.get(`${QOE_INCIDENTS_PATH}?state=open`, reader.headers)).json<QoeIncidentsAnswer>().incidents.some((i) => i.id === resolved!.id)).toBe(false);

    // Notifications: opened and resolved, each a webhook POST (signed) and an e-mail outbox row.
    const deliveries = await t.db.select().from(qoeAlertDeliveries).where(eq(qoeAlertDeliveries.incidentId, resolved!.id));
    expect(deliveries.map((d) => `${d.event} ${d.channel}`).sort()).toEqual(['opened email', 'opened webhook', 'resolved email', 'resolved webhook']);
    received.length = 0;
    expect(await t.app.services.qoeAlerts.delivery.deliver(new Date())).toEqual({ sent: 4, failed: 0 });
    expect(received).toHaveLength(2);
    const payloads = received.map((r) => {
      const header = String(r.headers[QOE_WEBHOOK_SIGNATURE_HEADER]);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhook(secret, r.body, header)).toBe(true);
      expect(verifyWebhook('another secret', r.body, header)).toBe(false);
      return JSON.parse(r.body) as QoeWebhookPayload;
    });
    expect(payloads.map((p) => p.event).sort()).toEqual(['incident.opened', 'incident.resolved']);
    expect(payloads[0]!.incident).toMatchObject({ id: resolved!.id, ruleName: rule.name, ruleId: rule.id });
    expect(payloads[0]!.site).toBe(DEMO_SITES.viewlift);
    const mail = await t.db.select().from(smsOutbox).where(eq(smsOutbox.to, 'ops@example.com'));
    expect(mail.some((m) => m.body.startsWith(`Incident opened: ${rule.name}`))).toBe(true);
    expect(mail.some((m) => m.body.startsWith(`Incident resolved: ${rule.name}`) && m.body.includes('Report: /analytics/qos-overall?'))).toBe(true);
    const states = await t.db.select().from(qoeAlertDeliveries).where(eq(qoeAlertDeliveries.incidentId, resolved!.id));
    expect(states.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
  });

  it('a failing webhook is retried later with its error kept, then given up; evaluation never waits for it', async () => {
    const isp = `Flaky Net ${randomUUID().slice(0, 8)}`;
    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS, t0, 80);
    await evaluate(rule.id, t0);
    hookStatus = 500;
    try {
      expect(await evaluate(rule.id, new Date(t0.getTime() + 60_000))).toMatchObject({ opened: true });
      const [incident] = await incidentsOf(rule.id);
      const store = createQoeDeliveryStore(t.db);
      const webhook = async () => (await store.deliveriesOf(incident!.id)).find((d) => d.channel === 'webhook')!;
      const first = new Date(Date.now() + 1000);
      await t.app.services.qoeAlerts.delivery.deliver(first);
      expect(await webhook()).toMatchObject({ status: 'pending', attempts: 1, lastError: 'the webhook answered 500' });
      expect((await webhook()).nextAttemptAt.getTime()).toBeGreaterThan(first.getTime());
      // Each later attempt waits longer; after the last it is failed, its error kept.
      let at = first.getTime();
      for (let i = 0; i < 10 && (await webhook()).status === 'pending'; i += 1) {
        at = (await webhook()).nextAttemptAt.getTime() + 1;
        await t.app.services.qoeAlerts.delivery.deliver(new Date(at));
      }
      expect(await webhook()).toMatchObject({ status: 'failed', attempts: 6, lastError: 'the webhook answered 500' });
    } finally {
      hookStatus = 200;
    }
  });

  it('too few sessions decide nothing; a rule turned off or deleted closes its open incident and says so', async () => {
    const isp = `Few Net ${randomUUID().slice(0, 8)}`;
    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS - 1, t0, 80);
    expect(await evaluate(rule.id, t0)).toMatchObject({ breaching: false, sessions: QOE_ALERT_MIN_SESSIONS - 1 });
    await sessions(isp, 1, t0, 80);
    await evaluate(rule.id, t0);
    expect(await evaluate(rule.id, new Date(t0.getTime() + 60_000))).toMatchObject({ opened: true });
    const off = await t.inject({ method: 'PUT', url: `${QOE_ALERT_RULES_PATH}/${rule.id}`, headers: writer.headers, payload: { ...ruleBody(rule), enabled: false, version: rule.version } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await incidentsOf(rule.id))[0]).toMatchObject({ state: 'resolved', resolvedReason: 'disabled' });
    // Off: not evaluated.
    expect(await evaluate(rule.id, new Date(t0.getTime() + 90_000))).toBeUndefined();

    const on = await t.inject({ method: 'PUT', url: `${QOE_ALERT_RULES_PATH}/${rule.id}`, headers: writer.headers, payload: { ...ruleBody(rule), enabled: true, version: rule.version + 1 } });
    expect(on.statusCode, on.body).toBe(200);
    await evaluate(rule.id, t0);
    expect(await evaluate(rule.id, new Date(t0.getTime() + 60_000))).toMatchObject({ opened: true });
    const gone = await t.inject({ method: 'DELETE', url: `${QOE_ALERT_RULES_PATH}/${rule.id}?version=${rule.version + 2}`, headers: writer.headers });
    expect(gone.statusCode, gone.body).toBe(200);
    const after = await t.db.select().from(qoeIncidents).where(eq(qoeIncidents.ruleName, rule.name));
    expect(after.map((i) => i.resolvedReason).sort()).toEqual(['deleted', 'disabled']);
    expect(after.every((i) => i.ruleId === null && i.state === 'resolved')).toBe(true);
  });

  it('once the bad events stop, the incident resolves when they leave the rule\'s window (its duration, at most 5 minutes), not before', async () => {
    // A 1-minute rule: the players stop at `stop`; their sessions count until 1 minute after their last event.
    const isp = `Stop Net ${randomUUID().slice(0, 8)}`;
    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS, t0, 80);
    await evaluate(rule.id, t0);
    const stop = new Date(t0.getTime() + 60_000);
    await heartbeat(isp, stop);
    expect(await evaluate(rule.id, stop)).toMatchObject({ opened: true });
    // Still playing badly 45 s after the last event: open.
    expect(await evaluate(rule.id, new Date(stop.getTime() + 45_000))).toMatchObject({ breaching: true, resolved: false });
    expect((await incidentsOf(rule.id))[0]!.state).toBe('open');
    // Just past one minute after the last event: no session left in the window, the incident resolves.
    const cleared = new Date(stop.getTime() + 60_001);
    expect(await evaluate(rule.id, cleared)).toMatchObject({ breaching: false, resolved: true, sessions: 0 });
    expect((await incidentsOf(rule.id))[0]).toMatchObject({ state: 'resolved', resolvedReason: 'recovered', resolvedAt: cleared });

    // A 10-minute rule is judged over the last 5 minutes (QOE_ALERT_WINDOW_MINUTES): it stays open 4 minutes after the stop, resolves after 5.
    const slowIsp = `Stop Net 10 ${randomUUID().slice(0, 8)}`;
    const slow = await ruleFor(slowIsp, { durationMinutes: 10, name: `Ten minutes on ${slowIsp}` });
    await sessions(slowIsp, QOE_ALERT_MIN_SESSIONS, t0, 80);
    await evaluate(slow.id, t0);
    const slowStop = new Date(t0.getTime() + 10 * 60_000);
    await heartbeat(slowIsp, slowStop);
    expect(await evaluate(slow.id, slowStop)).toMatchObject({ opened: true });
    expect(await evaluate(slow.id, new Date(slowStop.getTime() + 4 * 60_000))).toMatchObject({ breaching: true, resolved: false });
    expect(await evaluate(slow.id, new Date(slowStop.getTime() + 5 * 60_000 + 1))).toMatchObject({ breaching: false, resolved: true });
  });

  it('two evaluations at once (two servers) open one incident and queue its notifications once', async () => {
    const isp = `Race Net ${randomUUID().slice(0, 8)}`;
    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS, t0, 80);
    await evaluate(rule.id, t0);
    const later = new Date(t0.getTime() + 61_000);
    await heartbeat(isp, new Date(later.getTime() - 5_000));
    const { evaluator } = t.app.services.qoeAlerts;
    const [row] = await t.db.select().from(qoeAlertRules).where(eq(qoeAlertRules.id, rule.id));
    const outcomes = await Promise.all([evaluator.evaluateRule(row!, later), evaluator.evaluateRule(row!, later), evaluator.evaluateRule(row!, later)]);
    expect(outcomes.filter((o) => o.opened)).toHaveLength(1);
    const incidents = await incidentsOf(rule.id);
    expect(incidents).toHaveLength(1);
    const deliveries = await t.db.select().from(qoeAlertDeliveries).where(eq(qoeAlertDeliveries.incidentId, incidents[0]!.id));
    expect(deliveries.filter((d) => d.event === 'opened').map((d) => d.channel).sort()).toEqual(['email', 'webhook']);
  });
});

const ruleBody = (rule: QoeAlertRule) => ({
  name: rule.name, metric: rule.metric, comparison: rule.comparison, threshold: rule.threshold, durationMinutes: rule.durationMinutes, filters: rule.filters, enabled: rule.enabled,
});

describe('the alert rules API', () => {
  it('a Dashboard 360 reader lists rules, incidents and settings but gets 403 on every write', async () => {
    const rule = await ruleFor(`Reader Net ${randomUUID().slice(0, 8)}`);
    const list = await t.get(QOE_ALERT_RULES_PATH, reader.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ canEdit: false });
    expect(list.json<{ rules: QoeAlertRule[] }>().rules.map((r) => r.id)).toContain(rule.id);
    expect((await t.get(`${QOE_ALERT_RULES_PATH}/${rule.id}`, reader.headers)).statusCode).toBe(200);
    const settings = await t.get(QOE_ALERT_SETTINGS_PATH, reader.headers);
    expect(settings.statusCode).toBe(200);
    expect(settings.json<QoeAlertSettingsAnswer>()).toMatchObject({ canEdit: false, settings: { webhookSecret: null } });
    expect((await t.inject({ method: 'POST', url: QOE_ALERT_RULES_PATH, headers: reader.headers, payload: ruleBody({ ...rule, name: 'Reader rule' }) })).statusCode).toBe(403);
    expect((await t.inject({ method: 'PUT', url: `${QOE_ALERT_RULES_PATH}/${rule.id}`, headers: reader.headers, payload: { ...ruleBody(rule), version: rule.version } })).statusCode).toBe(403);
    expect((await t.inject({ method: 'DELETE', url: `${QOE_ALERT_RULES_PATH}/${rule.id}?version=${rule.version}`, headers: reader.headers })).statusCode).toBe(403);
    expect((await t.inject({ method: 'PUT', url: QOE_ALERT_SETTINGS_PATH, headers: reader.headers, payload: { webhookUrl: null, emails: [], version: 0 } })).statusCode).toBe(403);
    // No Dashboard 360 role at all: 403 on reads too.
    const other = await t.createUser({ roles: { [AREAS.content]: 'write' }, prefix: 'qoe-none' });
    const none = await t.login(other.username, other.password);
    expect((await t.get(QOE_ALERT_RULES_PATH, none.headers)).statusCode).toBe(403);
    expect((await t.get(QOE_INCIDENT_COUNT_PATH, none.headers)).statusCode).toBe(403);
  });

  it("another site's rule is not found (404), as is an id that is not one", async () => {
    const otherSite = await createBareSite(t.db, `qoe-other-${randomUUID().slice(0, 8)}`);
    const [foreign] = await t.db.insert(qoeAlertRules).values({
      siteId: otherSite, name: 'Foreign', metric: 'errorPct', comparison: 'above', threshold: 5, durationMinutes: 5, filters: [],
    }).returning();
    expect((await t.get(`${QOE_ALERT_RULES_PATH}/${foreign!.id}`, writer.headers)).statusCode).toBe(404);
    const put = await t.inject({ method: 'PUT', url: `${QOE_ALERT_RULES_PATH}/${foreign!.id}`, headers: writer.headers, payload: { ...ruleBody({ ...toRule(foreign!) }), version: 1 } });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ message: M.ruleNotFound });
    expect((await t.inject({ method: 'DELETE', url: `${QOE_ALERT_RULES_PATH}/${foreign!.id}?version=1`, headers: writer.headers })).statusCode).toBe(404);
    expect((await t.get(`${QOE_ALERT_RULES_PATH}/not-an-id`, writer.headers)).statusCode).toBe(404);
    expect((await t.get(QOE_ALERT_RULES_PATH, writer.headers)).json<{ rules: QoeAlertRule[] }>().rules.some((r) => r.id === foreign!.id)).toBe(false);
  });

  it('bad input is a 400 in words; a stale version is a 409; every write is audited with a revision', async () => {
    const base = { name: `Errors ${randomUUID().slice(0, 8)}`, metric: 'errorPct', comparison: 'above', threshold: 5, durationMinutes: 5, filters: 'device:web,ios;!isp:Slow%20Net', enabled: true };
    const post = (payload: Record<string, unknown>) => t.inject({ method: 'POST', url: QOE_ALERT_RULES_PATH, headers: writer.headers, payload });
    const refusal = async (payload: Record<string, unknown>) => {
      const res = await post(payload);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ message: string }>().message;
    };
    expect(await refusal({ ...base, metric: 'sessions' })).toBe(M.unknownMetric('sessions'));
    expect(await refusal({ ...base, metric: 'happiness' })).toBe(M.unknownMetric('happiness'));
    expect(await refusal({ ...base, threshold: 'high' })).toBe(M.thresholdNotNumber);
    expect(await refusal({ ...base, threshold: 150 })).toBe(M.thresholdRange);
    expect(await refusal({ ...base, durationMinutes: 7 })).toBe(M.badDuration);
    expect(await refusal({ ...base, filters: 'mood:happy' })).toBe(M.badFilters('"mood" is not something sessions can be filtered by.'));
    expect(await refusal({ ...base, filters: [{ dimension: 'device', values: [] }] })).toBe(M.badFilters('The Device type filter has no value: pick at least one.'));
    expect(await refusal({ ...base, name: '  ' })).toBe(M.nameRequired);
    expect(await refusal({ ...base, name: 'x'.repeat(121) })).toBe(M.nameTooLong);

    const created = await post(base);
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json<{ rule: QoeAlertRule }>().rule;
    expect(rule).toMatchObject({ version: 1, enabled: true, filters: [{ dimension: 'device', exclude: false, values: ['web', 'ios'] }, { dimension: 'isp', exclude: true, values: ['Slow Net'] }] });
    expect(await refusal({ ...base, name: base.name.toUpperCase() })).toBe(M.nameTaken(base.name.toUpperCase()));

    const put = (payload: Record<string, unknown>) => t.inject({ method: 'PUT', url: `${QOE_ALERT_RULES_PATH}/${rule.id}`, headers: writer.headers, payload });
    const saved = await put({ ...base, threshold: 3, version: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ rule: QoeAlertRule }>().rule).toMatchObject({ threshold: 3, version: 2 });
    const stale = await put({ ...base, threshold: 4, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: M.ruleConflict });
    expect((await put({ ...base, threshold: 4 })).json()).toMatchObject({ message: M.versionRequired });
    expect((await t.inject({ method: 'DELETE', url: `${QOE_ALERT_RULES_PATH}/${rule.id}?version=1`, headers: writer.headers })).statusCode).toBe(409);

    const revs = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'qoeAlertRule'), eq(revisions.objectId, rule.id))).orderBy(revisions.seq);
    expect(revs.map((r) => r.changes.map((c) => c.field))).toEqual([['name', 'metric', 'comparison', 'threshold', 'durationMinutes', 'filters', 'enabled'], ['threshold']]);
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.objectId, rule.id)).orderBy(auditEvents.seq);
    expect(audits.map((a) => a.action)).toEqual(['qoe.alert_rule.create', 'qoe.alert_rule.update']);
    const history = await t.get(`/v1/revisions/qoeAlertRule/${rule.id}`, reader.headers);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toMatchObject({ total: 2, canRestore: false });
  });

  it('alert settings: the webhook must be http(s), e-mails must be addresses, a stale version is a 409', async () => {
    const current = (await t.get(QOE_ALERT_SETTINGS_PATH, writer.headers)).json<QoeAlertSettingsAnswer>().settings;
    const put = (payload: Record<string, unknown>) => t.inject({ method: 'PUT', url: QOE_ALERT_SETTINGS_PATH, headers: writer.headers, payload });
    expect((await put({ webhookUrl: 'ftp://example.com/x', emails: [], version: current.version })).json()).toMatchObject({ message: M.webhookInvalid });
    expect((await put({ webhookUrl: 'not a url', emails: [], version: current.version })).json()).toMatchObject({ message: M.webhookInvalid });
    expect((await put({ webhookUrl: null, emails: ['nobody'], version: current.version })).json()).toMatchObject({ message: M.emailInvalid('nobody') });
    expect((await put({ webhookUrl: null, emails: [], version: current.version + 5 })).statusCode).toBe(409);
  });
});

describe('the webhook signing secret: shown once, rotated by an editor', () => {
  const rotate = (session: Session, payload: Record<string, unknown>) => t.inject({ method: 'POST', url: QOE_ALERT_SECRET_PATH, headers: session.headers, payload });
  const read = async (session: Session) => (await t.get(QOE_ALERT_SETTINGS_PATH, session.headers)).json<QoeAlertSettingsAnswer>().settings;

  it('the first save shows the secret once; reads show its fingerprint to editors only; a rotation shows the new one once, with a revision and an audit row that never hold it', async () => {
    await t.db.delete(qoeAlertSettings).where(eq(qoeAlertSettings.siteId, siteId));
    // Nothing to rotate before the first save.
    const early = await rotate(writer, { version: 0 });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ message: M.secretNoSettings });
    expect(await read(writer)).toMatchObject({ version: 0, webhookSecret: null, secretFingerprint: null });

    const first = await t.inject({ method: 'PUT', url: QOE_ALERT_SETTINGS_PATH, headers: writer.headers, payload: { webhookUrl: hookUrl, emails: [], version: 0 } });
    expect(first.statusCode, first.body).toBe(200);
    const made = first.json<QoeAlertSettingsAnswer>().settings;
    expect(made.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(made.secretFingerprint).toBe(secretFingerprint(made.webhookSecret!));
    // Read again (or saved again): the fingerprint, never the secret.
    expect(await read(writer)).toMatchObject({ version: 1, webhookSecret: null, secretFingerprint: made.secretFingerprint });
    const again = await t.inject({ method: 'PUT', url: QOE_ALERT_SETTINGS_PATH, headers: writer.headers, payload: { webhookUrl: hookUrl, emails: ['ops@example.com'], version: 1 } });
    expect(again.json<QoeAlertSettingsAnswer>().settings).toMatchObject({ version: 2, webhookSecret: null, secretFingerprint: made.secretFingerprint });
    expect(await read(reader)).toMatchObject({ webhookSecret: null, secretFingerprint: null });

    // A reader is refused; a missing or stale version is refused; nothing changes.
    expect((await rotate(reader, { version: 2 })).statusCode).toBe(403);
    expect((await rotate(writer, {})).json()).toMatchObject({ message: M.settingsVersionRequired });
    const stale = await rotate(writer, { version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: M.settingsConflict });
    expect((await t.db.select().from(qoeAlertSettings).where(eq(qoeAlertSettings.siteId, siteId)))[0]!.webhookSecret).toBe(made.webhookSecret);

    const since = (await t.db.select().from(revisions).orderBy(revisions.seq)).at(-1)?.seq ?? 0;
    const rotated = await rotate(writer, { version: 2 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<QoeAlertSettingsAnswer>().settings;
    expect(fresh.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.webhookSecret).not.toBe(made.webhookSecret);
    expect(fresh).toMatchObject({ version: 3, webhookUrl: hookUrl, emails: ['ops@example.com'], secretFingerprint: secretFingerprint(fresh.webhookSecret!) });
    expect(await read(writer)).toMatchObject({ version: 3, webhookSecret: null, secretFingerprint: fresh.secretFingerprint });

    const revs = (await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'qoeAlertSettings'), eq(revisions.objectId, siteId)))).filter((r) => r.seq > since);
    expect(revs.map((r) => r.changes)).toEqual([[
      { field: 'webhookSigning', before: `fingerprint ${made.secretFingerprint}`, after: `fingerprint ${fresh.secretFingerprint}` },
    ]]);
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'qoe.alert_settings.rotate_secret')).orderBy(auditEvents.seq);
    expect(audit).toMatchObject({ siteId, objectKind: 'qoeAlertSettings', objectId: siteId });
    for (const text of [JSON.stringify(revs), JSON.stringify(audit)]) {
      expect(text).not.toContain(made.webhookSecret);
      expect(text).not.toContain(fresh.webhookSecret);
    }

    // What is sent after the rotation is signed with the new secret only.
    const isp = `Rotate Net ${randomUUID().slice(0, 8)}`;
    const rule = await ruleFor(isp);
    const t0 = new Date();
    await sessions(isp, QOE_ALERT_MIN_SESSIONS, t0, 80);
    await evaluate(rule.id, t0);
    expect(await evaluate(rule.id, new Date(t0.getTime() + 60_000))).toMatchObject({ opened: true });
    received.length = 0;
    await t.app.services.qoeAlerts.delivery.deliver(new Date(), 500); // earlier tests' queued ones too
    const hooked = received.find((r) => r.body.includes(rule.id))!;
    const header = String(hooked.headers[QOE_WEBHOOK_SIGNATURE_HEADER]);
    expect(verifyWebhook(fresh.webhookSecret!, hooked.body, header)).toBe(true);
    expect(verifyWebhook(made.webhookSecret!, hooked.body, header)).toBe(false);
  });
});

describe('incidents by page', () => {
  it('resolved incidents page on the server (state=resolved), newest first, without the open ones; a bad state is a 400', async () => {
    const base = new Date(Date.now() - 86_400_000);
    await t.db.insert(qoeIncidents).values(Array.from({ length: QOE_INCIDENTS_PAGE_SIZE + 5 }, (_, i) => ({
      siteId, ruleId: null, ruleName: `Paged ${i}`, metric: 'errorPct', comparison: 'above', threshold: 5, filters: [], state: 'resolved',
      startedAt: new Date(base.getTime() - i * 60_000), resolvedAt: new Date(base.getTime() - i * 60_000 + 30_000), resolvedReason: 'recovered', peakValue: 9, lastValue: 1,
    })));
    const resolvedInDb = (await t.db.select().from(qoeIncidents).where(and(eq(qoeIncidents.siteId, siteId), eq(qoeIncidents.state, 'resolved')))).length;
    const page = async (n: number) => {
      const res = await t.get(`${QOE_INCIDENTS_PATH}?state=resolved&page=${n}`, reader.headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<QoeIncidentsAnswer>();
    };
    const one = await page(1);
    const two = await page(2);
    expect(one).toMatchObject({ total: resolvedInDb, page: 1, pageSize: QOE_INCIDENTS_PAGE_SIZE });
    expect(one.incidents).toHaveLength(QOE_INCIDENTS_PAGE_SIZE);
    expect(two.incidents.length).toBe(Math.min(QOE_INCIDENTS_PAGE_SIZE, resolvedInDb - QOE_INCIDENTS_PAGE_SIZE));
    expect([...one.incidents, ...two.incidents].every((i) => i.state === 'resolved')).toBe(true);
    expect(new Set([...one.incidents, ...two.incidents].map((i) => i.id)).size).toBe(one.incidents.length + two.incidents.length);
    const starts = [...one.incidents, ...two.incidents].map((i) => i.startedAt);
    expect(starts).toEqual([...starts].sort().reverse());
    const bad = await t.get(`${QOE_INCIDENTS_PATH}?state=gone`, reader.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: M.badState });
  });
});

function toRule(row: typeof qoeAlertRules.$inferSelect): QoeAlertRule {
  return {
    id: row.id, name: row.name, metric: 'errorPct', comparison: 'above', threshold: row.threshold, durationMinutes: 5, filters: row.filters, enabled: row.enabled,
    version: row.version, createdAt: '', updatedAt: '', breachingSince: null, lastValue: null, lastEvaluatedAt: null,
  };
}

describe('the Alerts help on checking a webhook call', () => {
  it('names the header the sender sends (one constant) and its recipe: lowercase hex HMAC-SHA256 of "<t>.<body>" with the secret', () => {
    expect(QOE_ALERT_MESSAGES.signatureHelp).toContain(`header ${QOE_WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<signature>`);
    expect(QOE_ALERT_MESSAGES.settingsIntro).not.toMatch(/x-[a-z]+-signature/);
    const body = '{"event":"incident.opened"}';
    const recipe = createHmac('sha256', 's3cret').update(`1700000000.${body}`).digest('hex');
    expect(signWebhook('s3cret', body, 1700000000)).toBe(`t=1700000000,v1=${recipe}`);
    expect(recipe).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the webhook address (SSRF)', () => {
  it('refuses private, loopback, link-local and local names unless allowed; accepts a public https address', () => {
    for (const url of ['http://127.0.0.1/x', 'http://localhost:8080/x', 'https://10.1.2.3/x', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x', 'http://[fd00::1]/', 'http://intranet/', 'https://db.internal/', 'http://0.0.0.0/']) {
      expect(webhookRefusal(url, false), url).toBe(M.webhookPrivate);
      expect(webhookRefusal(url, true), url).toBeNull();
    }
    for (const url of ['ftp://example.com/', 'javascript:alert(1)', 'https://user:pw@example.com/', 'nonsense']) expect(webhookRefusal(url, true), url).toBe(M.webhookInvalid);
    expect(webhookRefusal('https://hooks.example.com/alerts', false)).toBeNull();
    expect(webhookRefusal('http://93.184.216.34/alerts', false)).toBeNull();
    expect(isReservedAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isReservedAddress('172.20.0.5')).toBe(true);
    expect(isReservedAddress('8.8.8.8')).toBe(false);
  });
});
