import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { qoeAlertsMachine, ruleDraftErrors, ruleFiltersQuery, selectAlertsPhase, selectRuleFilters, settingsErrors, EMPTY_DRAFT, type QoeAlertsSnapshot, type SaveRuleInput } from './qoe-alerts.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pageHistoryMachine } from './history.machine';
import { qoeAlertCountMachine } from './qoe-alert-count.machine';
import { qoeFiltersMachine, type LoadValuesInput } from './qoe-filters.machine';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import type { QoeAlertRule, QoeValue } from '../common/qoe';
import type { AlertsData } from './qoe-alerts.machine';

const RULE: QoeAlertRule = {
  id: 'rule-1', name: 'Sports rebuffering', metric: 'rebufferPct', comparison: 'above', threshold: 2, durationMinutes: 10,
  filters: [{ dimension: 'device', exclude: false, values: ['android'] }], enabled: true, version: 3,
  createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z', breachingSince: null, lastValue: 1.2, lastEvaluatedAt: null,
};
const alertsData = (): AlertsData => ({ rules: [RULE], open: [], resolved: { items: [], total: 0, page: 1, pageSize: 20 }, settings: null });

function start(canEdit: boolean, saveRule = fakeActor((input: SaveRuleInput) => ({ ...RULE, ...input.rule, version: input.version + 1 }))) {
  const actor = createActor(qoeAlertsMachine.provide({
    actors: { fetchAlerts: fakeActor(() => alertsData()), fetchIncidents: pendingActor(), saveRule, deleteRule: pendingActor(), fetchRule: pendingActor(), saveSettings: pendingActor() },
  }), { input: { canEdit } });
  actor.start();
  return actor;
}

describe('qoeAlerts machine', () => {
  it('the editor\'s filters are the qoeFilters picker\'s (owned by the editor): counted over yesterday and today, its changes saved, gone when the editor closes', async () => {
    const calls: LoadValuesInput[] = [];
    const saved: SaveRuleInput[] = [];
    const values: QoeValue[] = [{ value: 'Slow Net', label: 'Slow Net', sessions: 40 }];
    const actor = createActor(qoeAlertsMachine.provide({
      actors: {
        fetchAlerts: fakeActor(() => alertsData()), fetchIncidents: pendingActor(), deleteRule: pendingActor(), fetchRule: pendingActor(), saveSettings: pendingActor(),
        saveRule: fakeActor((input: SaveRuleInput) => { saved.push(input); return { ...RULE, ...input.rule, version: input.version + 1 }; }),
        ruleFilters: qoeFiltersMachine.provide({ actors: { loadValues: fakeActor((input: LoadValuesInput) => { calls.push(input); return values; }), loadLabels: fakeActor(() => ({})) } }),
      },
    }), { input: { canEdit: true, today: '2026-12-06' } }).start();
    await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle');
    expect(ruleFiltersQuery('2026-12-01')).toEqual({ from: '2026-11-30', to: '2026-12-01' });
    expect(selectRuleFilters(actor.getSnapshot())).toBeUndefined();
    actor.send({ type: 'rules.edit', id: RULE.id });
    const picker = selectRuleFilters(actor.getSnapshot())!;
    expect(picker.getSnapshot().context).toMatchObject({ filters: RULE.filters, owner: 'parent', query: { from: '2026-12-05', to: '2026-12-06' } });
    picker.send({ type: 'picker.open' });
    picker.send({ type: 'picker.dimension', dimension: 'isp' });
    await waitFor(picker, (s) => s.matches('picking'));
    expect(calls).toEqual([{ dimension: 'isp', query: { from: '2026-12-05', to: '2026-12-06' } }]);
    picker.send({ type: 'picker.mode', exclude: true });
    picker.send({ type: 'picker.toggle', value: 'Slow Net' });
    picker.send({ type: 'picker.apply' });
    const expected = [...RULE.filters, { dimension: 'isp', exclude: true, values: ['Slow Net'] }];
    expect(actor.getSnapshot().context.draft.filters).toEqual(expected);
    picker.send({ type: 'filters.remove', index: 0 });
    expect(actor.getSnapshot().context.draft.filters).toEqual(expected.slice(1));
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle');
    expect(saved[0]!.rule.filters).toEqual(expected.slice(1));
    expect(selectRuleFilters(actor.getSnapshot())).toBeUndefined();
    // A new rule starts a new picker on no filters; Cancel (nothing changed) stops it.
    actor.send({ type: 'rules.new' });
    expect(selectRuleFilters(actor.getSnapshot())!.getSnapshot().context.filters).toEqual([]);
    actor.send({ type: 'editor.cancel' });
    expect(selectRuleFilters(actor.getSnapshot())).toBeUndefined();
    actor.stop();
  });

  it('a reader cannot open the editor, turn a rule off or delete it', async () => {
    const actor = start(false);
    await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle');
    for (const event of [{ type: 'rules.new' }, { type: 'rules.edit', id: RULE.id }, { type: 'rules.toggle', id: RULE.id }, { type: 'rules.delete', id: RULE.id }] as const) {
      actor.send(event);
      expect(selectAlertsPhase(actor.getSnapshot())).toBe('idle');
    }
  });

  it('turning a rule off sends it with enabled false at the version read, and says what it means', async () => {
    const actor = start(true);
    await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle');
    actor.send({ type: 'rules.toggle', id: RULE.id });
    const done = await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle' && s.context.notice !== null);
    expect(done.context.rules[0]).toMatchObject({ enabled: false, version: 4 });
    expect(done.context.notice).toBe(M.turnedOff(RULE.name));
  });

  it('checks a draft: name, a numeric threshold, percentages up to 100, values for every filter; settings: https webhook and addresses', () => {
    expect(ruleDraftErrors(EMPTY_DRAFT)).toEqual({ name: M.nameRequired, threshold: M.thresholdRequired });
    expect(ruleDraftErrors({ ...EMPTY_DRAFT, name: 'x', metric: 'errorPct', threshold: '101', filters: [{ dimension: 'isp', exclude: false, values: [] }] }))
      .toEqual({ threshold: M.thresholdRange, filters: M.filterNeedsValues });
    expect(ruleDraftErrors({ ...EMPTY_DRAFT, name: 'x', metric: 'startupP95Ms', threshold: '4000,5' })).toEqual({});
    expect(settingsErrors({ webhookUrl: 'ftp://x', emails: 'a@b.co\nnope' })).toEqual({ webhookUrl: M.webhookInvalid, emails: M.emailInvalid('nope') });
    expect(settingsErrors({ webhookUrl: '', emails: '' })).toEqual({});
  });
});

describe('qoeAlerts: the webhook signing secret', () => {
  const saved = { webhookUrl: 'https://hooks.example.com/x', emails: [], version: 1, secretFingerprint: '1a2b3c4d' };
  function startWith(canEdit: boolean, settings: AlertsData['settings'], rotateSecret = fakeActor((input: { version: number }) => ({ ...saved, version: input.version + 1, secretFingerprint: '5e6f7a8b', webhookSecret: 'b'.repeat(64) }))) {
    const actor = createActor(qoeAlertsMachine.provide({
      actors: {
        fetchAlerts: fakeActor(() => ({ ...alertsData(), settings })), fetchIncidents: pendingActor(), saveRule: pendingActor(), deleteRule: pendingActor(),
        fetchRule: pendingActor(), saveSettings: fakeActor(() => ({ ...saved, webhookSecret: 'a'.repeat(64) })), rotateSecret,
      },
    }), { input: { canEdit } });
    actor.start();
    return actor;
  }

  it('an editor rotates only after confirming, with the version read; the new secret is kept until dismissed, the fingerprint follows', async () => {
    const actor = startWith(true, saved);
    await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle');
    actor.send({ type: 'secret.rotate' });
    expect(selectAlertsPhase(actor.getSnapshot())).toBe('confirmingRotate');
    actor.send({ type: 'rotate.cancel' });
    expect(selectAlertsPhase(actor.getSnapshot())).toBe('idle');
    actor.send({ type: 'secret.rotate' });
    actor.send({ type: 'rotate.confirm' });
    const done = await waitFor(actor, (s) => selectAlertsPhase(s) === 'idle' && s.context.newSecret !== null);
    expect(done.context).toMatchObject({ newSecret: 'b'.repeat(64), notice: M.secretRotated, settings: { version: 2, secretFingerprint: '5e6f7a8b' } });
    expect(JSON.stringify(done.context.settings)).not.toContain('b'.repeat(64));
    actor.send({ type: 'secret.dismiss' });
    expect(actor.getSnapshot().context.newSecret).toBeNull();
  });

  it('a reader, or an editor before the first save, is offered no rotation; the first save shows the secret it made', async () => {
    const reader = startWith(false, null);
    await waitFor(reader, (s) => selectAlertsPhase(s) === 'idle');
    reader.send({ type: 'secret.rotate' });
    expect(selectAlertsPhase(reader.getSnapshot())).toBe('idle');
    const first = startWith(true, { ...saved, version: 0, secretFingerprint: null, webhookUrl: null });
    await waitFor(first, (s) => selectAlertsPhase(s) === 'idle');
    first.send({ type: 'secret.rotate' });
    expect(selectAlertsPhase(first.getSnapshot())).toBe('idle');
    first.send({ type: 'settings.save' });
    const done = await waitFor(first, (s) => selectAlertsPhase(s) === 'idle' && s.context.newSecret !== null);
    expect(done.context).toMatchObject({ newSecret: 'a'.repeat(64), notice: M.settingsSavedWithSecret, settings: { version: 1, secretFingerprint: '1a2b3c4d' } });
  });
});

describe('qoeAlertCount machine', () => {
  it('reads the count while visible and stops while the tab is hidden', async () => {
    let reads = 0;
    const actor = createActor(qoeAlertCountMachine.provide({ actors: { fetchCount: fakeActor(() => { reads += 1; return 3; }) } }));
    actor.start();
    await waitFor(actor, (s) => s.context.open === 3);
    actor.send({ type: 'page.hidden' });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
    actor.send({ type: 'page.visible' });
    await waitFor(actor, () => reads === 2);
    expect(actor.getSnapshot().matches({ visible: 'waiting' }) || actor.getSnapshot().matches({ visible: 'reading' })).toBe(true);
  });
});

describe('qoeAlerts: every path', () => {
  const status = (code: number) => Object.assign(new Error(`status ${code}`), { status: code });
  const events = [
    { type: 'alerts.retry' },
    { type: 'alerts.refresh' },
    { type: 'incidents.page', page: 2 },
    { type: 'rules.new' },
    { type: 'rules.edit', id: RULE.id },
    { type: 'rules.toggle', id: RULE.id },
    { type: 'rules.delete', id: RULE.id },
    { type: 'rules.history', id: RULE.id },
    { type: 'rules.closeHistory' },
    { type: 'draft.change', patch: { name: 'Night rebuffering', threshold: '5' } },
    { type: 'filters.changed', filters: [{ dimension: 'isp', exclude: false, values: ['Slow Net'] }] },
    { type: 'filters.changed', filters: [] },
    { type: 'editor.save' },
    { type: 'editor.cancel' },
    { type: 'discard.confirm' },
    { type: 'discard.cancel' },
    { type: 'conflict.reload' },
    { type: 'conflict.keep' },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: 'settings.change', patch: { webhookUrl: 'ftp://x' } },
    { type: 'settings.change', patch: { webhookUrl: '' } },
    { type: 'settings.save' },
    { type: 'history.restored' },
    { type: 'history.stale' },
    { type: 'xstate.done.actor.fetchAlerts', output: alertsData() },
    { type: 'xstate.error.actor.fetchAlerts', error: status(500) },
    { type: 'xstate.done.actor.fetchIncidents', output: { items: [], total: 0, page: 2, pageSize: 20 } },
    { type: 'xstate.error.actor.fetchIncidents', error: status(500) },
    { type: 'xstate.done.actor.saveRule', output: { ...RULE, version: 4 } },
    { type: 'xstate.error.actor.saveRule', error: status(409) },
    { type: 'xstate.error.actor.saveRule', error: status(404) },
    { type: 'xstate.error.actor.saveRule', error: status(500) },
    { type: 'xstate.done.actor.toggleRule', output: { ...RULE, enabled: false, version: 4 } },
    { type: 'xstate.error.actor.toggleRule', error: status(500) },
    { type: 'xstate.done.actor.deleteRule', output: null },
    { type: 'xstate.error.actor.deleteRule', error: status(500) },
    { type: 'xstate.done.actor.fetchRule', output: { ...RULE, version: 4 } },
    { type: 'xstate.error.actor.fetchRule', error: status(500) },
    { type: 'xstate.done.actor.saveSettings', output: { webhookUrl: null, emails: [], version: 1, secretFingerprint: '1a2b3c4d', webhookSecret: 'a'.repeat(64) } },
    { type: 'xstate.error.actor.saveSettings', error: status(500) },
    { type: 'secret.rotate' },
    { type: 'rotate.confirm' },
    { type: 'rotate.cancel' },
    { type: 'secret.dismiss' },
    { type: 'xstate.done.actor.rotateSecret', output: { webhookUrl: null, emails: [], version: 2, secretFingerprint: '5e6f7a8b', webhookSecret: 'b'.repeat(64) } },
    { type: 'xstate.error.actor.rotateSecret', error: status(409) },
  ];
  itReachesEveryStateAndTransition(qoeAlertsMachine, {
    events,
    input: { canEdit: true },
    logic: qoeAlertsMachine.provide({
      actors: {
        fetchAlerts: pendingActor(), fetchIncidents: pendingActor(), saveRule: pendingActor(), deleteRule: pendingActor(),
        fetchRule: pendingActor(), saveSettings: pendingActor(), rotateSecret: pendingActor(),
        ruleHistory: pageHistoryMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
        ruleFilters: qoeFiltersMachine.provide({ actors: { loadValues: pendingActor(), loadLabels: pendingActor() } }),
      },
    }),
    serializeState: (s) => {
      const c = (s as QoeAlertsSnapshot).context;
      return JSON.stringify([
        s.value, c.rules.length, c.editingId, c.targetId !== null, c.historyOf !== null, Math.min(c.draft.filters.length, 1),
        Object.keys(ruleDraftErrors(c.draft)).length === 0, JSON.stringify(c.draft) === JSON.stringify(c.original),
        Object.keys(settingsErrors(c.settingsDraft)).length === 0, (c.settings?.version ?? 0) > 0, c.newSecret !== null,
      ]);
    },
  });
});
