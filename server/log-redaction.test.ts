import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { LOG_REDACTION, LOG_SERIALIZERS, redactUrl } from './log-redaction';

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

it('request lines never carry the development outbox token of a URL (issue 25)', async () => {
  expect(redactUrl('/__dev/outbox?token=abc&to=%2B1')).toBe('/__dev/outbox?token=[redacted]&to=%2B1');
  expect(redactUrl('/__dev/outbox?to=%2B1&TOKEN=abc')).toBe('/__dev/outbox?to=%2B1&TOKEN=[redacted]');
  expect(redactUrl('/v1/events?tokens=1')).toBe('/v1/events?tokens=1');
  const lines: string[] = [];
  const app = Fastify({ logger: { level: 'info', redact: LOG_REDACTION, serializers: LOG_SERIALIZERS, stream: { write: (line: string) => lines.push(line) } } });
  app.get('/__dev/outbox', async () => ({ ok: true }));
  await app.inject({ method: 'GET', url: '/__dev/outbox?token=secret-outbox-token&to=x' });
  await app.close();
  const out = lines.join('\n');
  expect(out).toContain('/__dev/outbox?token=[redacted]&to=x');
  expect(out).not.toContain('secret-outbox-token');
});
