import { describe, expect, it } from 'vitest';
import type { ContentDetailResponse } from '../common/content';
import { contentRecordOf, contentUpdateOf, isoToLocalInput, localInputToIso, tagsFromText } from './content-record';

describe('content record', () => {
  it('shows a schedule as datetime-local text in the browser zone and sends it back as the same instant', () => {
    const iso = '2026-03-01T10:30:00.000Z';
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso);
    expect(isoToLocalInput(null)).toBe('');
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('not a date')).toBe('not a date');
  });

  it('reads tags from one comma-separated text, once each', () => {
    expect(tagsFromText(' drama, , news,drama ')).toEqual(['drama', 'news']);
  });

  it('holds the editable fields as the form shows them, with the whole answer as data', () => {
    const detail: ContentDetailResponse = {
      success: true,
      item: {
        id: 'c1', kind: 'video', title: 'Harbour', description: 'Sea', genre: 'Drama', tags: ['a', 'b'], status: 'draft', scheduledAt: null, version: 3,
        rating: 'PG-13', originalLanguage: 'fr', releaseDate: null, durationSeconds: 600, plays30d: 0, updatedAt: '2026-01-01T00:00:00.000Z',
        artworkUrl: '', publishedAt: null, posterUrl: '', startsAt: null, seasons: [], seriesId: null, seasonNumber: null, episodeNumber: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      playsByDay: [],
      qos: { sessions: 0, avgStartupMs: null, rebufferRatio: null, errorRate: null, avgBitrateKbps: null, startupHistogram: [], rebufferHistogram: [] },
    };
    expect(contentRecordOf(detail)).toEqual({
      values: {
        title: 'Harbour', description: 'Sea', genre: 'Drama', tags: 'a, b', status: 'draft', scheduledAt: '',
        rating: 'PG-13', originalLanguage: 'fr', releaseDate: '',
      },
      version: 3,
      data: detail,
    });
  });

  it('sends only the changed fields with the version', () => {
    expect(contentUpdateOf(4, { tags: 'x, y', scheduledAt: '' })).toEqual({ version: 4, tags: ['x', 'y'], scheduledAt: null });
    expect(contentUpdateOf(5, { title: 'T', description: 'D', genre: 'G', status: 'published' })).toEqual({
      version: 5, title: 'T', description: 'D', genre: 'G', status: 'published',
    });
    // The catalogue fields: an emptied release date is none (null), a day goes as it is.
    expect(contentUpdateOf(6, { rating: 'R', originalLanguage: 'ja', releaseDate: '' })).toEqual({ version: 6, rating: 'R', originalLanguage: 'ja', releaseDate: null });
    expect(contentUpdateOf(7, { releaseDate: '1999-03-31' })).toEqual({ version: 7, releaseDate: '1999-03-31' });
    // Only a content status is sent as the status (the form's select offers nothing else).
    expect(contentUpdateOf(8, { status: 'archived' })).toEqual({ version: 8 });
    expect(contentUpdateOf(9, { status: 'scheduled' })).toEqual({ version: 9, status: 'scheduled' });
  });
});
