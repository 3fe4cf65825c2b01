import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { qoeAlertsMachine, ruleDraftErrors, selectAlertsPhase, settingsErrors, EMPTY_DRAFT, type SaveRuleInput } from './qoe-alerts.machine';
import { qoeAlertCountMachine } from './qoe-alert-count.machine';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import type { QoeAlertRule } from '../common/qoe';
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
