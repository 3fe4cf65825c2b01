import { describe, expect, it } from 'vitest';
import { isoInTimeZone, knownTimeZone, wallParts, zonedWallTimeToIso } from './zoned-time';

describe('wall clocks in a zone, one computation (issue 30)', () => {
  it('reads the wall clock of an instant in the zone, to the second', () => {
    const at = Date.parse('2026-11-25T14:05:30.900Z');
    expect(wallParts(at, 'UTC')).toEqual({ year: 2026, month: 11, day: 25, hour: 14, minute: 5, second: 30 });
    expect(wallParts(at, 'Asia/Kolkata')).toEqual({ year: 2026, month: 11, day: 25, hour: 19, minute: 35, second: 30 });
    // Midnight is hour 0, never 24; a day west of UTC is the day before.
    expect(wallParts(Date.parse('2026-06-01T04:00:00Z'), 'America/New_York')).toEqual({ year: 2026, month: 6, day: 1, hour: 0, minute: 0, second: 0 });
    expect(wallParts(Date.parse('2026-01-01T03:00:00Z'), 'America/New_York')).toEqual({ year: 2025, month: 12, day: 31, hour: 22, minute: 0, second: 0 });
  });

  it('keeps a zone the runtime knows and reads anything else as UTC', () => {
    expect(knownTimeZone('Europe/London')).toBe('Europe/London');
    // Not a string at all is UTC too, even one whose text would name a zone.
    for (const bad of ['Mars/Olympus', '', null, undefined, 42, ['Europe/London']]) expect(knownTimeZone(bad)).toBe('UTC');
  });

  it('turns a wall time in the zone into the instant, on both sides of a DST change', () => {
    expect(zonedWallTimeToIso('2026-11-25T14:05', 'Europe/London')).toBe('2026-11-25T14:05:00.000Z');
    expect(zonedWallTimeToIso('2026-07-01T14:05', 'Europe/London')).toBe('2026-07-01T13:05:00.000Z');
    expect(zonedWallTimeToIso('2026-03-29T03:30', 'Europe/London')).toBe('2026-03-29T02:30:00.000Z');
    expect(zonedWallTimeToIso('2026-11-25T00:00', 'America/Los_Angeles')).toBe('2026-11-25T08:00:00.000Z');
    expect(zonedWallTimeToIso('2026-11-25T09:00', 'Asia/Kolkata')).toBe('2026-11-25T03:30:00.000Z');
    // An unknown zone is UTC, as everywhere else.
    expect(zonedWallTimeToIso('2026-11-25T09:00', 'Mars/Olympus')).toBe('2026-11-25T09:00:00.000Z');
  });

  it('refuses what is not a wall date and time', () => {
    for (const bad of ['', '2026-11-25', '2026-02-30T10:00', '2026-04-31T10:00', '2026-13-01T10:00', '2026-11-25T24:00', '2026-11-25T10:60', '25/11/2026 10:00', '2026-11-25T10:00:00', 'x2026-11-25T10:00']) {
      expect(zonedWallTimeToIso(bad, 'UTC'), bad).toBeNull();
    }
    // The last minute of a day and the last day of a month are times.
    expect(zonedWallTimeToIso('2026-11-30T23:59', 'UTC')).toBe('2026-11-30T23:59:00.000Z');
    expect(zonedWallTimeToIso('2028-02-29T00:00', 'UTC')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('writes an instant as the wall time in the zone, and back again', () => {
    expect(isoInTimeZone('2026-11-25T14:05:59Z', 'Europe/London')).toBe('2026-11-25 14:05');
    expect(isoInTimeZone('2026-07-01T13:05:00Z', 'Europe/London')).toBe('2026-07-01 14:05');
    expect(isoInTimeZone('2026-01-01T03:00:00Z', 'America/New_York')).toBe('2025-12-31 22:00');
    expect(isoInTimeZone('0999-05-04T03:02:00Z', 'UTC')).toBe('0999-05-04 03:02');
    expect(isoInTimeZone('not a date', 'UTC')).toBe('not a date');
    for (const zone of ['Europe/London', 'America/Los_Angeles', 'Asia/Kolkata', 'Australia/Lord_Howe']) {
      const wall = '2026-10-04T01:45';
      const iso = zonedWallTimeToIso(wall, zone)!;
      expect(isoInTimeZone(iso, zone).replace(' ', 'T'), zone).toBe(wall);
    }
  });
});
