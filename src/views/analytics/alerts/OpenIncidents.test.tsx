import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { qoeAlertCountMachine, QOE_ALERT_COUNT_POLL_MS } from '../../../../machines/qoe-alert-count.machine';
import { qoeAlertsMachine } from '../../../../machines/qoe-alerts.machine';
import { fakeActor } from '../../../../machines/test-harness/fakes';
import { QOE_ALERT_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { OpenIncidentsBadge, OpenIncidentsPanel } from './OpenIncidents';
import { alertsData, OPEN } from './alert-fixtures';
import { act } from 'react';

describe('OpenIncidentsBadge', { timeout: 20_000 }, () => {
  it('shows the count of open incidents linking to Alerts, and reads it again every 30 seconds', async () => {
    let open = 2;
    let reads = 0;
    // The 30 s of QOE_ALERT_COUNT_POLL_MS, made 30 ms here (page actors run on real time).
    expect(QOE_ALERT_COUNT_POLL_MS).toBe(30_000);
    const logic = qoeAlertCountMachine.provide({
      actors: { fetchCount: fakeActor(() => { reads += 1; return open; }) }, delays: { pollInterval: 30 },
    });
    await renderView(<OpenIncidentsBadge />, { actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeAlertCount: logic } });
    await settle();
    const link = screen.getByTestId('open-incidents-count');
    expect(link.textContent).toContain(M.headerCount(2));
    expect(link.getAttribute('href')).toBe('/analytics/alerts');
    open = 0;
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 80)); });
    await settle();
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(screen.queryByTestId('open-incidents-count')).toBeNull();
  });

  it('is left out where its logic is not provided (another page\'s view test)', async () => {
    await renderView(<OpenIncidentsBadge />, { pages: {} });
    expect(screen.queryByTestId('open-incidents-count')).toBeNull();
  });
});

describe('OpenIncidentsPanel', { timeout: 20_000 }, () => {
  it('lists the open incidents on the Dashboard, with the ways to Alerts and Saved views', async () => {
    const logic = qoeAlertsMachine.provide({ actors: { fetchAlerts: fakeActor((input: { openOnly?: boolean }) => (input.openOnly ? alertsData({ rules: [], settings: null }) : alertsData())) } });
    await renderView(<OpenIncidentsPanel />, { actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeAlerts: logic } });
    await settle();
    const list = screen.getByRole('list', { name: M.overviewTitle });
    expect(within(list).getByTestId(`incident-${OPEN.id}`).textContent).toContain(OPEN.ruleName);
    expect(screen.getByRole('link', { name: M.overviewAll }).getAttribute('href')).toBe('/analytics/alerts');
    expect(screen.getByRole('link', { name: M.overviewSaved }).getAttribute('href')).toBe('/analytics/saved');
  });

  it('says no incident is open when none is', async () => {
    const logic = qoeAlertsMachine.provide({ actors: { fetchAlerts: fakeActor(() => alertsData({ open: [] })) } });
    await renderView(<OpenIncidentsPanel />, { actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeAlerts: logic } });
    await settle();
    expect(screen.getByRole('heading', { name: M.headerNone })).toBeTruthy();
    expect(screen.queryByRole('list', { name: M.overviewTitle })).toBeNull();
  });
});
