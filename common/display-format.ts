/**
 * The console's one way of writing dates and times on screen (issue 30, "Consistency across areas").
 * Every area (Users, Content, Monetization, AppCMS, Admin, Analytics, the account pages) writes:
 *
 * - a date as "25 Nov 2026",
 * - a date and time as "25 Nov 2026, 14:05 (Europe/London)": 24-hour clock, the zone's IANA name in
 *   brackets (the same name the content forms put beside their "Goes live at" inputs),
 * - a clock time to the second, only where seconds matter (a live report's "Last updated"), as
 *   "14:05:30 (Europe/London)",
 *
 * in the SITE's time zone: the site profile's `defaultTimezone` (kept client-side in the cookie
 * `COOKIE_NAMES.defaultTimezone`, common/constants.ts), falling back to UTC when the site names no
 * zone or one the browser does not know (`knownTimeZone`, common/content.ts). The same instant reads
 * the same for every operator of a site, whatever their own computer's zone or language.
 *
 * Locale: en-GB (day, short month, year; 24-hour clock). The site profile has no locale field, so
 * the console does not follow the browser's language; month names come from the table below, not
 * from the browser's ICU data, so "Sep" reads the same in every browser.
 *
 * Analytics days and months are UTC calendar days by definition (common/report-dates.ts): they read in
 * the same visual format ("25 Nov 2026", "Nov 2026") through `formatCalendarDay` / `formatCalendarMonth` and are
 * never shifted by a zone. CSV downloads keep ISO dates (common/report-csv.ts) and do not use this.
 *
 * Values for <input type="datetime-local"> are not display text: they stay 'YYYY-MM-DDTHH:mm'
 * (`isoInTimeZone` / `zonedWallTimeToIso`, common/zoned-time.ts, which also gives the wall clock used here).
 *
 * Nothing here throws: no value reads `NO_DATE_TEXT`, an unreadable one `UNKNOWN_DATE_TEXT`.
 */
import { knownTimeZone, wallParts, type WallParts } from './zoned-time';

/** What an absent date (null, undefined, empty) reads. */
export const NO_DATE_TEXT = '—';
/** What a value that is not a date reads. */
export const UNKNOWN_DATE_TEXT = 'Unknown date';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = ({ year, month, day }: Pick<WallParts, 'year' | 'month' | 'day'>) => `${day} ${MONTHS[month - 1] ?? '?'} ${year}`;

type Instant = { at: number } | { text: string };

function instantOf(iso: string | null | undefined): Instant {
  if (iso === null || iso === undefined || iso === '') return { text: NO_DATE_TEXT };
  const at = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? { text: UNKNOWN_DATE_TEXT } : { at };
}

/** The zone as it is written after a time: "(Europe/London)", "(UTC)". Unknown zones read "(UTC)". */
export function zoneLabel(timeZone: unknown): string {
  return `(${knownTimeZone(timeZone)})`;
}

/** An instant's calendar day in the site's zone: "25 Nov 2026". */
export function formatDate(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  return dayText(wallParts(instant.at, knownTimeZone(timeZone)));
}

/** An instant in the site's zone: "25 Nov 2026, 14:05 (Europe/London)". */
export function formatDateTime(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const zone = knownTimeZone(timeZone);
  const wall = wallParts(instant.at, zone);
  return `${dayText(wall)}, ${pad(wall.hour)}:${pad(wall.minute)} (${zone})`;
}

/** A clock time to the second in the site's zone: "14:05:30 (Europe/London)" (a live report's "Last updated"). */
export function formatClockTime(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const zone = knownTimeZone(timeZone);
  const wall = wallParts(instant.at, zone);
  return `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)} (${zone})`;
}

/** A minute in the site's zone: "14:05 (Europe/London)" (the Real-time report's minutes, issue 38). */
export function formatClockMinute(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const zone = knownTimeZone(timeZone);
  const wall = wallParts(instant.at, zone);
  return `${pad(wall.hour)}:${pad(wall.minute)} (${zone})`;
}

/**
 * A calendar day 'YYYY-MM-DD' as "25 Nov 2026", never shifted by a zone: the reports' UTC days
 * (common/report-dates.ts) and dates without a time (a title's release date).
 */
export function formatCalendarDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day === '' ? NO_DATE_TEXT : UNKNOWN_DATE_TEXT;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || date < 1 || date > 31) return UNKNOWN_DATE_TEXT;
  return dayText({ year, month, day: date });
}

/** A calendar month 'YYYY-MM' (the reports' UTC months) as "Nov 2026". */
export function formatCalendarMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month === '' ? NO_DATE_TEXT : UNKNOWN_DATE_TEXT;
  const index = Number(match[2]);
  if (index < 1 || index > 12) return UNKNOWN_DATE_TEXT;
  return `${MONTHS[index - 1]} ${match[1]}`;
}
