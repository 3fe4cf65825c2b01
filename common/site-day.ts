/**
 * Dashboard 360's days are the SITE's calendar days (issue 38: "one date format and the site's zone on
 * every page"): a session counts on the site's day it started, a cohort is the site's month, a range's
 * dates and "today" are the site's. This is the one TypeScript helper for "the day of an instant in a
 * zone" (the SQL one is `siteDay` in server/db/rollups.ts); tests recompute figures from raw rows with
 * it, independently of the SQL. An unknown zone reads UTC, as everywhere (`knownTimeZone`).
 */
import { knownTimeZone, wallParts } from './zoned-time';

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day ('YYYY-MM-DD') of an instant (Date, epoch ms or ISO text) in `timeZone`. */
export function siteDayOf(at: Date | number | string, timeZone: unknown): string {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  const wall = wallParts(ms, knownTimeZone(timeZone));
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** The calendar month ('YYYY-MM') of an instant in `timeZone`. */
export function siteMonthOf(at: Date | number | string, timeZone: unknown): string {
  return siteDayOf(at, timeZone).slice(0, 7);
}

/**
 * A site's day as instants (issue 38: the Admin audit filters' From/To are the SITE's days). Careful at
 * the calendar's ends: years 1 and 9999 (Date.UTC reads years 0–99 as 19xx; Intl writes 1 BC as "1"),
 * so the wall clock here carries the era, and years are set with setUTCFullYear.
 */
const eraFormats = new Map<string, Intl.DateTimeFormat>();

function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The wall clock of `at` in `zone` read back as if it were UTC (ms), the era counted (1 BC is year 0). */
function wallAsUtcMs(at: number, zone: string): number {
  let format = eraFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    eraFormats.set(zone, format);
  }
  const parts = format.formatToParts(new Date(at));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const era = parts.find((p) => p.type === 'era')?.value ?? '';
  const year = /^B/i.test(era) ? 1 - get('year') : get('year');
  return utcMs(year, get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
}

/** The first instant of years 1..9999 and the first instant after them (what PostgreSQL takes as ISO text). */
export const FIRST_INSTANT_MS = utcMs(1, 0, 1);
export const AFTER_LAST_INSTANT_MS = utcMs(10000, 0, 1);

/** The first instant (ms) of the calendar day that starts at `dayUtcMs` (its midnight as if UTC) in `zone`. */
function dayStartMs(dayUtcMs: number, zone: string): number {
  const sameDay = (at: number) => Math.floor(wallAsUtcMs(at, zone) / 86_400_000) === dayUtcMs / 86_400_000;
  // Two passes (the offset at the guess, then at the corrected instant); where midnight does not exist (a
  // clock moved forward at 00:00) the first guess is the day's first instant: the earliest one inside the day.
  const first = dayUtcMs - (wallAsUtcMs(dayUtcMs, zone) - dayUtcMs);
  const second = dayUtcMs - (wallAsUtcMs(first, zone) - first);
  const inDay = [first, second].filter(sameDay);
  return inDay.length > 0 ? Math.min(...inDay) : second;
}

/**
 * The site's day 'YYYY-MM-DD' (years 0001–9999) as [start, end): its midnight in `timeZone` and the next
 * day's, in ms; null when the text is not a day of the calendar. An unknown zone reads UTC. Never throws;
 * the ends may lie outside years 1..9999 (compare with FIRST_INSTANT_MS / AFTER_LAST_INSTANT_MS).
 */
export function siteDaySpan(day: string, timeZone: unknown): { start: number; end: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year = 0, month = 0, date = 0] = match.slice(1).map(Number);
  const dayUtcMs = utcMs(year, month - 1, date);
  const check = new Date(dayUtcMs);
  if (year < 1 || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  const zone = knownTimeZone(timeZone);
  return { start: dayStartMs(dayUtcMs, zone), end: dayStartMs(utcMs(year, month - 1, date + 1), zone) };
}
