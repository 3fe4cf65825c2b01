import { describe, expect, it } from 'vitest';
import { REDACTED, redactForInspector } from './redact';

describe('redactForInspector', () => {
  it('redacts passwords, OTPs and tokens at any depth and keeps the rest', () => {
    const event = {
      type: 'login.submit', username: 'admin@demo.test', password: 'Demo!Pass123',
      nested: { otp: '123456', session: { accessToken: 'eyJ', apiKey: 'k', site: 'demo' } },
      list: [{ newPassword: 'x', confirmPassword: 'y' }],
    };
    expect(redactForInspector(event)).toEqual({
      type: 'login.submit', username: 'admin@demo.test', password: REDACTED,
      nested: { otp: REDACTED, session: { accessToken: REDACTED, apiKey: REDACTED, site: 'demo' } },
      list: [{ newPassword: REDACTED, confirmPassword: REDACTED }],
    });
    expect(event.password).toBe('Demo!Pass123');
  });
});
