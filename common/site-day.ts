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
