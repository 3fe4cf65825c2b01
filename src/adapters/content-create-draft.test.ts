/** Create New's kept form (issue 38): what comes back from the tab's session storage after a reload. */
import { describe, expect, it } from 'vitest';
import type { CreateDraft } from '../../machines/content-create.machine';
import { readCreateDraft } from './content-actors';

const DRAFT: CreateDraft = {
  kind: 'video',
  values: {
    title: 'Harbour lights', description: 'A night at the port', genre: 'Drama', tags: 'sea', rating: 'NR', originalLanguage: 'en', releaseDate: '',
    durationMinutes: '95', startsAt: '', seasons: '1', seriesId: '', seasonNumber: '1', episodeNumber: '1',
  },
  artwork: { poster: { url: '/v2.0/appcms/files/a.png', width: 400, height: 600 } },
};

describe('readCreateDraft', () => {
  it('brings back a whole kept form, artwork included', () => {
    expect(readCreateDraft(JSON.stringify(DRAFT))).toEqual(DRAFT);
  });

  it('drops nothing kept, broken text, an unknown kind or a form missing a field', () => {
    expect(readCreateDraft(null)).toBeNull();
    expect(readCreateDraft('{not json')).toBeNull();
    expect(readCreateDraft(JSON.stringify({ ...DRAFT, kind: 'podcast' }))).toBeNull();
    const { title: _title, ...missingTitle } = DRAFT.values;
    expect(readCreateDraft(JSON.stringify({ ...DRAFT, values: missingTitle }))).toBeNull();
  });

  it('keeps only the known artwork slots with a stored file', () => {
    const odd = { ...DRAFT, artwork: { ...DRAFT.artwork, banner: DRAFT.artwork.poster, thumbnail: { url: 7 } } };
    expect(readCreateDraft(JSON.stringify(odd))?.artwork).toEqual(DRAFT.artwork);
  });
});
