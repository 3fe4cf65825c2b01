import { describe, expect, it, vi } from 'vitest';
import { idpErrorMessage } from '../../machines/idp-errors';
import { loginResponse } from '../../machines/test-harness/fixtures';
import { configureClient } from '../api/client';
import { API_PATHS } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import { exchangeIdToken, socialLoginDocument } from './auth-actors';
import { assertConfigured, type FirebaseConfig } from './firebase';

const config: FirebaseConfig = { apiKey: 'key', authDomain: 'p.firebaseapp.com', projectId: 'p', microsoftTenant: 'tenant', emulatorUrl: '' };

function caught(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('social sign-in configuration (spec §8)', () => {
  it("a missing API key reads 'Missing or invalid API key.', for either provider", () => {
    for (const provider of ['google', 'microsoft'] as const) {
      expect(idpErrorMessage(caught(() => assertConfigured(provider, { ...config, apiKey: ' ' })))).toBe('Missing or invalid API key.');
    }
  });

  it("a missing tenant reads 'Missing or invalid tenant ID.', for Microsoft only", () => {
    expect(idpErrorMessage(caught(() => assertConfigured('microsoft', { ...config, microsoftTenant: '' })))).toBe('Missing or invalid tenant ID.');
    expect(caught(() => assertConfigured('google', { ...config, microsoftTenant: '' }))).toBeUndefined();
    expect(caught(() => assertConfigured('microsoft', config))).toBeUndefined();
  });
});

describe('googleLogin / microsoftLogin call (spec §7.1)', () => {
  it('names the mutation per provider with the token and deviceId variables', () => {
    expect(socialLoginDocument('google')).toMatchObject({ operationName: 'GoogleLogin', query: expect.stringContaining('googleLogin(token: $token, deviceId: $deviceId)') });
    expect(socialLoginDocument('microsoft')).toMatchObject({ operationName: 'MicrosoftLogin', query: expect.stringContaining('microsoftLogin(token: $token, deviceId: $deviceId)') });
  });

  it('POSTs the ID token and device id without credentials and answers the login response', async () => {
    const answer = loginResponse({ accessToken: 'session-token' });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ data: { microsoftLogin: answer } }), { status: 200 }));
    configureClient({ fetch });
    await expect(exchangeIdToken('microsoft', 'id-token', 'device-1')).resolves.toEqual(answer);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(API_PATHS.graphql);
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toMatchObject({ operationName: 'MicrosoftLogin', variables: { token: 'id-token', deviceId: 'device-1' } });
    const headers = init.headers as Record<string, string>;
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toEqual(expect.arrayContaining(['authorization']));
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toEqual(expect.arrayContaining(['xapikey']));
  });

  it('turns a GraphQL error into a failure carrying its message', async () => {
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: null, errors: [{ message: 'Too many attempts.' }] }), { status: 429 })) });
    await expect(exchangeIdToken('google', 't', undefined)).rejects.toThrow('Too many attempts.');
    configureClient({ fetch: vi.fn(async () => new Response(JSON.stringify({ data: null, errors: [{}] }), { status: 200 })) });
    await expect(exchangeIdToken('google', 't', undefined)).rejects.toThrow(MESSAGES.genericGraphqlError);
  });
});
