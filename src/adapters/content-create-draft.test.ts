// @vitest-environment jsdom
/** Create New's kept form (issue 38) on the one draft store: what comes back from the tab's session storage after a reload. */
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateDraft } from '../../machines/content-create.machine';
import { contentCreateDraft, CREATE_DRAFT_KEY, createDraftOf, formDraftOfCreate } from './content-create-draft';
import { forgetAllFormDrafts, keepFormDraft, readFormDraft } from './form-drafts';

afterEach(() => { sessionStorage.clear(); });

const DRAFT: CreateDraft = {
  kind: 'video',
  values: {
    title: 'Harbour lights', description: 'A night at the port', genre: 'Drama', tags: 'sea', rating: 'NR', originalLanguage: 'en', releaseDate: '',
    durationMinutes: '95', startsAt: '', seasons: '1', seriesId: '', seasonNumber: '1', episodeNumber: '1',
  },
  artwork: { poster: { url: '/v2.0/appcms/files/a.png', width: 400, height: 600 } },
};

describe('Create New draft on the form-drafts store', () => {
  it('keeps the whole form, artwork included, under the shared store and brings it back', () => {
    expect(contentCreateDraft.read()).toBeNull();
    contentCreateDraft.keep(DRAFT);
    expect(Object.keys({ ...sessionStorage })).toEqual([`formDraft:${CREATE_DRAFT_KEY}`]);
    expect(readFormDraft(CREATE_DRAFT_KEY)?.values).toMatchObject({ kind: 'video', title: 'Harbour lights', 'artwork.poster.url': '/v2.0/appcms/files/a.png' });
    expect(contentCreateDraft.read()).toEqual(DRAFT);
    contentCreateDraft.forget();
    expect(contentCreateDraft.read()).toBeNull();
  });

  it('is cleared with every other form draft on sign-out', () => {
    contentCreateDraft.keep(DRAFT);
    keepFormDraft('content.item:c1', { version: 2, values: { title: 'x' } });
    sessionStorage.setItem('selectedNetwork', 'kids');
    forgetAllFormDrafts();
    expect(contentCreateDraft.read()).toBeNull();
    expect(readFormDraft('content.item:c1')).toBeNull();
    expect(sessionStorage.getItem('selectedNetwork')).toBe('kids');
  });

  it('drops an unknown kind or a form missing a field', () => {
    expect(createDraftOf(null)).toBeNull();
    expect(createDraftOf({ version: 0, values: { ...formDraftOfCreate(DRAFT).values, kind: 'podcast' } })).toBeNull();
    const { title: _title, ...missingTitle } = formDraftOfCreate(DRAFT).values;
    expect(createDraftOf({ version: 0, values: missingTitle })).toBeNull();
    sessionStorage.setItem(`formDraft:${CREATE_DRAFT_KEY}`, '{not json');
    expect(contentCreateDraft.read()).toBeNull();
  });

  it('keeps only the known artwork slots with a whole stored file', () => {
    const values = { ...formDraftOfCreate(DRAFT).values, 'artwork.banner.url': '/b.png', 'artwork.thumbnail.url': '/t.png', 'artwork.thumbnail.width': '7' };
    expect(createDraftOf({ version: 0, values })?.artwork).toEqual(DRAFT.artwork);
  });
});
