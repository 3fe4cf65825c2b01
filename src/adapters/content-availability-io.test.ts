/**
 * Issue 37: the availability panel and the licence form refuse, beside the field, a date outside the
 * one range of date inputs (common/instant-bounds.ts) with the server's message, before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { AVAILABILITY_MESSAGES as M } from '../../common/content-availability';
import { availabilityErrors, licenceErrors } from './content-availability-io';

describe('date fields of the availability panel and the licence form', () => {
  it('name a date past 9999-12-31 (UTC) in the site\'s zone, and take the last minute of the range', () => {
    const zone = 'America/New_York';
    expect(availabilityErrors({ timeZone: zone, publishAt: '9999-12-31T23:00', unpublishAt: '' })).toEqual({ publishAt: M.dateOutOfRange('Publish at') });
    expect(availabilityErrors({ timeZone: zone, publishAt: '', unpublishAt: '9999-12-31T23:00' })).toEqual({ unpublishAt: M.dateOutOfRange('Unpublish at') });
    expect(availabilityErrors({ timeZone: zone, publishAt: '', unpublishAt: '9999-12-31T18:59' })).toEqual({});
    const licence = { contentId: 'c', name: 'Window', timeZone: zone };
    expect(licenceErrors({ ...licence, startsAt: '1969-12-31T18:59', endsAt: '9999-12-31T23:00' })).toEqual({
      startsAt: M.dateOutOfRange('Start'), endsAt: M.dateOutOfRange('End'),
    });
    expect(licenceErrors({ ...licence, startsAt: '1969-12-31T19:00', endsAt: '9999-12-31T18:59' })).toEqual({});
  });
});
