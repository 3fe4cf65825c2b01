import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setPasswordMachine } from '../../../machines/set-password.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { ADMIN_MESSAGES, MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-harness/render-view';
import { SetPasswordView } from './SetPasswordPage';

function renderSetPassword(check: () => unknown, savePassword = vi.fn((_input: unknown) => undefined)) {
  const logic = setPasswordMachine.provide({ actors: { checkToken: fakeActor(check), savePassword: fakeActor(savePassword) } });
  return renderView(<SetPasswordView token="tok" />, { pages: { setPassword: logic } });
}

describe('SetPasswordView', () => {
  it("names the account, applies the spec's password rules and sets the password", async () => {
    const savePassword = vi.fn((_input: unknown) => undefined);
    const view = await renderSetPassword(() => ({ success: true, username: 'nina@demo.test', displayName: 'Nina' }), savePassword);
    expect(screen.getByText('nina@demo.test')).toBeTruthy();
    await view.user.type(screen.getByLabelText('New Password'), 'Nina!Pass2026');
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Nina!Pass2025');
    await view.user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.passwordMismatch);
    await view.user.clear(screen.getByLabelText('Confirm Password'));
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Nina!Pass2026');
    await view.user.click(screen.getByRole('button', { name: 'Set password' }));
    await settle();
    expect(savePassword).toHaveBeenCalledWith({ token: 'tok', newPassword: 'Nina!Pass2026', confirmPassword: 'Nina!Pass2026' });
    expect(screen.getByRole('status').textContent).toBe(ADMIN_MESSAGES.setPasswordDone);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says a dead link is dead', async () => {
    await renderSetPassword(() => { throw new Error(ADMIN_MESSAGES.setPasswordInvalid); });
    expect(screen.getByRole('alert').textContent).toBe(ADMIN_MESSAGES.setPasswordInvalid);
    expect(screen.getByRole('button', { name: 'Go to sign in' })).toBeTruthy();
  });
});
