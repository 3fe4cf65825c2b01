import { screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { pageActionMachine, type PageActionAnswer, type PageActionRequest } from '../../../machines/page-action.machine';
import { renderView, settle } from '../../test-harness/render-view';
import { ActionOutcome } from './ActionOutcome';

function Outcome({ fail }: { fail: boolean }) {
  const actions = useActorRef(pageActionMachine.provide({
    actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async () => { if (fail) throw new Error('This plan no longer exists.'); return 'Deleted.'; }) },
  }), { input: {} });
  return (
    <>
      <button type="button" onClick={() => actions.send({ type: 'action.request', name: 'delete', args: { id: 'p' }, label: 'Gold' })}>Run</button>
      <ActionOutcome actions={actions} />
    </>
  );
}

describe('ActionOutcome', () => {
  it('shows nothing before an action, the answer after it, and nothing once dismissed', async () => {
    const view = await renderView(<Outcome fail={false} />);
    expect(screen.queryByRole('status')).toBeNull();
    await view.user.click(screen.getByRole('button', { name: 'Run' }));
    await settle();
    expect(screen.getByRole('status').textContent).toContain('Deleted.');
    await view.user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Deleted.')).toBeNull();
  });

  it('shows a refusal as an alert', async () => {
    const view = await renderView(<Outcome fail />);
    await view.user.click(screen.getByRole('button', { name: 'Run' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('This plan no longer exists.');
  });
});
