import { describe, expect, it } from 'vitest';
import { CONTENT_CREATE_BOUNDS, CONTENT_CREATE_MESSAGES as M } from './content';

describe('Create New: the bounds in operator words (issue 38)', () => {
  it('words the upper bounds of duration, seasons and episode number in the form\'s units', () => {
    expect(M.durationTooLong).toBe('The duration must be no longer than 1,440 minutes (24 hours).');
    expect(M.seasonsTooMany).toBe('A series can have at most 50 seasons.');
    expect(M.episodeNumberRule).toBe('Enter the episode number as a whole number from 1 to 1,000.');
    expect(M.seasonMissing(3, 'Harbour')).toBe('Season 3 does not exist in “Harbour”.');
    expect(CONTENT_CREATE_BOUNDS).toMatchObject({ durationMaxSeconds: 86400, seasonsMax: 50, episodeNumberMax: 1000 });
  });
});
