import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { OWN_MESSAGES } from '../../../common/messages';
import { signedInAs } from '../../test-harness/view-fixtures';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { ForgotPasswordPage } from './ForgotPasswordPage';

describe('ForgotPasswordPage', () => {
  it('takes the username and sends it to the forgot flow', async () => {
    const view = await renderView(<ForgotPasswordPage />, { actors: { passwordReset: { requestPasswordOtp: pendingActor() } } });
    expect(screen.getByRole('heading', { name: 'Forgot password' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/');
    await view.user.type(screen.getByLabelText('Username'), 'ada@demo.test');
    await view.user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(view.sentTo('passwordReset')).toEqual([{ type: 'forgot.submit', username: 'ada@demo.test' }]);
    expect(screen.getByRole('button', { name: 'Sending…' })).toHaveProperty('disabled', true);
  });

  it('asks for the username when it is empty', async () => {
    const view = await renderView(<ForgotPasswordPage />);
    await view.user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByRole('alert').textContent).toBe(OWN_MESSAGES.usernameRequired);
  });

  it("shows the server's refusal", async () => {
    const view = await renderView(<ForgotPasswordPage />, {
      actors: { passwordReset: { requestPasswordOtp: fakeActor(() => ({ success: false, message: '', errorMessage: 'Too many requests' })) } },
    });
    await view.user.type(screen.getByLabelText('Username'), 'ada');
    await view.user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Too many requests');
  });

  it("shows the Change Password flow's new-password form once it holds a token", async () => {
    await renderView(<ForgotPasswordPage />, {
      url: '/forgot-password?token=abc',
      given: (root) => systemActor(root, 'passwordChange').send({ type: 'reset.open', token: 'abc' }),
    });
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    expect(screen.queryByLabelText('Username')).toBeNull();
  });

  it('offers a signed-in user a way back to the console from the Change Password form', async () => {
    await renderView(<ForgotPasswordPage />, {
      url: '/forgot-password?token=abc',
      actors: signedInAs({ Content: 'write' }),
      given: (root) => systemActor(root, 'passwordChange').send({ type: 'reset.open', token: 'abc' }),
    });
    expect(screen.getByRole('link', { name: 'Back to CMS Tools' }).getAttribute('href')).toBe('/content');
  });
});
