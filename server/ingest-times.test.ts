/**
 * checkTimes (server/http/ingest-routes.ts) parses an `at` text once for the run of events that
 * repeat it (issue 42: a player's batch holds one or two steps' worth of the same time): the messages
 * are those of parsing every event's own `at`, whatever the mix of repeated times and event ids.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IngestEventError, PlayerEvent } from '../common/ingest-contract';
import { checkTimes } from './http/ingest-routes';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const heartbeat = (at: string, eventId: string = randomUUID()): PlayerEvent => ({
  type: 'heartbeat', eventId, sessionId: randomUUID(), at, playheadSeconds: 1, watchedSeconds: 1, bitrateKbps: 1000, rebufferCount: 0, rebufferMs: 0,
});

/** The bounds as stated, each event's `at` parsed on its own; a repeated event id counts once. */
function reference(events: PlayerEvent[]): IngestEventError[] {
  const errors: IngestEventError[] = [];
  const seen = new Set<string>();
  events.forEach((e, index) => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    const at = Date.parse(e.at);
    if (Number.isNaN(at)) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is not a real date-time.` });
    else if (at > NOW + 5 * 60_000) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is in the future (${e.at}).` });
    else if (at < NOW - 7 * 86_400_000) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is older than 7 days (${e.at}).` });
  });
  return errors;
}

describe('checkTimes over runs of the same time', () => {
  it('gives every event the message its own time deserves, a repeated id once', () => {
    const times = ['2026-12-06T12:04:00Z', '2026-12-06T12:06:00Z', '2026-11-28T12:00:00Z', '2026-12-06T11:00:00.000Z', '2026-12-06T11:00:00Z', '2026-12-06T12:04:59.999+00:00'];
    for (let trial = 0; trial < 200; trial += 1) {
      const events: PlayerEvent[] = [];
      const length = 1 + Math.floor(Math.random() * 30);
      for (let i = 0; i < length; i += 1) {
        // Runs of one time, now and then another, and now and then an id sent before in the batch.
        const at = i > 0 && Math.random() < 0.6 ? events[i - 1]!.at : times[Math.floor(Math.random() * times.length)]!;
        const id = i > 0 && Math.random() < 0.15 ? events[Math.floor(Math.random() * i)]!.eventId : randomUUID();
        events.push(heartbeat(at, id));
      }
      expect(checkTimes(events, { now: NOW, maxAgeDays: 7, maxFutureMs: 5 * 60_000 })).toEqual(reference(events));
    }
  });

  it('names each event of a run that is out of bounds, not only the first', () => {
    const events = [heartbeat('2026-12-06T11:00:00Z'), heartbeat('2026-12-06T12:06:00Z'), heartbeat('2026-12-06T12:06:00Z'), heartbeat('2026-12-06T11:00:00Z')];
    expect(checkTimes(events, { now: NOW, maxAgeDays: 7, maxFutureMs: 5 * 60_000 }).map((e) => e.index)).toEqual([1, 2]);
  });
});
