import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { qoeAlertsMachine, type SaveRuleInput } from '../../../../machines/qoe-alerts.machine';
import { fakeActor, pendingActor } from '../../../../machines/test-harness/fakes';
import { QOE_ALERT_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { figureHelp } from '../../../../common/figures';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { AlertsPage } from './AlertsPage';
import { QOE_WEBHOOK_SIGNATURE_HEADER } from '../../../../common/qoe';
import { alertsData, RESOLVED, RULE } from './alert-fixtures';
import { fakeQoeFilters } from '../../../test-harness/qoe-fixtures';
import { QOE_PAGE_MESSAGES as QM } from '../../../../common/messages/qoe';

const DEVICES = [{ value: 'web', label: 'Web', sessions: 30 }, { value: 'ios', label: 'iOS', sessions: 12 }, { value: 'android', label: 'Android', sessions: 7 }];

function renderAlerts(roles: Record<string, 'read' | 'write'>, actors: Record<string, ReturnType<typeof fakeActor>> = {}) {
  const picker = fakeQoeFilters(() => DEVICES);
  const saveRule = vi.fn((input: SaveRuleInput) => ({ ...RULE, ...input.rule, id: input.id ?? 'rule-new', version: input.version + 1 }));
  const deleteRule = vi.fn(() => ({ success: true }));
  const logic = qoeAlertsMachine.provide({
    actors: {
      fetchAlerts: fakeActor(() => alertsData()), fetchIncidents: pendingActor(), saveRule: fakeActor(saveRule), deleteRule: fakeActor(deleteRule),
      fetchRule: fakeActor(() => ({ ...RULE, name: 'Renamed elsewhere', version: 4 })), saveSettings: pendingActor(), rotateSecret: pendingActor(), ruleFilters: picker.logic, ...actors,
    },
  });
  const view = renderView(<AlertsPage />, { url: '/analytics/alerts', actors: signedInAs(roles), pages: { qoeAlerts: logic } });
  return { view, saveRule, deleteRule, picker };
}

describe('AlertsPage', { timeout: 20_000 }, () => {
  it('shows open incidents first with the metric, its definition, threshold, start, peak and the filtered report; resolved below', async () => {
    const { view } = renderAlerts({ 'Dashboard 360': 'read' });
    await view;
    await settle();
    const open = screen.getByRole('list', { name: M.openTitle });
    const item = within(open).getByTestId('incident-inc-1');
    expect(item.textContent).toContain('Sports rebuffering');
    expect(item.textContent).toContain('Rebuffer ratio (%) above 2 %');
    expect(item.textContent).toContain(figureHelp('rebufferPct'));
    expect(item.textContent).toContain('7.5 %');
    expect(item.textContent).toContain('Device type is android, web; ISP is not Slow Net');
    expect(within(item).getByRole('link', { name: M.openReport }).getAttribute('href')).toContain('/analytics/qos-overall?f=device');
    const resolved = screen.getByRole('list', { name: M.resolvedTitle });
    expect(within(resolved).getAllByRole('listitem')).toHaveLength(1);
    expect(within(resolved).getByTestId('incident-inc-0')).toBeTruthy();
  });

  it('a reader sees the rules but nothing they cannot do: no New rule, Edit, Delete, on/off or alert settings', async () => {
    const { view } = renderAlerts({ 'Dashboard 360': 'read' });
    await view;
    await settle();
    const rules = screen.getByRole('list', { name: M.rulesTitle });
    expect(within(rules).getByText('Sports rebuffering')).toBeTruthy();
    expect(screen.queryByRole('button', { name: M.newRule })).toBeNull();
    expect(screen.queryByRole('button', { name: `${M.editRule}: Sports rebuffering` })).toBeNull();
    expect(screen.queryByRole('button', { name: `${M.deleteRule}: Sports rebuffering` })).toBeNull();
    expect(screen.queryByRole('button', { name: `${M.disable}: Sports rebuffering` })).toBeNull();
    expect(screen.queryByRole('form', { name: M.settingsTitle })).toBeNull();
  });

  it('an editor creates a rule: the threshold is checked, then the rule is sent with the filters picked in the chips and picker', async () => {
    const { view, saveRule, picker } = renderAlerts({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await settle();
    await user.click(screen.getByRole('button', { name: M.newRule }));
    const form = screen.getByRole('form', { name: M.editorNewTitle });
    await user.type(within(form).getByLabelText(M.name), 'Errors on web');
    await user.selectOptions(within(form).getByLabelText(M.metric), 'errorPct');
    await user.type(within(form).getByLabelText(/^Threshold/), '150');
    await user.click(within(form).getByRole('button', { name: M.save }));
    expect(form.textContent).toContain(M.thresholdRange);
    expect(saveRule).not.toHaveBeenCalled();
    await user.clear(within(form).getByLabelText(/^Threshold/));
    await user.type(within(form).getByLabelText(/^Threshold/), '5');
    expect(within(form).getByTestId('qoe-filter-help').textContent).toBe(M.filtersHelp);
    expect(within(form).getByText(QM.noFilters)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: QM.addFilter }));
    const group = within(form).getByRole('group', { name: QM.addFilter });
    await user.selectOptions(within(group).getByLabelText(QM.dimension), 'Device type');
    await settle();
    // Counted over yesterday and today (the site's).
    expect(picker.calls.map((c) => c.dimension)).toEqual(['device']);
    expect(picker.calls[0]!.query.to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(within(group).getAllByRole('listitem').map((li) => li.textContent)).toEqual([' Web30 sessions', ' iOS12 sessions', ' Android7 sessions']);
    await user.click(within(group).getByRole('checkbox', { name: /Web/ }));
    await user.click(within(group).getByRole('checkbox', { name: /iOS/ }));
    await user.click(within(group).getByRole('button', { name: QM.apply }));
    expect(saveRule).not.toHaveBeenCalled();
    expect(within(form).getAllByTestId('qoe-chip').map((c) => c.firstChild!.textContent)).toEqual(['Device type is web, ios']);
    // A value no session has had yet: typed in Search (Enter picks it, it does not save the rule), then removed again by its chip.
    await user.click(within(form).getByRole('button', { name: QM.addFilter }));
    await user.selectOptions(within(form).getByLabelText(QM.dimension), 'ISP');
    await settle();
    await user.type(within(form).getByLabelText(QM.search), 'New Net');
    await user.click(within(form).getByRole('checkbox', { name: new RegExp(QM.typedValue('New Net')) }));
    await user.type(within(form).getByLabelText(QM.search), '{Enter}');
    expect(saveRule).not.toHaveBeenCalled();
    expect(within(form).getAllByTestId('qoe-chip').map((c) => c.firstChild!.textContent)).toEqual(['Device type is web, ios', 'ISP is New Net']);
    await user.click(within(form).getByRole('button', { name: QM.removeFilter('ISP is New Net') }));
    await user.click(within(form).getByRole('button', { name: M.save }));
    await settle();
    expect(saveRule).toHaveBeenCalledWith({
      id: null, version: 0,
      rule: { name: 'Errors on web', metric: 'errorPct', comparison: 'above', threshold: 5, durationMinutes: 10, filters: [{ dimension: 'device', exclude: false, values: ['web', 'ios'] }], enabled: true },
    });
    expect(screen.getByRole('status').textContent).toBe(M.created('Errors on web'));
  });

  it('closing the editor with changes asks first; a save refused on version offers to reload the rule', async () => {
    const conflict = Object.assign(new Error('changed'), { status: 409 });
    const { view } = renderAlerts({ 'Dashboard 360': 'write' }, { saveRule: fakeActor(() => { throw conflict; }) });
    const { user } = await view;
    await settle();
    await user.click(screen.getByRole('button', { name: `${M.editRule}: Sports rebuffering` }));
    const form = screen.getByRole('form', { name: M.editorEditTitle('Sports rebuffering') });
    await user.type(within(form).getByLabelText(M.name), ' (web)');
    await user.click(within(form).getByRole('button', { name: M.cancel }));
    expect(screen.getByRole('dialog').textContent).toContain(M.discardBody);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: M.keepEditing }));
    await settle();
    await user.click(within(form).getByRole('button', { name: M.save }));
    await settle();
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain(M.conflictTitle);
    await user.click(within(dialog).getByRole('button', { name: M.conflictReload }));
    await settle();
    expect((screen.getByLabelText(M.name) as HTMLInputElement).value).toBe('Renamed elsewhere');
  });

  it('delete asks first and says what it does (its open incident closes), then deletes with the version read', async () => {
    const { view, deleteRule } = renderAlerts({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await settle();
    await user.click(screen.getByRole('button', { name: `${M.deleteRule}: Sports rebuffering` }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain(M.deleteBody(1));
    await user.click(within(dialog).getByRole('button', { name: M.deleteConfirm }));
    await settle();
    expect(deleteRule).toHaveBeenCalledWith({ id: 'rule-1', version: 3 });
  });

  it('an editor sees how to check a webhook call (the header the sender sends, HMAC-SHA256 of "t.body", hex) and the secret\'s fingerprint; a rotation asks first and shows the new secret once', async () => {
    const rotateSecret = vi.fn((input: { version: number }) => ({
      webhookUrl: 'https://hooks.example.com/cms', emails: ['ops@example.com'], version: input.version + 1, secretFingerprint: '5e6f7a8b', webhookSecret: 'c'.repeat(64),
    }));
    const { view } = renderAlerts({ 'Dashboard 360': 'write' }, { rotateSecret: fakeActor(rotateSecret) });
    const { user } = await view;
    await settle();
    const form = screen.getByRole('form', { name: M.settingsTitle });
    const help = within(form).getByTestId('signature-help').textContent ?? '';
    expect(help).toContain(QOE_WEBHOOK_SIGNATURE_HEADER);
    expect(help).toContain('t=<unix seconds>,v1=<signature>');
    expect(help).toMatch(/HMAC-SHA256 of the text “<t>\.<body>”/);
    expect(help).toContain('lowercase hexadecimal');
    expect(within(form).getByTestId('secret-fingerprint').textContent).toBe(M.secretInUse('1a2b3c4d'));
    expect(within(form).queryByTestId('webhook-secret')).toBeNull();
    await user.click(within(form).getByRole('button', { name: M.rotateSecret }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain(M.rotateBody);
    expect(rotateSecret).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: M.rotateConfirm }));
    await settle();
    expect(rotateSecret).toHaveBeenCalledWith({ version: 1 });
    expect(within(form).getByTestId('webhook-secret').textContent).toBe('c'.repeat(64));
    expect(within(form).getByTestId('secret-fingerprint').textContent).toBe(M.secretInUse('5e6f7a8b'));
    await user.click(within(form).getByRole('button', { name: M.dismissSecret }));
    expect(within(form).queryByTestId('webhook-secret')).toBeNull();
  });

  it('a reader is offered no secret, no rotation and no signature settings', async () => {
    const { view } = renderAlerts({ 'Dashboard 360': 'read' });
    await view;
    await settle();
    expect(screen.queryByRole('button', { name: M.rotateSecret })).toBeNull();
    expect(screen.queryByTestId('secret-fingerprint')).toBeNull();
  });

  it('resolved incidents show one server page with a pager; the next page is asked of the server', async () => {
    const fetchIncidents = vi.fn((input: { page: number }) => ({ items: [{ ...RESOLVED, id: 'inc-p2' }], total: 21, page: input.page, pageSize: 20 }));
    const { view } = renderAlerts({ 'Dashboard 360': 'read' }, {
      fetchAlerts: fakeActor(() => alertsData({ resolved: { items: [RESOLVED], total: 21, page: 1, pageSize: 20 } })), fetchIncidents: fakeActor(fetchIncidents),
    });
    const { user } = await view;
    await settle();
    const pager = screen.getByRole('navigation', { name: M.resolvedTitle });
    expect(pager.textContent).toContain(M.pageOf(1, 2));
    await user.click(within(pager).getByRole('button', { name: M.nextPage }));
    await settle();
    expect(fetchIncidents).toHaveBeenCalledWith({ page: 2 });
    expect(within(screen.getByRole('list', { name: M.resolvedTitle })).getByTestId('incident-inc-p2')).toBeTruthy();
  });

  it('an editor sees where alerts are sent, checked before saving', async () => {
    const { view } = renderAlerts({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await settle();
    const form = screen.getByRole('form', { name: M.settingsTitle });
    expect((within(form).getByLabelText(M.webhookUrl) as HTMLInputElement).value).toBe('https://hooks.example.com/cms');
    await user.clear(within(form).getByLabelText(M.emails));
    await user.type(within(form).getByLabelText(M.emails), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: M.saveSettings }));
    expect(form.textContent).toContain(M.emailInvalid('not-an-address'));
  });
});
