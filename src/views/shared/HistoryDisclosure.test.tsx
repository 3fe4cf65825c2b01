import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { historyDisclosureMachine } from '../../../machines/history-disclosure.machine';
import { pageHistoryMachine } from '../../../machines/history.machine';
import { historyFakeActors, historyFakes, revision, type HistoryFakes } from '../../test-harness/history-fakes';
import { renderView } from '../../test-harness/render-view';
import { HistoryDisclosure } from './HistoryDisclosure';

const OFFER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function disclosureOf(objectId: string | null, fakes: HistoryFakes = { ...historyFakes(), revisions: { s1: [revision(2, [{ field: 'offerId', before: null, after: OFFER }])] } }) {
  const logic = historyDisclosureMachine.provide({ actors: { history: pageHistoryMachine.provide({ actors: historyFakeActors(fakes) }) } });
  return { actor: createActor(logic, { input: { kind: 'subscription', objectId } }).start(), fakes };
}

describe('HistoryDisclosure', () => {
  it('is closed at first: a button naming the object, nothing read yet', async () => {
    const { actor, fakes } = disclosureOf('s1');
    await renderView(<HistoryDisclosure disclosure={actor} region="History of the Basic subscription" about="of the Basic subscription" />);
    const region = screen.getByRole('region', { name: 'History of the Basic subscription' });
    const toggle = within(region).getByRole('button', { name: 'Show history of the Basic subscription' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(region).queryByRole('list', { name: 'Revisions, newest first' })).toBeNull();
    expect(fakes.loads).toEqual([]);
  });

  it('opens on the button: reads the History and shows it, linked records by the names given; closes again', async () => {
    const { actor, fakes } = disclosureOf('s1');
    const view = await renderView(<HistoryDisclosure disclosure={actor} region="History" names={{ [OFFER]: 'Summer sale' }} />);
    await view.user.click(screen.getByRole('button', { name: 'Show history' }));
    const list = await screen.findByRole('list', { name: 'Revisions, newest first' });
    expect(within(list).getByTestId('revision-2').textContent).toContain('Summer sale');
    expect(fakes.loads).toEqual([expect.objectContaining({ kind: 'subscription', objectId: 's1' })]);
    const hide = screen.getByRole('button', { name: 'Hide history' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    await view.user.click(hide);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Revisions, newest first' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Show history' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('shows nothing for an object that does not exist yet (a new account) or without a disclosure', async () => {
    const { actor } = disclosureOf(null);
    const view = await renderView(<HistoryDisclosure disclosure={actor} region="History" />);
    expect(screen.queryByRole('region', { name: 'History' })).toBeNull();
    view.unmount();
    await renderView(<HistoryDisclosure disclosure={undefined} region="History" />);
    expect(screen.queryByRole('button', { name: 'Show history' })).toBeNull();
  });
});
