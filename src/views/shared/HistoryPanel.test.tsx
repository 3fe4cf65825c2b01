import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { HISTORY_PANEL_MESSAGES } from '../../../common/revisions';
import { historyMachine } from '../../../machines/history.machine';
import { historyFakeActors, historyFakes, revision, type HistoryFakes } from '../../test-harness/history-fakes';
import { renderView } from '../../test-harness/render-view';
import { HistoryPanel } from './HistoryPanel';
import { describeChange, fieldLabel, formatValue } from './revision-text';

const price = (amount: number) => [{ currency: 'USD', amount }];
const PLAN_A = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function fakesWith(patch: Partial<HistoryFakes> = {}): HistoryFakes {
  return {
    ...historyFakes(),
    revisions: {
      p1: [
        revision(3, [{ field: 'prices', before: price(999), after: price(1299) }], { at: '2026-11-21T09:05:00.000Z' }),
        revision(2, [{ field: 'planIds', before: [], after: [PLAN_A] }, { field: 'trialDays', before: 7, after: 14 }], { actor: null, reason: 'Price review' }),
      ],
    },
    ...patch,
  };
}

async function show(fakes: HistoryFakes, version?: number) {
  const history = createActor(historyMachine.provide({ actors: historyFakeActors(fakes) }), { input: { kind: 'plan', objectId: 'p1' } }).start();
  const view = await renderView(<HistoryPanel history={history} {...(version === undefined ? {} : { version })} />);
  await screen.findByRole('list', { name: 'Revisions, newest first' });
  return { view, history };
}

describe('HistoryPanel', () => {
  it('lists the revisions newest first: who, when, what changed in words and values, never ids or JSON', async () => {
    await show(fakesWith());
    const items = within(screen.getByRole('list', { name: 'Revisions, newest first' })).getAllByRole('listitem').filter((li) => li.dataset.testid);
    expect(items.map((li) => li.dataset.testid)).toEqual(['revision-3', 'revision-2']);
    expect(items[0]!.textContent).toContain('21 Nov 2026, 09:05');
    expect(items[0]!.textContent).toContain('by monetization@demo.test');
    expect(items[0]!.textContent).toContain('Price: 9.99 USD → 12.99 USD');
    expect(items[1]!.textContent).toContain('by the system');
    expect(items[1]!.textContent).toContain('Reason: Price review');
    expect(items[1]!.textContent).toContain('Plans: (none) → 1 plan');
    expect(items[1]!.textContent).toContain('Trial days: 7 → 14');
    expect(screen.getByTestId('history-panel').textContent).not.toContain(PLAN_A);
    expect(screen.getByTestId('history-panel').textContent).not.toContain('{');
  });

  it('issue 37: the revision that created the object is compared but never offered for Restore, and says why', async () => {
    const fakes = fakesWith({ revisions: { p1: [
      revision(2, [{ field: 'trialDays', before: 7, after: 14 }]),
      { ...revision(1, [{ field: 'name', before: null, after: 'Basic' }, { field: 'trialDays', before: null, after: 7 }]), creation: true },
    ] } });
    const { view } = await show(fakes, 5);
    await view.user.click(within(screen.getByTestId('revision-1')).getByRole('button', { name: 'Compare with now' }));
    const diff = screen.getByTestId('revision-diff');
    expect(diff.textContent).toContain(HISTORY_PANEL_MESSAGES.creation);
    expect(within(diff).queryByRole('button', { name: /^Restore/ })).toBeNull();
    await view.user.click(within(screen.getByTestId('revision-2')).getByRole('button', { name: 'Compare with now' }));
    expect(within(screen.getByTestId('revision-diff')).getByRole('button', { name: 'Restore the values before #2' })).toBeTruthy();
    expect(screen.getByTestId('revision-diff').textContent).not.toContain(HISTORY_PANEL_MESSAGES.creation);
  });

  it('shows a revision against now, says what Restore will do, and restores with the editor\'s version', async () => {
    const fakes = fakesWith();
    const { view } = await show(fakes, 5);
    await view.user.click(within(screen.getByTestId('revision-3')).getByRole('button', { name: 'Compare with now' }));
    const diff = screen.getByTestId('revision-diff');
    expect(within(diff).getByRole('rowheader', { name: 'Price' })).toBeTruthy();
    expect(within(diff).getAllByRole('cell').map((c) => c.textContent)).toEqual(['9.99 USD', '12.99 USD', '12.99 USD']);
    await view.user.click(within(diff).getByRole('button', { name: 'Restore the values before #3' }));
    const dialog = screen.getByRole('dialog', { name: HISTORY_PANEL_MESSAGES.confirmTitle(3) });
    expect(dialog.textContent).toContain('Price: 12.99 USD → 9.99 USD');
    expect(dialog.textContent).toContain(HISTORY_PANEL_MESSAGES.confirmBody(1));
    expect(fakes.restores).toEqual([]);
    await view.user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.getByText(HISTORY_PANEL_MESSAGES.nothingRestored(3))).toBeTruthy());
    expect(fakes.restores).toEqual([{ seq: 3, version: 5 }]);
  });

  it('a stale version: the conflict is said, nothing restored, and Reload reads the history again', async () => {
    const fakes = fakesWith({ restoreError: Object.assign(new Error('stale'), { status: 409 }) });
    const { view } = await show(fakes, 2);
    await view.user.click(within(screen.getByTestId('revision-3')).getByRole('button', { name: 'Compare with now' }));
    await view.user.click(screen.getByRole('button', { name: 'Restore the values before #3' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(HISTORY_PANEL_MESSAGES.conflict);
    const loads = fakes.loads.length;
    await view.user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(fakes.loads.length).toBe(loads + 1));
  });

  it('a read role sees the history and the comparison without Restore, and is told why', async () => {
    const { view } = await show(fakesWith({ canRestore: false }));
    expect(screen.getByText(HISTORY_PANEL_MESSAGES.readOnly)).toBeTruthy();
    await view.user.click(within(screen.getByTestId('revision-3')).getByRole('button', { name: 'Compare with now' }));
    expect(screen.getByTestId('revision-diff')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('reads a creation as the values it was created with, leaving out the empty ones', async () => {
    const fakes = fakesWith();
    fakes.revisions.p1 = [revision(1, [{ field: 'name', before: null, after: 'Basic' }, { field: 'description', before: null, after: '' }, { field: 'prices', before: null, after: price(999) }])];
    await show(fakes);
    const item = screen.getByTestId('revision-1');
    expect(item.textContent).toContain('Created with:');
    expect(within(item).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Name: Basic', 'Price: 9.99 USD']);
  });

  it('says when no change is recorded yet', async () => {
    const fakes = fakesWith();
    fakes.revisions.p1 = [];
    await renderView(<HistoryPanel history={createActor(historyMachine.provide({ actors: historyFakeActors(fakes) }), { input: { kind: 'plan', objectId: 'p1' } }).start()} />);
    expect(await screen.findByText(HISTORY_PANEL_MESSAGES.empty)).toBeTruthy();
  });
});

describe('revision text', () => {
  it('labels fields in words and values as an operator reads them', () => {
    // Issue 38: a brand's nested fields read the Brand page's labels (one mapping with the audit log, common/field-labels.ts).
    expect(fieldLabel('theme.primaryColor')).toBe('Web primary colour');
    expect(fieldLabel('themeOtt.fontFamily')).toBe('OTT (TV) font');
    expect(fieldLabel('themeApps.unknownPart')).toBe('Mobile apps › Unknown part');
    expect(fieldLabel('maxStreams')).toBe('Simultaneous streams');
    expect(fieldLabel(`note.${PLAN_A}`)).toBe('Note');
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue('archived', 'status')).toBe('Archived');
    expect(formatValue('partially_refunded', 'payment.status')).toBe('Partly refunded');
    expect(formatValue('archived', 'name')).toBe('archived');
    expect(formatValue('someday', 'status')).toBe('someday');
    expect(formatValue(null)).toBe('(empty)');
    expect(formatValue('2026-11-21T09:05:00.000Z')).toBe('21 Nov 2026, 09:05');
    expect(formatValue(PLAN_A, 'offerId')).toBe('another offer');
    expect(formatValue([PLAN_A, PLAN_A], 'planIds')).toBe('2 plans');
    expect(formatValue({ enabled: true, minAppVersion: '2.1' })).toBe('Enabled: Yes; Min app version: 2.1');
    expect(describeChange({ field: 'prices', before: price(999), after: [...price(1299), { currency: 'EUR', amount: 1199 }] })).toBe('Price: 9.99 USD → 12.99 USD, 11.99 EUR');
  });

  it('names an episode\'s series and never shows an image\'s address (issue 38)', () => {
    expect(fieldLabel('seriesId')).toBe('Series');
    expect(describeChange({ field: 'seriesId', before: null, after: PLAN_A }, 'UTC', { [PLAN_A]: 'Ocean Tales' })).toBe('Series: (empty) → Ocean Tales');
    expect(formatValue(PLAN_A, 'seriesId')).toBe('another series');
    const poster = '/v2.0/appcms/files/site/6c74aa.png';
    expect(describeChange({ field: 'posterUrl', before: poster, after: '/v2.0/appcms/files/site/7d85bb.png' })).toBe('Poster: changed');
    expect(describeChange({ field: 'posterUrl', before: '', after: poster })).toBe('Poster: added');
    expect(describeChange({ field: 'logoUrl', before: poster, after: '' })).toBe('Logo: removed');
    expect(`${fieldLabel('artworkUrl')}: ${formatValue(poster, 'artworkUrl')}`).toBe('Artwork: an image');
    expect(formatValue('', 'posterUrl')).toBe('(empty)');
  });

  it('names the linked records the page knows, and says what the others are', () => {
    const OTHER = '99999999-9999-4999-8999-999999999999';
    const names = { [PLAN_A]: 'Basic Monthly', [OTHER]: 'Premium Yearly' };
    expect(formatValue(PLAN_A, 'offerId', 'UTC', { [PLAN_A]: 'Black Friday' })).toBe('Black Friday');
    expect(formatValue(OTHER, 'offerId', 'UTC', { [PLAN_A]: 'Black Friday' })).toBe('another offer');
    expect(formatValue([PLAN_A, OTHER], 'planIds', 'UTC', names)).toBe('Basic Monthly, Premium Yearly');
    // One unknown id: counted, not half named.
    expect(formatValue([PLAN_A, OTHER], 'planIds', 'UTC', { [PLAN_A]: 'Basic Monthly' })).toBe('2 plans');
    expect(describeChange({ field: 'planIds', before: [PLAN_A], after: [PLAN_A, OTHER] }, 'UTC', names)).toBe('Plans: Basic Monthly → Basic Monthly, Premium Yearly');
  });
});
