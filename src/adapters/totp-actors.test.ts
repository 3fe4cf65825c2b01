import { describe, expect, it, vi } from 'vitest';
import { OWN_MESSAGES } from '../../common/messages';
import { TOTP_MESSAGES } from '../../common/totp';
import { loginResponse } from '../../machines/test-support/fixtures';
import { configureClient } from '../api/client';
import { exchangeIdToken } from './auth-actors';

describe('social sign-in of an account with an authenticator app (issue 19)', () => {
  it("marks the answer secondFactor 'totp' (the GraphQL result has no such field), so the app's step opens, not the SMS one", async () => {
    const answer = loginResponse({ isTwoFactorOnLogin: true, message: TOTP_MESSAGES.loginCodeRequired, accessToken: '', loginAttemptToken: '123.proof' });
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: { googleLogin: answer } }), { status: 200 })) });
    await expect(exchangeIdToken('google', 'id-token', 'device-1')).resolves.toEqual({ ...answer, secondFactor: 'totp' });
  });

  it('leaves the SMS answer as the spec has it', async () => {
    const answer = loginResponse({ isTwoFactorOnLogin: true, message: OWN_MESSAGES.otpRequired, obscureMobileNumber: '******4321', accessToken: '' });
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: { googleLogin: answer } }), { status: 200 })) });
    const result = await exchangeIdToken('google', 'id-token', 'device-1');
    expect(result).toEqual(answer);
    expect(result.secondFactor).toBeUndefined();
  });
});
