import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { ACCOUNT_MESSAGES, MESSAGES } from '../../../common/messages';
import { PASSWORD_RULE_LABELS } from '../../../common/password-rules';
import { renderView, settle, type RenderViewOptions } from '../../test-harness/render-view';
import { systemActor, useAppActor } from '../../app-actor';
import { NewPasswordForm } from './NewPasswordForm';

function Form() {
  return <NewPasswordForm actor={useAppActor('passwordReset')} />;
}

const withToken: RenderViewOptions = {
  given: (root) => systemActor(root, 'passwordReset').send({ type: 'reset.open', token: 'reset-token' }),
};

function ruleItem(label: string) {
  return screen.getByText(label, { exact: false }).closest('li')!;
}

describe('NewPasswordForm', () => {
  it('without a token says so and links to Forgot password', async () => {
    await renderView(<Form />);
    expect(screen.getByRole('status').textContent).toContain('This link has no reset token');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('ticks the rules live as the new password is typed, sending each keystroke to the machine', async () => {
    const view = await renderView(<Form />, withToken);
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Password rules' }).querySelectorAll('li[data-met="false"]')).toHaveLength(Object.keys(PASSWORD_RULE_LABELS).length);
    await view.user.type(screen.getByLabelText('New Password'), 'abc');
    expect(view.sentTo('passwordReset').at(-1)).toEqual({ type: 'reset.edit', newPassword: 'abc', confirmPassword: '' });
    expect(ruleItem(PASSWORD_RULE_LABELS.lowercase).getAttribute('data-met')).toBe('true');
    expect(ruleItem(PASSWORD_RULE_LABELS.uppercase).getAttribute('data-met')).toBe('false');
    await view.user.type(screen.getByLabelText('New Password'), 'D3f!ghij');
    expect(screen.getByRole('list', { name: 'Password rules' }).querySelectorAll('li[data-met="false"]')).toHaveLength(0);
  });

  it("shows the spec's message for different passwords", async () => {
    const view = await renderView(<Form />, withToken);
    await view.user.type(screen.getByLabelText('New Password'), 'Str0ng!pass');
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Str0ng!pasx');
    await view.user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(view.sentTo('passwordReset').at(-1)).toEqual({ type: 'reset.submit' });
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.passwordMismatch);
  });

  it('shows Saving… while the reset runs', async () => {
    const view = await renderView(<Form />, {
      ...withToken,
      actors: { passwordReset: { resetPassword: fakeActor(() => new Promise(() => {})) } },
    });
    await view.user.type(screen.getByLabelText('New Password'), 'Str0ng!pass');
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Str0ng!pass');
    await view.user.click(screen.getByRole('button', { name: 'Reset password' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveProperty('disabled', true);
  });

  it('the forgot flow has no current-password field', async () => {
    await renderView(<Form />, withToken);
    expect(screen.queryByLabelText(ACCOUNT_MESSAGES.currentPasswordLabel)).toBeNull();
  });

  it("the header's change flow asks for the current password (ASVS 6.2.3), sends it to the machine and shows the server's refusal", async () => {
    function ChangeForm() {
      return <NewPasswordForm actor={useAppActor('passwordChange')} />;
    }
    const view = await renderView(<ChangeForm />, {
      given: (root) => systemActor(root, 'passwordChange').send({ type: 'reset.open', token: 'change-token', mode: 'change' }),
      actors: { passwordChange: { resetPassword: fakeActor(async () => ({ success: false, message: ACCOUNT_MESSAGES.currentPasswordWrong })) } },
    });
    await view.user.type(screen.getByLabelText(ACCOUNT_MESSAGES.currentPasswordLabel), 'Old');
    expect(view.sentTo('passwordChange').at(-1)).toEqual({ type: 'reset.current', currentPassword: 'Old' });
    await view.user.type(screen.getByLabelText('New Password'), 'Str0ng!pass');
    await view.user.type(screen.getByLabelText('Confirm Password'), 'Str0ng!pass');
    await view.user.click(screen.getByRole('button', { name: 'Reset password' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(ACCOUNT_MESSAGES.currentPasswordWrong);
  });

  it('a navigation away with typed passwords asks first (issue 38): Stay keeps the form, Leave goes; untyped, it goes at once', async () => {
    function ChangeForm() {
      return <NewPasswordForm actor={useAppActor('passwordChange')} />;
    }
    const open = { given: (root: Parameters<NonNullable<RenderViewOptions['given']>>[0]) => systemActor(root, 'passwordChange').send({ type: 'reset.open', token: 'change-token', mode: 'change' }) };
    const untouched = await renderView(<ChangeForm />, { ...open, url: '/forgot-password' });
    await untouched.navigate('/login');
    expect(untouched.location()).toBe('/login');
    untouched.unmount();

    const view = await renderView(<ChangeForm />, { ...open, url: '/forgot-password' });
    await view.user.type(screen.getByLabelText(ACCOUNT_MESSAGES.currentPasswordLabel), 'Old');
    await view.navigate('/login');
    expect(view.location()).toBe('/forgot-password');
    const question = screen.getByRole('dialog', { name: 'Unsaved changes' });
    await view.user.click(within(question).getByRole('button', { name: 'Stay' }));
    await settle();
    expect(view.location()).toBe('/forgot-password');
    expect((screen.getByLabelText(ACCOUNT_MESSAGES.currentPasswordLabel) as HTMLInputElement).value).toBe('Old');
    await view.navigate('/login');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await settle();
    expect(view.location()).toBe('/login');
  });
});
