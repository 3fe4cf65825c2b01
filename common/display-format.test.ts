import { describe, expect, it } from 'vitest';
import {
  NO_DATE_TEXT, UNKNOWN_DATE_TEXT, formatClockMinute, formatClockTime, formatDate, formatDateTime, formatCalendarDay, formatCalendarMonth, siteZoneNote,
} from './display-format';

describe('formatDateTime: the console\'s one date-and-time format, in the site\'s zone', () => {
  it('writes day, short month, year, 24-hour time and the zone\'s name', () => {
    expect(formatDateTime('2026-11-25T14:05:00Z', 'Europe/London')).toBe('25 Nov 2026, 14:05');
    expect(formatDateTime('2026-11-25T14:05:00Z', 'America/New_York')).toBe('25 Nov 2026, 09:05');
    expect(formatDateTime('2026-11-25T14:05:00Z', 'UTC')).toBe('25 Nov 2026, 14:05');
  });

  it('moves the calendar day with the zone', () => {
    expect(formatDateTime('2026-11-25T02:30:00Z', 'America/New_York')).toBe('24 Nov 2026, 21:30');
    expect(formatDateTime('2026-11-25T23:30:00Z', 'Asia/Tokyo')).toBe('26 Nov 2026, 08:30');
    expect(formatDate('2026-11-25T02:30:00Z', 'America/New_York')).toBe('24 Nov 2026');
    expect(formatDate('2026-11-25T02:30:00Z', 'UTC')).toBe('25 Nov 2026');
  });

  it('writes midnight as 00:00, never 24:00', () => {
    expect(formatDateTime('2026-01-01T00:00:00Z', 'UTC')).toBe('1 Jan 2026, 00:00');
    expect(formatDateTime('2026-06-30T23:00:00Z', 'Europe/London')).toBe('1 Jul 2026, 00:00');
  });

  it('follows summer time across the DST changes (Europe/London, 29 Mar and 25 Oct 2026)', () => {
    // Spring forward: 01:00 GMT becomes 02:00 BST.
    expect(formatDateTime('2026-03-29T00:59:00Z', 'Europe/London')).toBe('29 Mar 2026, 00:59');
    expect(formatDateTime('2026-03-29T01:00:00Z', 'Europe/London')).toBe('29 Mar 2026, 02:00');
    // Fall back: 02:00 BST becomes 01:00 GMT; 01:30 happens twice.
    expect(formatDateTime('2026-10-25T00:30:00Z', 'Europe/London')).toBe('25 Oct 2026, 01:30');
    expect(formatDateTime('2026-10-25T01:30:00Z', 'Europe/London')).toBe('25 Oct 2026, 01:30');
    expect(formatDateTime('2026-10-25T02:30:00Z', 'Europe/London')).toBe('25 Oct 2026, 02:30');
  });

  it('follows the US changes too (America/New_York, 8 Mar and 1 Nov 2026)', () => {
    expect(formatDateTime('2026-03-08T06:59:00Z', 'America/New_York')).toBe('8 Mar 2026, 01:59');
    expect(formatDateTime('2026-03-08T07:00:00Z', 'America/New_York')).toBe('8 Mar 2026, 03:00');
    expect(formatDateTime('2026-11-01T05:30:00Z', 'America/New_York')).toBe('1 Nov 2026, 01:30');
    expect(formatDateTime('2026-11-01T06:30:00Z', 'America/New_York')).toBe('1 Nov 2026, 01:30');
  });

  it('writes every month with the same three letters, whatever the browser\'s ICU data says', () => {
    const months = Array.from({ length: 12 }, (_, i) => formatDate(`2026-${String(i + 1).padStart(2, '0')}-15T12:00:00Z`, 'UTC'));
    expect(months).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m) => `15 ${m} 2026`));
  });

  it('falls back to UTC for a zone the site does not name or the browser does not know', () => {
    expect(formatDateTime('2026-11-25T14:05:00Z', undefined)).toBe('25 Nov 2026, 14:05');
    expect(formatDateTime('2026-11-25T14:05:00Z', '')).toBe('25 Nov 2026, 14:05');
    expect(formatDateTime('2026-11-25T14:05:00Z', 'Mars/Olympus_Mons')).toBe('25 Nov 2026, 14:05');
    expect(formatDate('2026-11-25T23:05:00Z', 42)).toBe('25 Nov 2026');
    expect(siteZoneNote('Mars/Olympus_Mons')).toBe("Dates and times in UTC, the site's time zone.");
    expect(siteZoneNote('Europe/London')).toBe("Dates and times in Europe/London, the site's time zone.");
  });

  it('writes a clock time to the second where seconds matter, in the same zone notation', () => {
    expect(formatClockTime('2026-11-25T14:05:09Z', 'Europe/London')).toBe('14:05:09');
    expect(formatClockTime('2026-07-01T00:00:00Z', 'Europe/London')).toBe('01:00:00');
    // Issue 38: the Real-time report's minutes read in the site's zone, like its "Last updated".
    expect(formatClockMinute('2026-12-05T22:35:00.000Z', 'America/New_York')).toBe('17:35');
    expect(formatClockMinute(null, 'UTC')).toBe(NO_DATE_TEXT);
    expect(formatClockTime('2026-11-25T14:05:09Z', 'Nowhere/Else')).toBe('14:05:09');
  });

  it('never throws: no value and an unreadable value read as clear words', () => {
    for (const format of [formatDate, formatDateTime, formatClockTime]) {
      expect(format(null, 'UTC')).toBe(NO_DATE_TEXT);
      expect(format(undefined, 'UTC')).toBe(NO_DATE_TEXT);
      expect(format('', 'UTC')).toBe(NO_DATE_TEXT);
      expect(format('not a date', 'Europe/London')).toBe(UNKNOWN_DATE_TEXT);
      expect(format('2026-13-45T99:00:00Z', 'Europe/London')).toBe(UNKNOWN_DATE_TEXT);
      expect(format(12 as unknown as string, 'UTC')).toBe(UNKNOWN_DATE_TEXT);
    }
    expect(NO_DATE_TEXT).toBe('—');
    expect(UNKNOWN_DATE_TEXT).toBe('Unknown date');
  });
});

describe('report days and months: UTC calendar days in the same visual format, never shifted', () => {
  it('writes a day and a month like every other date', () => {
    expect(formatCalendarDay('2026-11-25')).toBe('25 Nov 2026');
    expect(formatCalendarDay('2026-01-01')).toBe('1 Jan 2026');
    expect(formatCalendarMonth('2026-11')).toBe('Nov 2026');
    expect(formatCalendarMonth('2026-09')).toBe('Sep 2026');
  });

  it('reads clear words for anything else', () => {
    expect(formatCalendarDay('')).toBe(NO_DATE_TEXT);
    expect(formatCalendarDay('25/11/2026')).toBe(UNKNOWN_DATE_TEXT);
    expect(formatCalendarDay('2026-13-01')).toBe(UNKNOWN_DATE_TEXT);
    expect(formatCalendarMonth('')).toBe(NO_DATE_TEXT);
    expect(formatCalendarMonth('2026-00')).toBe(UNKNOWN_DATE_TEXT);
    expect(formatCalendarMonth('Nov')).toBe(UNKNOWN_DATE_TEXT);
  });
});
