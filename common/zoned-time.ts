/**
 * Wall clocks in a time zone, computed in ONE place (issue 30): the display format
 * (common/display-format.ts) reads an instant's wall clock here, and the date-time fields
 * (<input type="datetime-local">, 'YYYY-MM-DDTHH:mm') convert between a wall time in the site's zone
 * and an ISO instant here. One cached Intl formatter per zone; nothing here throws on a bad value.
 */

/** The wall clock of an instant in a zone. */
export interface WallParts { year: number; month: number; day: number; hour: number; minute: number; second: number }

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    partFormats.set(zone, format);
  }
  return format;
}

/** A time zone name the runtime knows, or 'UTC'. */
export function knownTimeZone(timeZone: unknown): string {
  if (typeof timeZone !== 'string' || !timeZone) return 'UTC';
  try {
    partsFormat(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** The wall clock of `at` (ms since the epoch) in `zone` (a zone `knownTimeZone` accepted). */
export function wallParts(at: number, zone: string): WallParts {
  const parts = partsFormat(zone).formatToParts(new Date(at));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/** The offset (ms) of `zone` from UTC at `instant`. */
function zoneOffsetMs(instant: number, zone: string): number {
  const wall = wallParts(instant, zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A wall time 'YYYY-MM-DDTHH:mm' in `timeZone` as an ISO instant; null when it is not a date and time. */
export function zonedWallTimeToIso(wall: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) return null;
  const [y = NaN, mo = NaN, d = NaN, h = NaN, mi = NaN] = match.slice(1).map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  // A day past the month's end rolls into the next month (hours and minutes are bounded by hand).
  if (new Date(asUtc).getUTCMonth() !== mo - 1 || h > 23 || mi > 59) return null;
  const zone = knownTimeZone(timeZone);
  // Two passes: the offset at the guess, then at the corrected instant (right across a DST change).
  let instant = asUtc - zoneOffsetMs(asUtc, zone);
  instant = asUtc - zoneOffsetMs(instant, zone);
  return new Date(instant).toISOString();
}

/** An ISO instant as 'YYYY-MM-DD HH:mm' in `timeZone`; a value that is not a date is given back as it is. */
export function isoInTimeZone(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const w = wallParts(at, knownTimeZone(timeZone));
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}
