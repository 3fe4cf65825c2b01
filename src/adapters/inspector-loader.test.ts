import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { fakeActor } from '../../machines/test-harness/fakes';
import { authMachine, selectOtpStepActor } from '../../machines/auth.machine';
import { authRestoreMachine } from '../../machines/auth-restore.machine';
import { otpStepMachine } from '../../machines/otp-step.machine';
import { loginResponse, siteProfile } from '../../machines/test-harness/fixtures';
import { redactingObserver, type InspectedRecord } from './inspector-loader';

describe('inspector redaction', () => {
  it('hands the inspector every event with the password, OTP and tokens redacted', async () => {
    const received: InspectedRecord[] = [];
    const logic = authMachine.provide({
      actors: {
        restore: authRestoreMachine.provide({ actors: { readStoredSession: fakeActor(() => null), readPendingTwoFactor: fakeActor(() => null) } }),
        getDeviceId: fakeActor(() => 'device-1'),
        login: fakeActor(() => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '******4321', username: 'ada', accessToken: '' })),
        otpStep: otpStepMachine.provide({
          actors: {
            verifyOtp: fakeActor(() => ({ success: true, message: '', accessToken: 'secret-access-token', v2ManagementApiEnabled: true })),
            generateOtp: fakeActor(() => ({ success: true, message: '' })),
          },
        }),
        fetchProfile: fakeActor(() => ({ profile: siteProfile({ managementXApiKey: 'secret-api-key' }), fetchedAt: 0 })),
      },
    });
    const observer = redactingObserver((event) => received.push(event));
    const actor = createActor(logic, { input: { analyticsAllowedSites: [], encodingDisabledSite: '' }, inspect: observer }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'form.usernameChanged', username: 'ada' });
    actor.send({ type: 'form.passwordChanged', password: 'Secret!Pass1' });
    actor.send({ type: 'login.submit' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const otp = selectOtpStepActor(actor.getSnapshot());
    otp?.send({ type: 'otp.edit', code: '654321' });
    otp?.send({ type: 'otp.submit' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'active' });

    const sent = JSON.stringify(received);
    expect(received.some((event) => event.type === '@xstate.event')).toBe(true);
    expect(sent).toContain('login.submit');
    expect(sent).toContain('ada');
    for (const secret of ['Secret!Pass1', '654321', 'secret-access-token', 'secret-api-key']) expect(sent).not.toContain(secret);
    actor.stop();
  });
});
