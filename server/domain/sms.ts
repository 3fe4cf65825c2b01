/**
 * SMS delivery behind one interface: the development outbox (a table listed at GET /__dev/outbox),
 * an HTTP provider (POST JSON {to, body} to SMS_PROVIDER_URL with a bearer token), or disabled.
 */
import { OTP_TTL_MINUTES } from './otp-constants';

export interface SmsTransport {
  readonly kind: string;
  send(to: string, body: string): Promise<void>;
}

export function otpSmsBody(code: string): string {
  return `Your CMS Tools verification code is ${code}. It expires in ${OTP_TTL_MINUTES} minutes.`;
}

/** The development outbox: messages are stored (`store`) and listed at GET /__dev/outbox. */
export function createOutboxTransport(store: (to: string, body: string) => Promise<void>): SmsTransport {
  return { kind: 'outbox', send: store };
}

export function createHttpSmsTransport(url: string, token: string | undefined, fetchImpl: typeof fetch = fetch): SmsTransport {
  return {
    kind: 'http',
    async send(to, body) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ to, body }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}

/** Production without a provider: every send fails, so the user sees 'OTP could not be sent!'. */
export function createDisabledTransport(): SmsTransport {
  return {
    kind: 'disabled',
    async send() {
      throw new Error('No SMS provider configured (set SMS_PROVIDER_URL).');
    },
  };
}
