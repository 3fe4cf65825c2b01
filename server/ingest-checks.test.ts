/**
 * The producer's in-memory checks of POST /v1/events (server/http/ingest-routes.ts): a day the month
 * does not have is refused whatever the day (the 29th to 31st take the calendar arithmetic, the
 * others a shortcut, issue 42), and the time bounds.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlayerEvent } from '../common/ingest-contract';
import { checkEvents, checkTimes } from './http/ingest-routes';

const heartbeat = (at: string): PlayerEvent => ({
  type: 'heartbeat', eventId: randomUUID(), sessionId: randomUUID(), at, playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 4000, rebufferCount: 0, rebufferMs: 0,
});

describe('checkEvents: days that exist', () => {
  it('accepts every day a month has and refuses the others, with one message each', () => {
    const real = ['2026-01-01T00:00:00Z', '2026-02-28T23:59:59.999Z', '2028-02-29T10:00:00Z', '2026-01-31T10:00:00+14:00', '2026-04-30T10:00:00.123456-03:30', '2000-02-29T00:00:00Z', '0001-01-01T00:00:00Z'];
    const unreal = ['2026-02-29T10:00:00Z', '2100-02-29T10:00:00Z', '2026-04-31T10:00:00Z', '2026-06-31T10:00:00Z', '2026-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '0000-02-28T00:00:00Z'];
    const { valid, errors } = checkEvents([...real, ...unreal].map(heartbeat));
    expect(valid.map((e) => e.at)).toEqual(real);
    expect(errors.map((e) => e.message)).toEqual(unreal.map((_, i) => `events[${real.length + i}].at is not a real date-time.`));
  });
});

describe('checkTimes', () => {
  it('refuses what is too far ahead or too old and lets the rest through', () => {
    const now = Date.parse('2026-12-06T12:00:00Z');
    const events = [heartbeat('2026-12-06T12:04:00Z'), heartbeat('2026-12-06T12:06:00Z'), heartbeat('2026-11-28T12:00:00Z'), heartbeat('2026-11-30T12:00:00Z')];
    const errors = checkTimes(events, { now, maxAgeDays: 7, maxFutureMs: 5 * 60_000 });
    expect(errors.map((e) => e.index)).toEqual([1, 2]);
    expect(errors[0]!.message).toBe('events[1].at is in the future (2026-12-06T12:06:00Z).');
    expect(errors[1]!.message).toBe('events[2].at is older than 7 days (2026-11-28T12:00:00Z).');
  });
});
