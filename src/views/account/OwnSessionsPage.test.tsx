import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ownSessionsMachine, type OwnSession } from '../../../machines/own-sessions.machine';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { ACCOUNT_MESSAGES } from '../../../common/messages';
import { ROUTES } from '../../../common/constants';
import { renderView, settle } from '../../test-harness/render-view';
import { OwnSessionsPage } from './OwnSessionsPage';

const THIS: OwnSession = {
  id: 'this-one', deviceId: 'd1', ipAddress: '10.0.0.1', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/140.0',
  createdAt: '2026-11-24T01:00:00.000Z', lastSeenAt: '2026-11-24T03:00:00.000Z', current: true,
};
const PHONE: OwnSession = {
  id: 'phone', deviceId: 'd2', ipAddress: '10.0.0.2', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Mobile Safari/604.1',
  createdAt: '2026-11-23T20:00:00.000Z', lastSeenAt: '2026-11-24T02:00:00.000Z', current: false,
};

function renderSessions(actors: Partial<Record<'fetchSessions' | 'endSession', ReturnType<typeof fakeActor>>> = {}) {
  const navigate = vi.fn();
  let listed = [THIS, PHONE];
  const endSession = vi.fn((input: { sessionId: string }) => {
    listed = listed.filter((s) => s.id !== input.sessionId);
    return { success: true, message: ACCOUNT_MESSAGES.sessionEnded, ended: 1 };
  });
  const logic = ownSessionsMachine.provide({
    actors: { fetchSessions: fakeActor(() => listed), endSession: fakeActor(endSession), ...actors },
    actions: { navigate: (_, params) => navigate(params) },
  });
  return { navigate, endSession, view: renderView(<OwnSessionsPage />, { pages: { ownSessions: logic } }) };
}

describe('OwnSessionsPage', () => {
  it('lists each session with its device, address and last seen, this one marked', async () => {
    const { view } = renderSessions();
    await view;
    expect(screen.getByRole('heading', { name: ACCOUNT_MESSAGES.sessionsTitle })).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Firefox on macOS');
    expect(items[0]!.textContent).toContain(ACCOUNT_MESSAGES.sessionThisOne);
    expect(items[0]!.textContent).toContain('Address 10.0.0.1');
    expect(items[0]!.textContent).toContain('Last seen');
    expect(items[0]!.getAttribute('data-current')).toBe('true');
    expect(items[1]!.textContent).toContain('Safari on iOS');
    expect(items[1]!.textContent).not.toContain(ACCOUNT_MESSAGES.sessionThisOne);
  });

  it('ends another session at once and says so', async () => {
    const { view, endSession, navigate } = renderSessions();
    const { user } = await view;
    await user.click(screen.getByRole('button', { name: `${ACCOUNT_MESSAGES.sessionEnd}: Safari on iOS` }));
    await settle();
    expect(endSession).toHaveBeenCalledWith({ sessionId: 'phone' });
    expect(screen.getByRole('status').textContent).toBe(ACCOUNT_MESSAGES.sessionEnded);
    expect(within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem')).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('asks before ending the session in use; Cancel keeps it, confirming signs out', async () => {
    const { view, endSession, navigate } = renderSessions();
    const { user } = await view;
    const endThis = `${ACCOUNT_MESSAGES.sessionEnd}: Firefox on macOS (${ACCOUNT_MESSAGES.sessionThisOne})`;
    await user.click(screen.getByRole('button', { name: endThis }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain(ACCOUNT_MESSAGES.sessionEndThisConfirm);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(endSession).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: endThis }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: ACCOUNT_MESSAGES.sessionEnd }));
    await settle();
    expect(endSession).toHaveBeenCalledWith({ sessionId: 'this-one' });
    expect(navigate).toHaveBeenCalledWith({ to: ROUTES.logout });
  });

  it('shows the failure and a Retry when the list cannot be loaded', async () => {
    const { view } = renderSessions({ fetchSessions: fakeActor(() => { throw Object.assign(new Error('x'), { status: 0 }); }) });
    await view;
    expect(screen.getByRole('alert').textContent).toBe(ACCOUNT_MESSAGES.sessionsFailed);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('says it is loading while the list is on its way', async () => {
    const { view } = renderSessions({ fetchSessions: pendingActor() as ReturnType<typeof fakeActor> });
    await view;
    expect(screen.getByText('Loading sessions…')).toBeTruthy();
  });
});
