import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { UNDO_MESSAGES } from '../../../common/revisions';
import { Snackbar } from './Snackbar';

describe('Snackbar', () => {
  it('shows nothing without a message', async () => {
    await renderView(<Snackbar />);
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it("shows the notifier's message with its severity and sends notify.dismiss when closed", async () => {
    const view = await renderView(<Snackbar />, {
      given: (root) => systemActor(root, 'notifier').send({ type: 'notify.show', message: 'OTP sent successfully!', severity: 'success' }),
    });
    const toast = screen.getByTestId('snackbar');
    expect(toast.textContent).toContain('OTP sent successfully!');
    expect(toast.getAttribute('data-severity')).toBe('success');
    await view.user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(view.sentTo('notifier')).toEqual([{ type: 'notify.dismiss' }]);
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('offers Undo when the message does (issue 28): the button sends notify.undo and reads "Undoing…" once taken', async () => {
    const view = await renderView(<Snackbar />, {
      given: (root) => systemActor(root, 'notifier').send({
        type: 'notify.show', message: '2 items published.', severity: 'success', undo: { requestId: 'req-1', replyTo: 'contentBrowser' },
      }),
    });
    const undo = screen.getByRole('button', { name: UNDO_MESSAGES.action });
    await view.user.click(undo);
    expect(view.sentTo('notifier')).toEqual([{ type: 'notify.undo' }]);
    expect(screen.getByRole('button', { name: UNDO_MESSAGES.undoing })).toHaveProperty('disabled', true);
  });

  it('a message without an Undo has no Undo button', async () => {
    await renderView(<Snackbar />, {
      given: (root) => systemActor(root, 'notifier').send({ type: 'notify.show', message: 'Saved.', severity: 'success' }),
    });
    expect(screen.queryByRole('button', { name: UNDO_MESSAGES.action })).toBeNull();
  });
});
