import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Roles } from '../../../common/contract';
import { CONTENT_CREATE_MESSAGES as M, type ContentCreateRequest, type ContentItem } from '../../../common/content';
import { OWN_MESSAGES } from '../../../common/messages';
import { contentCreateMachine, CreateFailure, type CreateDraft, type CreateSeries } from '../../../machines/content-create.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { contentDetail, signedInAs } from '../../test-harness/content-fixtures';
import { ContentCreatePage } from './ContentCreatePage';

const SERIES = { id: '00000000-0000-4000-8000-0000000000aa', title: 'Harbour Saga' };
const POSTER_URL = `/v2.0/appcms/files/${'a'.repeat(64)}.png`;

function show(options: {
  roles?: Roles; url?: string; create?: (body: ContentCreateRequest) => ContentItem; upload?: () => unknown; draft?: CreateDraft; series?: CreateSeries[];
} = {}) {
  const openCreated = vi.fn();
  const leave = vi.fn();
  const keepDraft = vi.fn();
  const forgetDraft = vi.fn();
  const bodies: ContentCreateRequest[] = [];
  const logic = contentCreateMachine.provide({
    actors: {
      loadSetup: fakeActor(() => ({ series: options.series ?? [SERIES], timeZone: 'Europe/Paris', draft: options.draft ?? null })),
      uploadArtwork: fakeActor(options.upload ?? (() => ({ url: POSTER_URL, width: 400, height: 600 }))),
      createItem: fakeActor((body: ContentCreateRequest) => {
        bodies.push(body);
        return (options.create ?? (() => contentDetail({ kind: body.kind, title: body.title }).item))(body);
      }),
    },
    actions: { openCreated: (_, params) => openCreated(params), leave, keepDraft: (_, params) => keepDraft(params), forgetDraft },
  });
  const rendered = renderView(<ContentCreatePage />, {
    pages: { contentCreate: logic },
    url: options.url ?? '/content/new',
    routePath: '/content/new',
    actors: { auth: { readStoredSession: fakeActor(() => signedInAs(options.roles ?? { Content: 'write' })) } },
  });
  return { rendered, openCreated, leave, bodies, keepDraft, forgetDraft };
}

const type = (name: string, value: string) => fireEvent.change(screen.getByLabelText(name), { target: { value } });

describe('ContentCreatePage', () => {
  it('creates a series with two seasons and a poster, previewed at the apps\' sizes', async () => {
    const { rendered, openCreated, bodies } = show();
    await rendered;
    expect(screen.getByRole('heading', { level: 1, name: 'Create content' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('radio', { name: 'Series' }));
    type('Title', 'Harbour Saga 2');
    type('Genre', 'Drama');
    type('Number of seasons', '2');
    type('Rating', 'TV-14');
    const previews = screen.getByLabelText('Poster previews');
    expect(within(previews).getAllByRole('img').map((el) => el.tagName.toLowerCase())).toEqual(['div', 'div', 'div']);
    const file = new File([new Uint8Array([1, 2, 3])], 'poster.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(/^Poster \(2:3/), { target: { files: [file] } });
    await vi.waitFor(() => expect(within(previews).getAllByRole('img')[0]!.tagName.toLowerCase()).toBe('img'));
    const shown = within(previews).getAllByRole('img', { name: /Poster at/ });
    expect(screen.getByText('Poster uploaded: 400 × 600 px.')).toBeTruthy();
    expect(shown.map((img) => [img.tagName.toLowerCase(), img.getAttribute('width'), img.getAttribute('height')])).toEqual([
      ['img', '240', '360'], ['img', '120', '180'], ['img', '60', '90'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Create series' }));
    await vi.waitFor(() => expect(openCreated).toHaveBeenCalled());
    expect(bodies[0]).toMatchObject({ kind: 'series', title: 'Harbour Saga 2', rating: 'TV-14', seasons: [{ number: 1 }, { number: 2 }], posterUrl: POSTER_URL });
  });

  it('opens an episode form with its series and season from the address, and shows the server\'s refusal beside its field', async () => {
    const { rendered, bodies } = show({
      url: `/content/new?kind=episode&series=${SERIES.id}&season=2`,
      create: () => { throw new CreateFailure(M.episodeTaken(1, 2, SERIES.title), { episodeNumber: M.episodeTaken(1, 2, SERIES.title) }); },
    });
    await rendered;
    expect((await screen.findByRole('radio', { name: 'Episode' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('combobox', { name: 'Series' }) as HTMLSelectElement).value).toBe(SERIES.id);
    expect((screen.getByLabelText('Season') as HTMLInputElement).value).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Create episode' }));
    expect(screen.getByText(M.titleRequired)).toBeTruthy();
    expect(screen.getByText(M.durationRequired)).toBeTruthy();
    type('Title', 'Pilot');
    type('Genre', 'Drama');
    type('Duration (minutes)', '42');
    fireEvent.click(screen.getByRole('button', { name: 'Create episode' }));
    const alerts = await screen.findAllByText(M.episodeTaken(1, 2, SERIES.title));
    expect(alerts.length).toBe(2);
    expect(screen.getByLabelText('Episode number').getAttribute('aria-invalid')).toBe('true');
    expect(bodies[0]).toMatchObject({ kind: 'episode', seriesId: SERIES.id, seasonNumber: 2, episodeNumber: 1, durationSeconds: 2520 });
  });

  it('asks a live event for its start in the site time zone, and shows a refused upload', async () => {
    const { rendered, bodies } = show({ upload: () => { throw new Error(M.artworkRatio('Thumbnail', 16, 9, 400, 600)); } });
    await rendered;
    fireEvent.click(await screen.findByRole('radio', { name: 'Live event' }));
    fireEvent.change(screen.getByLabelText(/^Thumbnail \(16:9/), { target: { files: [new File(['x'], 't.png', { type: 'image/png' })] } });
    expect(await screen.findByText(M.artworkRatio('Thumbnail', 16, 9, 400, 600))).toBeTruthy();
    type('Title', 'Final');
    type('Genre', 'Sport');
    type('Starts at', '2026-12-01T20:30');
    fireEvent.click(screen.getByRole('button', { name: 'Create live event' }));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ kind: 'live', startsAt: '2026-12-01T19:30:00.000Z', thumbnailUrl: '' });
  });

  it('offers a read-only role nothing, and Cancel goes back', async () => {
    await show({ roles: { Content: 'read' } }).rendered;
    expect(screen.getByRole('alert').textContent).toBe(OWN_MESSAGES.contentNoEditRole);
    expect(screen.queryByRole('button', { name: /Create/ })).toBeNull();
  });

  it('leaves on Cancel', async () => {
    const { rendered, leave } = show();
    await rendered;
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('asks before Cancel loses a typed title: Stay keeps it, Leave discards it', async () => {
    const { rendered, leave, keepDraft, forgetDraft } = show();
    await rendered;
    await screen.findByLabelText('Title');
    type('Title', 'Harbour lights');
    expect(keepDraft).toHaveBeenLastCalledWith(expect.objectContaining({ values: expect.objectContaining({ title: 'Harbour lights' }) }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour lights');
    expect(leave).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    expect(leave).toHaveBeenCalledTimes(1);
    expect(forgetDraft).toHaveBeenCalledTimes(1);
  });

  it('holds a navigation to the Library while something is typed, until the person chooses', async () => {
    const view = await show().rendered;
    await screen.findByLabelText('Title');
    type('Title', 'Harbour lights');
    await view.navigate('/content');
    expect(view.location()).toBe('/content/new');
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(view.location()).toBe('/content/new');
    await view.navigate('/content');
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await vi.waitFor(() => expect(view.location()).toBe('/content'));
  });

  it('says in words, beside the field and before any submit, a duration, episode or number of seasons past its bound and a season the series does not have', async () => {
    const { rendered, bodies } = show({ url: `/content/new?kind=episode&series=${SERIES.id}&season=1`, series: [{ ...SERIES, seasons: [1, 2] }] });
    await rendered;
    await screen.findByLabelText('Season');
    type('Duration (minutes)', '2000');
    expect(screen.getByText('The duration must be no longer than 1,440 minutes (24 hours).')).toBeTruthy();
    expect(screen.getByLabelText('Duration (minutes)').getAttribute('aria-invalid')).toBe('true');
    type('Episode number', '5000');
    expect(screen.getByText(M.episodeNumberRule)).toBeTruthy();
    type('Season', '3');
    expect(screen.getByText('Season 3 does not exist in “Harbour Saga”.')).toBeTruthy();
    expect(screen.getByLabelText('Season').getAttribute('aria-invalid')).toBe('true');
    type('Season', '2');
    expect(screen.queryByText(M.seasonMissing(3, SERIES.title))).toBeNull();
    type('Title', 'Pilot');
    type('Genre', 'Drama');
    fireEvent.click(screen.getByRole('button', { name: 'Create episode' }));
    expect(screen.getByText(M.durationTooLong)).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('radio', { name: 'Series' }));
    type('Number of seasons', '60');
    expect(screen.getByText(M.seasonsTooMany)).toBeTruthy();
  });

  it('brings back the form kept before a reload, and checks the season as it is typed', async () => {
    const draft: CreateDraft = {
      kind: 'episode',
      values: {
        title: 'Pilot', description: 'First one', genre: 'Drama', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '42',
        startsAt: '', seasons: '1', seriesId: SERIES.id, seasonNumber: '1', episodeNumber: '1',
      },
      artwork: {},
    };
    await show({ draft }).rendered;
    expect((await screen.findByRole('radio', { name: 'Episode' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Pilot');
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('First one');
    type('Season', '0');
    expect(screen.getByText(M.seasonNumberRule)).toBeTruthy();
    expect(screen.getByLabelText('Season').getAttribute('aria-invalid')).toBe('true');
    type('Season', '2');
    expect(screen.queryByText(M.seasonNumberRule)).toBeNull();
  });
});
