import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-harness/render-view';
import { VerifyNumberPage } from './VerifyNumberPage';

const pendingSignIn = { auth: { readPendingTwoFactor: fakeActor(() => ({ username: 'ada', obscureMobileNumber: '******6789' })) } };

describe('VerifyNumberPage (the OTP panel)', () => {
  it('shows the sign-in code step: title, masked number, countdown, rates note, Confirm off until six digits', async () => {
    const view = await renderView(<VerifyNumberPage />, { url: '/verify-number', actors: pendingSignIn });
    expect(screen.getByRole('heading', { name: MESSAGES.otpTitle })).toBeTruthy();
    expect(screen.getByText(MESSAGES.otpInstruction, { exact: false })).toBeTruthy();
    expect(screen.getByTestId('otp-phone').textContent).toBe('•••• 6789');
    expect(screen.getByRole('button', { name: 'Resend in 30s' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: MESSAGES.otpWrongNumber })).toHaveProperty('disabled', true);
    expect(screen.getByText(MESSAGES.otpRates)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/');
    const confirm = screen.getByRole('button', { name: MESSAGES.otpConfirm });
    expect(confirm).toHaveProperty('disabled', true);

    await view.user.type(screen.getByLabelText('Verification code'), '12a3456');
    expect(view.sentTo('otpStep').map((e) => e.type)).toContain('otp.edit');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123456');
    expect(confirm).toHaveProperty('disabled', false);
    await view.user.click(confirm);
    expect(view.sentTo('otpStep').at(-1)).toEqual({ type: 'otp.submit' });
    expect(screen.getByRole('button', { name: 'Verifying…' })).toHaveProperty('disabled', true);
  });

  it('shows the refusal of a wrong code as an alert', async () => {
    const view = await renderView(<VerifyNumberPage />, {
      url: '/verify-number',
      actors: {
        ...pendingSignIn,
        otpStep: { verifyOtp: fakeActor(() => ({ success: false, message: '', accessToken: '', v2ManagementApiEnabled: false })) },
      },
    });
    await view.user.type(screen.getByLabelText('Verification code'), '000000');
    await view.user.click(screen.getByRole('button', { name: MESSAGES.otpConfirm }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.otpVerifyFailed);
    expect(screen.getByLabelText('Verification code').getAttribute('aria-invalid')).toBe('true');
  });

  it('says nothing is pending and links back to sign in', async () => {
    await renderView(<VerifyNumberPage />, { url: '/verify-number' });
    expect(screen.getByRole('status').textContent).toContain('There is no verification code waiting');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/');
  });

  it('with ?forgot=true shows the password flow\'s code step, or a link to request a new code', async () => {
    const view = await renderView(<VerifyNumberPage />, {
      url: '/verify-number?forgot=true',
      actors: { passwordReset: { requestPasswordOtp: fakeActor(() => ({ success: true, message: '', errorMessage: '' })) } },
      given: (root) => root.system.get('passwordReset')?.send({ type: 'forgot.submit', username: 'ada' }),
    });
    expect(screen.getByRole('heading', { name: MESSAGES.otpTitle })).toBeTruthy();
    await view.user.type(screen.getByLabelText('Verification code'), '123456');
    await view.user.click(screen.getByRole('button', { name: MESSAGES.otpConfirm }));
    expect(view.sentTo('otpStep').at(-1)).toEqual({ type: 'otp.submit' });

    await renderView(<VerifyNumberPage />, { url: '/verify-number?forgot=true', actors: { passwordReset: { requestPasswordOtp: pendingActor() } } });
    expect(screen.getByRole('link', { name: 'Request a new code' }).getAttribute('href')).toBe('/forgot-password');
  });
});
