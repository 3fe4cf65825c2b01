import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Roles } from '../../../common/contract';
import { CONTENT_CREATE_MESSAGES as M, type ContentCreateRequest, type ContentItem } from '../../../common/content';
import { OWN_MESSAGES } from '../../../common/messages';
import { contentCreateMachine, CreateFailure } from '../../../machines/content-create.machine';
import { fakeActor } from '../../../machines/test-support/fakes';
import { renderView } from '../../test-support/render-view';
import { contentDetail, signedInAs } from '../../test-support/content-fixtures';
import { ContentCreatePage } from './ContentCreatePage';

const SERIES = { id: '00000000-0000-4000-8000-0000000000aa', title: 'Harbour Saga' };
const POSTER_URL = `/v2.0/appcms/files/${'a'.repeat(64)}.png`;

function show(options: { roles?: Roles; url?: string; create?: (body: ContentCreateRequest) => ContentItem; upload?: () => unknown } = {}) {
  const openCreated = vi.fn();
  const leave = vi.fn();
  const bodies: ContentCreateRequest[] = [];
  const logic = contentCreateMachine.provide({
    actors: {
      loadSetup: fakeActor(() => ({ series: [SERIES], timeZone: 'Europe/Paris' })),
      uploadArtwork: fakeActor(options.upload ?? (() => ({ url: POSTER_URL, width: 400, height: 600 }))),
      createItem: fakeActor((body: ContentCreateRequest) => {
        bodies.push(body);
        return (options.create ?? (() => contentDetail({ kind: body.kind, title: body.title }).item))(body);
      }),
    },
    actions: { openCreated: (_, params) => openCreated(params), leave },
  });
  const rendered = renderView(<ContentCreatePage />, {
    pages: { contentCreate: logic },
    url: options.url ?? '/content/new',
    routePath: '/content/new',
    actors: { auth: { readStoredSession: fakeActor(() => signedInAs(options.roles ?? { Content: 'write' })) } },
  });
  return { rendered, openCreated, leave, bodies };
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
    type('Starts at (Europe/Paris)', '2026-12-01T20:30');
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
});
