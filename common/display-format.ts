/**
 * The console's one way of writing dates and times on screen (issue 30, "Consistency across areas").
 * Every area (Users, Content, Monetization, AppCMS, Admin, Analytics, the account pages) writes:
 *
 * - a date as "25 Nov 2026",
 * - a date and time as "25 Nov 2026, 14:05": 24-hour clock,
 * - a clock time to the second, only where seconds matter (a live report's "Last updated"), as
 *   "14:05:30",
 *
 * in the SITE's time zone, which every signed-in page states once (issue 38: "one date format and the
 * site's zone on every page, stated once per page"): `siteZoneNote` under the header, so neither a value
 * nor a date field's label repeats it. The zone is: the site profile's `defaultTimezone` (kept client-side in the cookie
 * `COOKIE_NAMES.defaultTimezone`, common/constants.ts), falling back to UTC when the site names no
 * zone or one the browser does not know (`knownTimeZone`, common/content.ts). The same instant reads
 * the same for every operator of a site, whatever their own computer's zone or language.
 *
 * Locale: en-GB (day, short month, year; 24-hour clock). The site profile has no locale field, so
 * the console does not follow the browser's language; month names come from the table below, not
 * from the browser's ICU data, so "Sep" reads the same in every browser.
 *
 * Analytics days and months are the site's calendar days already (the server counts them in the site's
 * zone, issue 38; common/site-day.ts): they read in the same visual format ("25 Nov 2026", "Nov 2026")
 * through `formatCalendarDay` / `formatCalendarMonth` and are never shifted again. CSV downloads keep ISO dates (common/report-csv.ts) and do not use this.
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

/** An instant's calendar day in the site's zone: "25 Nov 2026". */
export function formatDate(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  return dayText(wallParts(instant.at, knownTimeZone(timeZone)));
}

/**
 * The one sentence that states the site's zone on a signed-in page (under the header): "Dates and times
 * in Europe/London, the site's time zone." Unknown zones read UTC, like every value.
 */
export function siteZoneNote(timeZone: unknown): string {
  return `Dates and times in ${knownTimeZone(timeZone)}, the site's time zone.`;
}

/** An instant in the site's zone: "25 Nov 2026, 14:05". */
export function formatDateTime(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const wall = wallParts(instant.at, knownTimeZone(timeZone));
  return `${dayText(wall)}, ${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** A clock time to the second in the site's zone: "14:05:30" (a live report's "Last updated"). */
export function formatClockTime(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const wall = wallParts(instant.at, knownTimeZone(timeZone));
  return `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
}

/** A minute in the site's zone: "14:05" (the Real-time report's minutes, issue 38). */
export function formatClockMinute(iso: string | null | undefined, timeZone: unknown): string {
  const instant = instantOf(iso);
  if ('text' in instant) return instant.text;
  const wall = wallParts(instant.at, knownTimeZone(timeZone));
  return `${pad(wall.hour)}:${pad(wall.minute)}`;
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
