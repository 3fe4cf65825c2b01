import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONTENT_CREATE_MESSAGES, type ContentFamilyResponse } from '../../../common/content';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { contentDetail, contentRow, signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { ContentDetailPage } from './ContentDetailPage';
import { catalogueFacts, ContentFamily } from './ContentFamily';

const SERIES_ID = '00000000-0000-4000-8000-0000000000aa';
const episode = (n: number, season: number) => ({
  id: `00000000-0000-4000-8000-00000000010${n}`, title: `Saga S${season} E${n}`, status: 'draft' as const, seasonNumber: season, episodeNumber: n,
  // The demo's seeded addresses point nowhere: never requested, a neutral box instead.
  artworkUrl: n === 1 ? `/v2.0/appcms/files/${'b'.repeat(64)}.png` : 'https://images.viewlift-demo.test/artwork/x.jpg',
});
const signedIn = (roles: Record<string, string> = { Content: 'write' }) => ({ auth: { readStoredSession: fakeActor(() => signedInAs(roles)) } });

describe('ContentFamily', () => {
  it('lists a series\' seasons with their episodes, linked, and offers Add episode to a write role', async () => {
    const item = contentDetail({ id: SERIES_ID, kind: 'series', title: 'Saga' }).item;
    const family: ContentFamilyResponse = {
      success: true, series: null, seasons: [{ number: 1, title: 'Season 1' }, { number: 2, title: 'Season 2' }], episodes: [episode(1, 1), episode(2, 1)],
    };
    await renderView(<ContentFamily item={item} family={family} writable />, { actors: signedIn() });
    const one = screen.getByRole('region', { name: 'Season 1' });
    expect(within(one).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Add episode', `/content/new?kind=episode&series=${SERIES_ID}&season=1`],
      ['Saga S1 E1', `/content/episode/${episode(1, 1).id}`],
      ['Saga S1 E2', `/content/episode/${episode(2, 1).id}`],
    ]);
    expect(within(one).getByRole('img', { name: 'Thumbnail of Saga S1 E1' }).tagName.toLowerCase()).toBe('img');
    // An episode without artwork shows a neutral box, never a broken image.
    expect(within(one).getByRole('img', { name: 'Thumbnail of Saga S1 E2: no artwork' }).tagName.toLowerCase()).toBe('div');
    expect(within(screen.getByRole('region', { name: 'Season 2' })).getByText(CONTENT_CREATE_MESSAGES.noEpisodes)).toBeTruthy();
  });

  it('offers a read role no Add episode', async () => {
    const item = contentDetail({ id: SERIES_ID, kind: 'series', title: 'Saga' }).item;
    const family: ContentFamilyResponse = { success: true, series: null, seasons: [{ number: 1, title: 'Season 1' }], episodes: [episode(1, 1)] };
    await renderView(<ContentFamily item={item} family={family} writable={false} />, { actors: signedIn({ Content: 'read' }) });
    expect(screen.queryByRole('link', { name: 'Add episode' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Saga S1 E1' })).toBeTruthy();
  });

  it('links an episode to its series, and says so when the series is gone', async () => {
    const item = contentDetail({ kind: 'episode', title: 'Saga S1 E2', seriesId: SERIES_ID, seasonNumber: 1, episodeNumber: 2 }).item;
    const view = await renderView(<ContentFamily item={item} family={{ success: true, series: { id: SERIES_ID, title: 'Saga' }, seasons: [], episodes: [] }} writable />, { actors: signedIn() });
    expect(screen.getByRole('link', { name: 'Saga' }).getAttribute('href')).toBe(`/content/series/${SERIES_ID}`);
    expect(screen.getByText(/Episode 2 of season 1 of/)).toBeTruthy();
    view.unmount();
    await renderView(<ContentFamily item={item} family={{ success: true, series: null, seasons: [], episodes: [] }} writable />, { actors: signedIn() });
    expect(screen.getByText(CONTENT_CREATE_MESSAGES.seriesMissing)).toBeTruthy();
  });

  it('shows the series\' members, not the series\' own poster (it is shown once, in the page\'s Poster panel; issue 38)', async () => {
    const item = contentDetail({ id: SERIES_ID, kind: 'series', title: 'Saga', posterUrl: `/v2.0/appcms/files/${'c'.repeat(64)}.png` }).item;
    const family: ContentFamilyResponse = { success: true, series: null, seasons: [{ number: 1, title: 'Season 1' }], episodes: [episode(1, 1)] };
    await renderView(<ContentFamily item={item} family={family} writable />, { actors: signedIn() });
    const section = screen.getByRole('region', { name: 'Seasons and episodes' });
    expect(within(section).queryByRole('img', { name: /^Poster of/ })).toBeNull();
    expect(within(section).getAllByRole('img').map((img) => img.getAttribute('aria-label') ?? img.getAttribute('alt'))).toEqual(['Thumbnail of Saga S1 E1']);
  });

  it('states the catalogue facts, a live event\'s start in the site time zone', () => {
    const item = contentDetail({ kind: 'live', rating: 'TV-14', originalLanguage: 'fr', releaseDate: '2026-11-01', startsAt: '2026-12-01T19:30:00.000Z' }).item;
    expect(catalogueFacts(item, 'Europe/Paris')).toEqual([
      ['Rating', 'TV-14'], ['Original language', 'French'], ['Release date', '1 Nov 2026'], ['Starts', '1 Dec 2026, 20:30'],
    ]);
    expect(catalogueFacts({ ...item, rating: 'NR', originalLanguage: 'xx', releaseDate: null, startsAt: null }, 'Not/AZone'))
      .toEqual([['Rating', 'Not rated'], ['Original language', 'xx']]);
  });
});

describe('ContentDetailPage with an unknown kind', () => {
  it('is a not-found page with a way back, and reads nothing', async () => {
    await renderView(<ContentDetailPage />, {
      url: `/content/anything/${contentRow(1).id}`, routePath: '/content/$contentType/$id', actors: signedIn(),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Content not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(CONTENT_CREATE_MESSAGES.unknownKind('anything'));
    expect(screen.getByRole('link', { name: '← Back to library' }).getAttribute('href')).toBe('/content');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
