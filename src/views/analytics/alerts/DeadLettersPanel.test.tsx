import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { IngestDeadLetterCounts } from '../../../../common/ingest-contract';
import { INGEST_DEAD_LETTER_MESSAGES as M, INGEST_DEAD_LETTER_REASON_WORDS as WORDS } from '../../../../common/messages/ingest-dead-letters';
import { QOE_ALERT_MESSAGES } from '../../../../common/messages/qoe-alerts';
import { ingestDeadLettersMachine } from '../../../../machines/ingest-dead-letters.machine';
import { qoeAlertsMachine } from '../../../../machines/qoe-alerts.machine';
import { fakeActor, pendingActor } from '../../../../machines/test-harness/fakes';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { alertsData } from './alert-fixtures';
import { AlertsPage } from './AlertsPage';

const NONE: IngestDeadLetterCounts = {
  success: true, total: 0,
  reasons: (['session-start-missing', 'subscriber-missing', 'content-missing', 'network-missing', 'unreadable-message'] as const)
    .map((reason) => ({ reason, events: 0, lastAt: null })),
};
const SOME: IngestDeadLetterCounts = {
  success: true, total: 1_205,
  reasons: NONE.reasons.map((r) => (r.reason === 'session-start-missing' ? { ...r, events: 1_204, lastAt: '2026-12-06T20:01:02.000Z' }
    : r.reason === 'content-missing' ? { ...r, events: 1, lastAt: '2026-11-30T07:45:00.000Z' } : r)),
};

function renderAlertsWith(fetchDeadLetters: ReturnType<typeof fakeActor>, fetchAlerts = fakeActor(() => alertsData())) {
  const pages = {
    qoeAlerts: qoeAlertsMachine.provide({ actors: { fetchAlerts, fetchIncidents: pendingActor() } }),
    ingestDeadLetters: ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters } }),
  };
  return renderView(<AlertsPage />, { url: '/analytics/alerts', actors: signedInAs({ 'Dashboard 360': 'read' }), pages });
}

const panel = () => within(screen.getByRole('region', { name: M.title }));

describe('Alerts › Player events not placed', { timeout: 20_000 }, () => {
  it('shows the total and every reason with its meaning, its count and its newest event\'s time (— where none)', async () => {
    await renderAlertsWith(fakeActor(() => SOME));
    await settle();
    expect(panel().getByTestId('dead-letters-total').textContent).toBe('1,205 events not placed');
    const rows = panel().getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('span')?.textContent)).toEqual([
      WORDS['session-start-missing'].label, WORDS['subscriber-missing'].label, WORDS['content-missing'].label,
      WORDS['network-missing'].label, WORDS['unreadable-message'].label,
    ]);
    const start = panel().getByTestId('dead-letters-session-start-missing');
    expect(start.textContent).toContain('1,204 events');
    expect(start.textContent).toContain(WORDS['session-start-missing'].help);
    expect(start.textContent).toContain('Last: 6 Dec 2026, 20:01');
    expect(panel().getByTestId('dead-letters-content-missing').textContent).toContain('1 event');
    expect(panel().getByTestId('dead-letters-content-missing').textContent).toContain('Last: 30 Nov 2026, 07:45');
    const network = panel().getByTestId('dead-letters-network-missing');
    expect(network.textContent).toContain('0 events');
    expect(network.textContent).toContain(`Last: ${M.never}`);
    expect(panel().queryByTestId('dead-letters-empty')).toBeNull();
    // Read-only: nothing to change, only to read again.
    expect(panel().getAllByRole('button').map((b) => b.textContent)).toEqual([M.refresh]);
  });

  it('says no event was refused when the total is 0, and Refresh reads again', async () => {
    const read = vi.fn(() => NONE);
    await renderAlertsWith(fakeActor(read));
    await settle();
    expect(panel().getByTestId('dead-letters-empty').textContent).toBe(M.empty);
    expect(panel().queryByRole('list')).toBeNull();
    fireEvent.click(panel().getByRole('button', { name: M.refresh }));
    await settle();
    expect(read).toHaveBeenCalledTimes(2);
    expect(panel().getByTestId('dead-letters-empty')).toBeTruthy();
  });

  it('says it is loading until the first answer', async () => {
    await renderAlertsWith(pendingActor());
    await settle();
    expect(panel().getByText(M.loading)).toBeTruthy();
    expect(screen.getByRole('region', { name: M.title }).getAttribute('aria-busy')).toBe('true');
  });

  it('a failed read shows the reason and Try again, which reads again', async () => {
    let calls = 0;
    const fetchDeadLetters = fromPromise<IngestDeadLetterCounts>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('You cannot read Dashboard 360 on this site.');
      return SOME;
    });
    await renderAlertsWith(fetchDeadLetters);
    await settle();
    expect(panel().getByRole('alert').textContent).toBe('You cannot read Dashboard 360 on this site.');
    fireEvent.click(panel().getByRole('button', { name: M.retry }));
    await settle();
    expect(calls).toBe(2);
    expect(panel().queryByRole('alert')).toBeNull();
    expect(panel().getByTestId('dead-letters-total').textContent).toBe('1,205 events not placed');
  });

  it('stays on the page when the alerts themselves could not be read, and is not read again when they are', async () => {
    const read = vi.fn(() => SOME);
    let alertReads = 0;
    const fetchAlerts = fromPromise(async () => {
      alertReads += 1;
      if (alertReads === 1) throw new Error('down');
      return alertsData();
    });
    await renderAlertsWith(fakeActor(read), fetchAlerts);
    await settle();
    expect(panel().getByTestId('dead-letters-total').textContent).toBe('1,205 events not placed');
    fireEvent.click(screen.getByRole('button', { name: QOE_ALERT_MESSAGES.retry }));
    await settle();
    expect(screen.getByRole('heading', { name: `${QOE_ALERT_MESSAGES.openTitle} (1)` })).toBeTruthy();
    expect(panel().getByTestId('dead-letters-total').textContent).toBe('1,205 events not placed');
    expect(read).toHaveBeenCalledTimes(1);
  });
});
