import { describe, expect, it, vi } from 'vitest';
import { OWN_MESSAGES } from '../../common/messages';
import { TOTP_MESSAGES } from '../../common/totp';
import { loginResponse } from '../../machines/test-harness/fixtures';
import { configureClient } from '../api/client';
import { exchangeIdToken, socialLoginDocument } from './auth-actors';

describe('social sign-in of an account with an authenticator app (issue 19)', () => {
  it('asks googleLogin/microsoftLogin for secondFactor and authenticatorEnrolmentDue', () => {
    expect(socialLoginDocument('google').query).toMatch(/loginAttemptToken secondFactor authenticatorEnrolmentDue \}/);
    expect(socialLoginDocument('microsoft').query).toMatch(/loginAttemptToken secondFactor authenticatorEnrolmentDue \}/);
  });

  it("passes the answer's secondFactor 'totp' on, so the app's step opens, not the SMS one", async () => {
    const answer = loginResponse({ isTwoFactorOnLogin: true, message: TOTP_MESSAGES.loginCodeRequired, accessToken: '', loginAttemptToken: '123.proof', secondFactor: 'totp' });
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: { googleLogin: answer } }), { status: 200 })) });
    await expect(exchangeIdToken('google', 'id-token', 'device-1')).resolves.toEqual(answer);
  });

  it("leaves the SMS answer as the spec has it (GraphQL's nulls for the optional fields dropped)", async () => {
    const answer = loginResponse({ isTwoFactorOnLogin: true, message: OWN_MESSAGES.otpRequired, obscureMobileNumber: '******4321', accessToken: '' });
    const wire = { ...answer, loginAttemptToken: null, secondFactor: null, authenticatorEnrolmentDue: null };
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: { googleLogin: wire } }), { status: 200 })) });
    const result = await exchangeIdToken('google', 'id-token', 'device-1');
    expect(result).toEqual(answer);
    expect(result.secondFactor).toBeUndefined();
  });
});
