// @vitest-environment jsdom
/**
 * Issue 30 (one date format, the site's zone): the Offers and Coupons editors' date-time fields are
 * entered and shown in the site's time zone (the `defaultTimezone` cookie), as the lists show them,
 * not in the browser's own zone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COOKIE_NAMES } from '../../common/constants';
import { clearAllCookies, writeCookie } from './cookies';
import { offerInputOf, siteZone, toIso, toLocalInput } from './monetization-actors';

afterEach(() => clearAllCookies());

describe('the editors\' date-time fields in the site\'s zone', () => {
  it('show a stored instant as the wall time of the given zone, across a summer-time change', () => {
    expect(toLocalInput('2026-12-01T15:30:00.000Z', 'America/New_York')).toBe('2026-12-01T10:30');
    expect(toLocalInput('2026-07-01T15:30:00.000Z', 'America/New_York')).toBe('2026-07-01T11:30');
    expect(toLocalInput('2026-07-01T15:30:00.000Z', 'UTC')).toBe('2026-07-01T15:30');
    expect(toLocalInput(null, 'UTC')).toBe('');
  });

  it('store a wall time of the zone as its instant; seconds are dropped; text that is no date and time is kept for the rules to name', () => {
    expect(toIso('2026-12-01T10:30', 'America/New_York')).toBe('2026-12-01T15:30:00.000Z');
    expect(toIso('2026-07-01T11:30:45', 'America/New_York')).toBe('2026-07-01T15:30:00.000Z');
    expect(toIso('', 'UTC')).toBe('');
    expect(toIso('next week', 'UTC')).toBe('next week');
    expect(toIso('2026-02-30T10:00', 'UTC')).toBe('2026-02-30T10:00');
    expect(toIso(toLocalInput('2027-01-31T23:59:00.000Z', 'Europe/London'), 'Europe/London')).toBe('2027-01-31T23:59:00.000Z');
  });

  it('take the zone from the session\'s defaultTimezone cookie, UTC when it is missing or unknown', () => {
    expect(siteZone()).toBe('UTC');
    writeCookie(COOKIE_NAMES.defaultTimezone, 'Not/AZone', new Date(Date.now() + 60_000));
    expect(siteZone()).toBe('UTC');
    writeCookie(COOKIE_NAMES.defaultTimezone, 'America/New_York', new Date(Date.now() + 60_000));
    expect(siteZone()).toBe('America/New_York');
    const input = offerInputOf({ name: 'Winter', discountType: 'percent', discountValue: '10', currency: 'USD', planIds: [], startsAt: '2026-12-01T00:00', endsAt: '', eligibility: 'new', status: 'active' });
    expect(input.startsAt).toBe('2026-12-01T05:00:00.000Z');
    expect(input.endsAt).toBe('');
  });
});
