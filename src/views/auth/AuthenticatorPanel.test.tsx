import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { TOTP_MESSAGES } from '../../../common/totp';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView, settle } from '../../test-harness/render-view';
import { TOTP_TEXT } from '../account/totp-text';
import { VerifyNumberPage } from './VerifyNumberPage';

const EN = TOTP_TEXT.en;
const pendingAuthenticator = {
  readPendingTwoFactor: fakeActor(() => ({ username: 'ada', obscureMobileNumber: '', secondFactor: 'totp' })),
};

describe('VerifyNumberPage: the authenticator-app step (issue 19)', () => {
  it('asks for the authenticator code, no SMS panel; six digits go to the auth machine', async () => {
    const view = await renderView(<VerifyNumberPage />, { url: '/verify-number', actors: { auth: pendingAuthenticator } });
    expect(screen.getByRole('heading', { name: EN.signInTitle })).toBeTruthy();
    expect(screen.getByText(EN.signInText)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.otpRates)).toBeNull();
    expect(screen.queryByRole('button', { name: MESSAGES.otpResend })).toBeNull();
    await view.user.type(screen.getByLabelText(EN.signInTitle), '12a3456');
    expect((screen.getByLabelText(EN.signInTitle) as HTMLInputElement).value).toBe('123456');
    await view.user.click(screen.getByRole('button', { name: EN.verify }));
    expect(view.sentTo('auth').at(-1)).toEqual({ type: 'authenticator.submit' });
  });

  it('"Use a recovery code" switches the field; a short one is refused with its message', async () => {
    const view = await renderView(<VerifyNumberPage />, { url: '/verify-number', actors: { auth: pendingAuthenticator } });
    await view.user.click(screen.getByRole('button', { name: EN.useRecovery }));
    expect(screen.getByRole('heading', { name: EN.recoveryLabel })).toBeTruthy();
    await view.user.type(screen.getByLabelText(EN.recoveryLabel), 'abc');
    await view.user.click(screen.getByRole('button', { name: EN.verify }));
    expect(screen.getByRole('alert').textContent).toBe(TOTP_MESSAGES.recoveryFormat);
    await view.user.click(screen.getByRole('button', { name: EN.useAuthenticator }));
    expect(screen.getByRole('heading', { name: EN.signInTitle })).toBeTruthy();
  });

  it('a refused code shows the spec\'s OTP failure as an alert', async () => {
    const view = await renderView(<VerifyNumberPage />, {
      url: '/verify-number',
      actors: { auth: { ...pendingAuthenticator, verifyAuthenticator: fakeActor(() => ({ success: false, message: '', accessToken: '', v2ManagementApiEnabled: false })) } },
    });
    await view.user.type(screen.getByLabelText(EN.signInTitle), '000000');
    await view.user.click(screen.getByRole('button', { name: EN.verify }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.otpVerifyFailed);
  });
});
