import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../../common/messages';
import { conflict, forbidden, invalid, notFound, rateLimited, unauthorized, unavailable, type DomainError } from '../domain/errors';
import { installErrorHandler } from './errors';

async function answerTo(error: DomainError | Error) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.get('/x', async () => {
    throw error;
  });
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return res;
}

describe('one error convention: a DomainError kind maps to one status and { success: false, message }', () => {
  it.each([
    ['invalid', invalid('title', 'title must not be empty'), 400, 'title must not be empty'],
    ['invalid (default message names the parameter)', invalid('version'), 400, 'version is invalid'],
    ['unauthorized', unauthorized(), 401, OWN_MESSAGES.unauthorized],
    ['forbidden', forbidden(), 403, OWN_MESSAGES.forbidden],
    ['not_found', notFound('Plan not found'), 404, 'Plan not found'],
    ['conflict', conflict('Someone else saved this first.'), 409, 'Someone else saved this first.'],
    ['unavailable', unavailable('SMS provider down'), 503, 'SMS provider down'],
  ] as const)('%s', async (_kind, error, status, message) => {
    const res = await answerTo(error);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, message });
  });

  it('rate_limited carries the seconds to wait in the body and Retry-After', async () => {
    const res = await answerTo(rateLimited(42));
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('42');
    expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.tooManyAttempts, retryAfterSeconds: 42 });
  });

  it('invalid with field messages carries them in the body', async () => {
    const res = await answerTo(invalid('input', 'Some fields need attention.', { name: 'This field is required.' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Some fields need attention.', fields: { name: 'This field is required.' } });
  });

  it('anything else is a 500 without its message or stack', async () => {
    const res = await answerTo(new Error('relation "secret_table" does not exist'));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret_table|at .*\.ts/);
    expect(res.json().success).toBe(false);
  });
});
