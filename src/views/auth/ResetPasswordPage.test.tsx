import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { ResetPasswordPage } from './ResetPasswordPage';

describe('ResetPasswordPage', () => {
  it("shows the forgot flow's new-password form once the router handed it the token", async () => {
    const view = await renderView(<ResetPasswordPage />, {
      url: '/reset-password?token=abc',
      given: (root) => systemActor(root, 'passwordReset').send({ type: 'reset.open', token: 'abc' }),
    });
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    await view.user.type(screen.getByLabelText('Confirm Password'), 'x');
    expect(view.sentTo('passwordReset')).toEqual([{ type: 'reset.edit', newPassword: '', confirmPassword: 'x' }]);
  });

  it('without a token says the link has none', async () => {
    await renderView(<ResetPasswordPage />, { url: '/reset-password' });
    expect(screen.getByRole('status').textContent).toContain('This link has no reset token');
  });
});
