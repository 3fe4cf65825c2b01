/**
 * The simulated players (scripts/player-sim.ts) step only the viewers due (a heap by next event
 * time, issue 42): every viewer still sends exactly one event per heartbeat, none skipped or doubled,
 * whatever the step interval, in the order start, heartbeats, end.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IngestRoster, PlayerEvent } from '../common/ingest-contract';
import { createPlayers } from './player-sim';

const roster: IngestRoster = {
  subscribers: Array.from({ length: 50 }, (_, i) => ({ id: randomUUID(), country: ['US', 'GB', 'IN', 'DE'][i % 4]!, networkId: randomUUID(), deviceTypes: i % 7 ? ['web', 'ios'] : [] })),
  content: Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), kind: i % 3 ? 'vod' : 'live', durationSeconds: 120, networkId: null })),
};
const T0 = 1_800_000_000_000;

describe('createPlayers', () => {
  it('starts every player within the first heartbeat, then gives each playing session one event per heartbeat', () => {
    for (const stepMs of [7, 100, 1000]) {
      const players = createPlayers(roster, 2000, 1, T0);
      const events: PlayerEvent[] = [];
      for (let t = T0; t <= T0 + 1000; t += stepMs) events.push(...players.step(t));
      // Past the first second, every first start is due.
      events.push(...players.step(T0 + 1000));
      expect(events.filter((e) => e.type === 'session.start')).toHaveLength(2000);
      expect(events.every((e) => e.type === 'session.start')).toBe(true);
      expect(players.playing()).toBe(2000);
      // One heartbeat later every session has its next event (a heartbeat, or its end: failed sessions end at once).
      const next = players.step(T0 + 2000);
      expect(next).toHaveLength(2000);
      expect(new Set(next.map((e) => e.sessionId))).toEqual(new Set(events.map((e) => e.sessionId)));
      expect(next.every((e) => e.at === new Date(T0 + 2000).toISOString())).toBe(true);
      // Nothing is due again before the next heartbeat.
      expect(players.step(T0 + 2000)).toEqual([]);
    }
  });

  it('keeps each session in order (start, heartbeats a heartbeat apart, end) over minutes of steps, and ends the open ones', () => {
    const players = createPlayers(roster, 300, 2, T0);
    const bySession = new Map<string, PlayerEvent[]>();
    const add = (list: PlayerEvent[]) => {
      for (const e of list) {
        const events = bySession.get(e.sessionId) ?? [];
        events.push(e);
        bySession.set(e.sessionId, events);
      }
    };
    for (let t = T0; t < T0 + 300_000; t += 250) add(players.step(t));
    const open = players.playing();
    const ends = players.endAll(T0 + 300_000);
    expect(ends).toHaveLength(open);
    expect(players.playing()).toBe(0);
    add(ends);
    for (const list of bySession.values()) {
      expect(list[0]!.type).toBe('session.start');
      expect(list.at(-1)!.type).toBe('session.end');
      expect(list.slice(1, -1).every((e) => e.type === 'heartbeat')).toBe(true);
      const times = list.slice(0, -1).map((e) => Date.parse(e.at));
      // Steps every 250 ms: an event leaves at the first step at or after its time, 2 s after the last.
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2000);
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeLessThan(2250);
    }
  });
});
