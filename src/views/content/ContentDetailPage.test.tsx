import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { Roles } from '../../../common/contract';
import { AVAILABILITY_MESSAGES } from '../../../common/content-availability';
import { OWN_MESSAGES } from '../../../common/messages';
import {
  EDITOR_FAILURE, EditorFailure, type EditorRecord, type EditorSaveInput,
} from '../../../machines/editor.machine';
import { editorPageMachine } from '../../../machines/editor-page.machine';
import { pageHistoryMachine } from '../../../machines/history.machine';
import { pageActionLogic, pageEditorMachine } from '../../../machines/list-page.machine';
import { historyFakeActors, historyFakes, revision, type HistoryFakes } from '../../test-harness/history-fakes';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { contentRecordOf } from '../../../machines/content-record';
import { renderView, settle } from '../../test-harness/render-view';
import { mediaTestPages } from '../../test-harness/media-pages';
import { ContentDetailPage } from './ContentDetailPage';
import { contentDetail, contentRow, signedInAs } from '../../test-harness/content-fixtures';
import { artworkUploadMachine } from '../../../machines/artwork-upload.machine';
import { contentAvailabilityFakes, contentAvailabilityTestPages } from '../../test-harness/content-availability-pages';

const ID = contentRow(1).id;

function availabilityPages() {
  const fakes = contentAvailabilityFakes();
  fakes.records.availability = {
    id: ID, values: { publishAt: '', unpublishAt: '', countryGroupIds: [], timeZone: 'UTC' }, version: 1,
    data: { timezone: 'UTC', status: 'draft', licences: [], groups: [] },
  };
  return contentAvailabilityTestPages(fakes);
}

function show(options: {
  roles?: Roles;
  load?: () => Promise<EditorRecord>;
  save?: (input: EditorSaveInput) => Promise<EditorRecord>;
  pendingLoad?: boolean;
  history?: HistoryFakes;
} = {}) {
  const leave = vi.fn();
  const saves: EditorSaveInput[] = [];
  const history = options.history ?? historyFakes();
  const logic = editorPageMachine.provide({
    actors: {
      editor: pageEditorMachine.provide({
        actors: {
          load: options.pendingLoad ? pendingActor() : fromPromise(options.load ?? (async () => contentRecordOf(contentDetail()))),
          save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
            saves.push(input);
            return (options.save ?? (async () => contentRecordOf(contentDetail({ title: 'Harbour Lights (restored)', version: 2 }))))(input);
          }),
        },
      }),
      pageAction: pageActionLogic.provide({ actors: { perform: pendingActor() } }),
      history: pageHistoryMachine.provide({ actors: historyFakeActors(history) }),
    },
    actions: { leave },
  });
  const rendered = renderView(
    <ContentDetailPage />,
    {
      // The availability panel (issue 29) with an item that has no times, groups or licences.
      // Issue 38: the Artwork panel, its I/O never answering here (src/views/content/ArtworkPanel.test.tsx drives it).
      pages: { contentDetail: logic, ...availabilityPages(), ...mediaTestPages(), contentArtwork: artworkUploadMachine.provide({ actors: { uploadArtwork: pendingActor(), saveArtwork: pendingActor() } }) },
      url: `/content/video/${ID}`,
      routePath: '/content/$contentType/$id',
      actors: { auth: { readStoredSession: fakeActor(() => signedInAs(options.roles ?? { Content: 'write' })) } },
    },
  );
  return { rendered, leave, saves, history };
}

describe('ContentDetailPage', () => {
  it('shows the fields, the drawn artwork, the plays and the QoS summary', async () => {
    await show().rendered;
    expect(screen.getByRole('heading', { level: 1, name: 'Harbour Lights 1' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Artwork of Harbour Lights 1' }).tagName.toLowerCase()).toBe('svg');
    expect(screen.getByText('coast, family')).toBeTruthy();
    const plays = screen.getByRole('region', { name: 'Plays, last 30 days' });
    expect(within(plays).getByText('90')).toBeTruthy();
    const qos = screen.getByRole('region', { name: 'Quality of service, last 30 days' });
    expect(within(qos).getByText('1,234 ms')).toBeTruthy();
    expect(within(qos).getByText('1.2 %')).toBeTruthy();
    expect(within(qos).getByText('4,200 kbps')).toBeTruthy();
    expect(within(qos).getByRole('figure', { name: 'Startup time (sessions)' })).toBeTruthy();
  });

  it('says there were no plays instead of drawing empty charts', async () => {
    const empty = contentDetail({ plays30d: 0 });
    empty.playsByDay = empty.playsByDay.map((d) => ({ ...d, plays: 0 }));
    empty.qos = { ...empty.qos, sessions: 0, avgStartupMs: null, rebufferRatio: null, errorRate: null, avgBitrateKbps: null };
    await show({ load: async () => contentRecordOf(empty) }).rendered;
    expect(within(screen.getByRole('region', { name: 'Plays, last 30 days' })).getByText(OWN_MESSAGES.contentNoPlays)).toBeTruthy();
    const qos = screen.getByRole('region', { name: 'Quality of service, last 30 days' });
    expect(within(qos).getByText(OWN_MESSAGES.contentNoPlays)).toBeTruthy();
    expect(within(qos).queryByRole('figure')).toBeNull();
  });

  it('shows the artwork image when the item has one', async () => {
    await show({ load: async () => contentRecordOf(contentDetail({ artworkUrl: '/art/harbour.jpg' })) }).rendered;
    expect(screen.getByRole('img', { name: 'Artwork of Harbour Lights 1' }).getAttribute('src')).toBe('/art/harbour.jpg');
  });

  it('edits the title and saves only what changed, with the version read', async () => {
    const { rendered, saves } = show();
    const view = await rendered;
    const title = screen.getByLabelText('Title');
    await view.user.clear(title);
    await view.user.type(title, 'Harbour Lights (restored)');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(saves).toEqual([expect.objectContaining({ id: ID, version: 1, changes: { title: 'Harbour Lights (restored)' } })]);
    expect(screen.getByRole('status').textContent).toBe(OWN_MESSAGES.contentSaved);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Harbour Lights (restored)');
  });

  it('keeps a title typed while the item is read again after an availability save, over what is read (issue 38)', async () => {
    let answer: (record: EditorRecord) => void = () => {};
    let loads = 0;
    const { rendered, saves } = show({
      load: () => (loads++ === 0
        ? Promise.resolve(contentRecordOf(contentDetail()))
        : new Promise<EditorRecord>((resolve) => { answer = resolve; })),
      save: async () => contentRecordOf(contentDetail({ title: 'Typed during the read', status: 'published', version: 3 })),
    });
    const view = await rendered;
    await view.user.type(await screen.findByLabelText('Unpublish at'), '2027-01-20T08:00');
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    expect(await screen.findByText(AVAILABILITY_MESSAGES.availabilitySaved)).toBeTruthy();
    expect(loads).toBe(2);
    // The item's editor reads the item again: the form stays editable and keeps what is typed.
    const title = screen.getByLabelText('Title');
    expect(title).toHaveProperty('disabled', false);
    await view.user.clear(title);
    await view.user.type(title, 'Typed during the read');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Typed during the read');
    // The read answers with the availability's new status and version: the typed title stays, the status is the stored one.
    answer(contentRecordOf(contentDetail({ status: 'published', version: 2 })));
    await settle();
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Typed during the read');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('published');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(saves).toEqual([expect.objectContaining({ id: ID, version: 2, changes: { title: 'Typed during the read' } })]);
    expect(screen.queryByText(OWN_MESSAGES.contentConflict)).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Typed during the read');
  });

  it('says, beside "Saved", that a manual status change cancelled the pending unpublish (issue 37)', async () => {
    const notice = AVAILABILITY_MESSAGES.unpublishCancelled('31 Dec 2026, 10:00');
    const { rendered, saves } = show({ save: async () => contentRecordOf({ ...contentDetail({ status: 'unpublished', version: 2 }), notice }) });
    const view = await rendered;
    await view.user.selectOptions(screen.getByLabelText('Status'), 'unpublished');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(saves).toEqual([expect.objectContaining({ changes: { status: 'unpublished' } })]);
    expect(screen.getByRole('status').textContent).toBe(`${OWN_MESSAGES.contentSaved} ${notice}`);
  });

  it('edits the rating, the original language and the release day; an emptied day is sent as none', async () => {
    const { rendered, saves } = show();
    const view = await rendered;
    expect((screen.getByLabelText('Rating') as HTMLSelectElement).value).toBe('PG-13');
    expect((screen.getByLabelText('Original language') as HTMLSelectElement).value).toBe('en');
    expect((screen.getByLabelText('Release date') as HTMLInputElement).value).toBe('2025-11-20');
    await view.user.selectOptions(screen.getByLabelText('Rating'), 'TV-MA');
    await view.user.selectOptions(screen.getByLabelText('Original language'), 'Japanese');
    await view.user.clear(screen.getByLabelText('Release date'));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(saves).toEqual([expect.objectContaining({ version: 1, changes: { rating: 'TV-MA', originalLanguage: 'ja', releaseDate: '' } })]);
  });

  it('schedules in one place (issue 38): the status offers no "Scheduled", the form points to Availability', async () => {
    await show().rendered;
    const options = [...(screen.getByLabelText('Status') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['draft', 'published', 'unpublished']);
    expect(screen.queryByLabelText(/Goes live at/)).toBeNull();
    expect(screen.getByTestId('schedule-hint').textContent).toBe('To publish it later, set "Publish at" under Availability.');
  });

  it('names a scheduled item\'s go-live time in the site\'s zone and points to Availability to change it', async () => {
    const scheduled = contentDetail({ status: 'scheduled', scheduledAt: '2026-12-24T17:00:00.000Z' });
    await show({ load: async () => contentRecordOf(scheduled, 'America/New_York') }).rendered;
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect(status.value).toBe('scheduled');
    expect([...status.options].map((o) => [o.value, o.disabled])).toEqual([['draft', false], ['published', false], ['unpublished', false], ['scheduled', true]]);
    expect(screen.getByTestId('schedule-hint').textContent).toBe('Goes live 24 Dec 2026, 17:00. Change or cancel it under Availability.');
  });

  it('offers Reload after a conflict', async () => {
    const { rendered } = show({ save: async () => { throw new EditorFailure(EDITOR_FAILURE.conflict, OWN_MESSAGES.contentConflict); } });
    const view = await rendered;
    await view.user.type(screen.getByLabelText('Genre'), ' noir');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(OWN_MESSAGES.contentConflict);
    await view.user.click(screen.getByRole('button', { name: 'Reload' }));
    await settle();
    expect((screen.getByLabelText('Genre') as HTMLInputElement).value).toBe('Drama');
  });

  it('shows a read role no edit form', async () => {
    await show({ roles: { Content: 'read' } }).rendered;
    expect(screen.getByRole('heading', { level: 1, name: 'Harbour Lights 1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('goes back at once without changes, and asks first with unsaved changes', async () => {
    const { rendered, leave } = show();
    const view = await rendered;
    await view.user.type(screen.getByLabelText('Title'), '!');
    await view.user.click(screen.getByRole('button', { name: '← Back to library' }));
    const dialog = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(leave).not.toHaveBeenCalled();
    await view.user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await view.user.click(screen.getByRole('button', { name: '← Back to library' }));
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('takes Back while the save is with the server, without a question (issue 38)', async () => {
    const { rendered, leave } = show({ save: () => new Promise<EditorRecord>(() => {}) });
    const view = await rendered;
    await view.user.type(screen.getByLabelText('Title'), '!');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: '← Back to library' }));
    expect(leave).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });

  // A navigation the page did not start (a header tab, the browser's back button) goes through the
  // editor's leave guard; in the browser, back and forward reach it through the router's popstate blocker.
  it('lets another navigation leave at once without changes', async () => {
    const view = await show().rendered;
    await view.navigate('/content');
    expect(view.location()).toBe('/content');
  });

  it('holds another navigation with unsaved changes until the person chooses', async () => {
    const view = await show().rendered;
    await view.user.type(screen.getByLabelText('Title'), '!');
    await view.navigate('/content');
    expect(view.location()).toBe(`/content/video/${ID}`);
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await settle();
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
    expect(view.location()).toBe(`/content/video/${ID}`);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour Lights 1!');
    await view.navigate('/content');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await settle();
    expect(view.location()).toBe('/content');
  });

  it('says clearly when the item does not exist', async () => {
    await show({ load: async () => { throw new EditorFailure(EDITOR_FAILURE.notFound, OWN_MESSAGES.contentNotFound); } }).rendered;
    expect(screen.getByRole('heading', { name: 'Content not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(OWN_MESSAGES.contentNotFound);
    expect(screen.getByRole('button', { name: '← Back to library' })).toBeTruthy();
  });

  it('shows loading while the item is read', async () => {
    await show({ pendingLoad: true }).rendered;
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  it('lets the person retry a failed load', async () => {
    let calls = 0;
    const view = await show({
      load: async () => {
        calls += 1;
        if (calls === 1) throw new Error('The server could not be reached. Please try again.');
        return contentRecordOf(contentDetail());
      },
    }).rendered;
    expect(screen.getByRole('alert').textContent).toContain('The server could not be reached.');
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(screen.getByRole('heading', { level: 1, name: 'Harbour Lights 1' })).toBeTruthy();
  });

  it('an episode\'s History names its series and never shows its poster\'s address (issue 38)', async () => {
    const SERIES_ID = '5e1e5000-0000-4000-8000-000000000001';
    const episode = { ...contentDetail({ kind: 'episode', seriesId: SERIES_ID, seasonNumber: 1, episodeNumber: 2 }), family: { success: true as const, series: { id: SERIES_ID, title: 'Ocean Tales' }, seasons: [], episodes: [] } };
    const history = historyFakes();
    history.revisions[ID] = [revision(6, [
      { field: 'seriesId', before: null, after: SERIES_ID },
      { field: 'posterUrl', before: '/v2.0/appcms/files/site/6c74aa.png', after: '/v2.0/appcms/files/site/7d85bb.png' },
    ], { kind: 'content', objectId: ID, actor: { id: 'u2', username: 'content@demo.test' } })];
    await show({ roles: { Content: 'read' }, history, load: async () => contentRecordOf(episode) }).rendered;
    const item = await screen.findByTestId('revision-6');
    expect(within(item).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Series: (empty) → Ocean Tales', 'Poster: changed']);
    expect(item.textContent).not.toContain('/v2.0/');
  });

  it('shows the item\'s History (who changed what, in words) and a read role sees it without Restore', async () => {
    const history = historyFakes();
    history.revisions[ID] = [revision(5, [{ field: 'status', before: 'draft', after: 'published' }], { kind: 'content', objectId: ID, actor: { id: 'u2', username: 'content@demo.test' } })];
    history.canRestore = false;
    const view = await show({ roles: { Content: 'read' }, history }).rendered;
    const item = await screen.findByTestId('revision-5');
    expect(item.textContent).toContain('Status: Draft → Published');
    expect(item.textContent).toContain('by content@demo.test');
    expect(history.loads[0]).toEqual({ kind: 'content', objectId: ID, page: 1 });
    await view.user.click(within(item).getByRole('button', { name: 'Compare with now' }));
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
  });
});

describe('ContentDetailPage: a series\' poster (issue 38, helper dialogs)', () => {
  const series = () => ({ ...contentDetail({ kind: 'series', posterUrl: '' }), family: { success: true as const, series: null, seasons: [], episodes: [] } });

  it('offers the poster panel on a series for a writer', async () => {
    await show({ load: async () => contentRecordOf(series()) }).rendered;
    const poster = await screen.findByRole('region', { name: 'Poster' });
    expect(within(poster).getByLabelText(/^Upload poster \(2:3/).getAttribute('type')).toBe('file');
  });

  it('a reader sees the series\' poster panel without a control', async () => {
    await show({ roles: { Content: 'read' }, load: async () => contentRecordOf(series()) }).rendered;
    const poster = await screen.findByRole('region', { name: 'Poster' });
    expect(within(poster).getByRole('img', { name: /^Poster of / })).toBeTruthy();
    expect(within(poster).queryByLabelText(/^(Upload|Replace) poster/)).toBeNull();
  });

  it('shows a series\' stored poster once, in its Poster panel (not again beside the artwork or in the family)', async () => {
    const stored = `/v2.0/appcms/files/${'c'.repeat(64)}.png`;
    const withPoster = () => ({ ...contentDetail({ kind: 'series', posterUrl: stored }), family: { success: true as const, series: null, seasons: [], episodes: [] } });
    await show({ load: async () => contentRecordOf(withPoster()) }).rendered;
    const poster = await screen.findByRole('region', { name: 'Poster' });
    const shown = screen.getAllByRole('img', { name: /^Poster of / });
    expect(shown).toHaveLength(1);
    expect(within(poster).getByRole('img', { name: /^Poster of / })).toBe(shown[0]);
    expect(shown[0]!.getAttribute('src')).toBe(stored);
  });

  it('a video has no poster panel', async () => {
    await show().rendered;
    await screen.findByRole('region', { name: 'Artwork' });
    expect(screen.queryByRole('region', { name: 'Poster' })).toBeNull();
    expect(screen.queryByRole('img', { name: /^Poster of / })).toBeNull();
  });
});
