/**
 * SECURITY.md C-TIME-1: forgot-password (and the anonymous code resend) answer before the SMS is
 * sent, so a known and an unknown username answer alike and a slow or failing SMS provider never
 * delays or breaks the answer. No timing assertions: the provider is held on a gate the test opens
 * only after the answer has arrived.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '../common/constants';
import { buildApp } from './app';
import { createJobQueue } from './domain/jobs';
import type { SmsTransport } from './domain/sms';
import { createTestApp, testConfig, type TestApp } from './test/kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
});
afterAll(async () => {
  await t?.close();
});

/** An SMS provider that does not answer until `open()`. */
function gatedTransport() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const started: string[] = [];
  const delivered: { to: string; body: string }[] = [];
  const transport: SmsTransport = {
    kind: 'gated',
    async send(to, body) {
      started.push(to);
      await gate;
      delivered.push({ to, body });
    },
  };
  return { transport, open, started, delivered };
}

async function appWith(sms: SmsTransport): Promise<FastifyInstance> {
  return buildApp({ db: t.dbHandle, config: { ...testConfig(), seed: false }, sms });
}

describe('forgot-password answers before the SMS (C-TIME-1)', () => {
  it('a known username is answered while the SMS provider still holds the message; unknown answers the same', async () => {
    const sms = gatedTransport();
    const app = await appWith(sms.transport);
    try {
      const user = await t.createUser({ prefix: 'forgot-slow' });
      const known = await app.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username: user.username } });
      expect(known.statusCode).toBe(200);
      expect(sms.delivered).toHaveLength(0);
      const unknown = await app.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username: `ghost-${randomUUID()}@demo.test` } });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      // The resend path too.
      const resend = await app.inject({ method: 'POST', url: API_PATHS.generateOtp, payload: { username: user.username, isLogin: false }, remoteAddress: '10.99.0.1' });
      expect([200, 429]).toContain(resend.statusCode);
      expect(sms.delivered).toHaveLength(0);
      sms.open();
      await app.services.jobs.idle();
      expect(sms.delivered.map((m) => m.to)).toEqual([user.phoneNumber]);
      expect(sms.delivered[0]!.body).toMatch(/verification code is \d{6}/);
    } finally {
      sms.open();
      await app.close();
    }
  });

  it('a failing SMS provider does not reach the answer; the failure is logged', async () => {
    const failing: SmsTransport = { kind: 'failing', send: async () => { throw new Error('provider down'); } };
    const app = await appWith(failing);
    try {
      const user = await t.createUser({ prefix: 'forgot-fail' });
      const res = await app.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username: user.username } });
      expect(res.statusCode).toBe(200);
      await app.services.jobs.idle();
      // The server still answers afterwards.
      expect((await app.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username: `x-${randomUUID()}@demo.test` } })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('the job queue runs a job after the current turn and logs a failing one at error level', async () => {
    const log = { error: vi.fn() };
    const jobs = createJobQueue(log);
    const ran: string[] = [];
    jobs.enqueue('ok', async () => { ran.push('ok'); });
    jobs.enqueue('bad', async () => { throw new Error('boom'); });
    expect(ran).toEqual([]);
    await jobs.idle();
    expect(ran).toEqual(['ok']);
    expect(log.error).toHaveBeenCalledWith({ job: 'bad', err: 'boom' }, 'background job failed');
  });
});
