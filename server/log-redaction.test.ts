import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { LOG_REDACTION } from './log-redaction';

it('a logger with LOG_REDACTION (production and tests alike) never writes credentials, passwords, codes or tokens', async () => {
  const lines: string[] = [];
  // Identity serializers: Fastify's own keep only method and URL, and the paths must hold for whatever is logged.
  const keep = (value: object) => value as Record<string, unknown>;
  const app = Fastify({ logger: { redact: LOG_REDACTION, serializers: { req: keep, res: keep }, stream: { write: (line: string) => lines.push(line) } } });
  app.log.info({
    req: {
      headers: { authorization: 'Bearer secret-jwt', xapikey: 'secret-key', 'x-api-key': 'secret-key2', cookie: 'accessToken=secret-cookie' },
      body: { username: 'admin@demo.test', password: 'secret-pass', newPassword: 'secret-new', confirmPassword: 'secret-new', otp: '123456', token: 'secret-reset' },
    },
    res: { body: { accessToken: 'secret-access' } },
  }, 'request');
  await app.close();
  const out = lines.join('\n');
  expect(out).toContain('admin@demo.test');
  expect(out).toContain('[redacted]');
  expect(out).not.toMatch(/secret-|123456/);
});
