import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { CONTENT_CREATE_MESSAGES as M, type ContentItem } from '../common/content';
import {
  contentCreateMachine, CreateFailure, createRequestOf, missingFields, selectCreateContext, selectCreatePhase,
  type ContentCreateInput, type CreateValues,
} from './content-create.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { fakeActor, pendingActor } from './test-support/fakes';

const SETUP = { series: [{ id: 's-1', title: 'Harbour' }], timeZone: 'Europe/Paris' };
const ITEM = { id: 'new-1', kind: 'series', title: 'Saga' } as ContentItem;
const POSTER = { url: '/v2.0/appcms/files/abc.png', width: 400, height: 600 };

function start(over: { create?: (input: unknown) => unknown; upload?: (input: unknown) => unknown; input?: ContentCreateInput } = {}) {
  const openCreated = vi.fn();
  const leave = vi.fn();
  const createItem = vi.fn(over.create ?? (() => ITEM));
  const machine = contentCreateMachine.provide({
    actors: { loadSetup: fakeActor(() => SETUP), uploadArtwork: fakeActor(over.upload ?? (() => POSTER)), createItem: fakeActor(createItem) },
    actions: { openCreated: (_, params) => openCreated(params), leave },
  });
  return { actor: createActor(machine, { input: over.input ?? {} }).start(), openCreated, leave, createItem };
}

const values = (over: Partial<CreateValues>): CreateValues => ({
  title: 'T', description: '', genre: 'Drama', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '',
  startsAt: '', seasons: '1', seriesId: '', seasonNumber: '1', episodeNumber: '1', ...over,
});

describe('content create', () => {
  it('creates a series with its seasons and its poster, then opens it', async () => {
    const { actor, openCreated, createItem } = start();
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(actor.getSnapshot()).series).toEqual(SETUP.series);
    actor.send({ type: 'create.kind', kind: 'series' });
    actor.send({ type: 'create.change', field: 'title', value: ' Saga ' });
    actor.send({ type: 'create.change', field: 'genre', value: 'Drama' });
    actor.send({ type: 'create.change', field: 'seasons', value: '2' });
    actor.send({ type: 'create.change', field: 'tags', value: 'sea, sea, coast' });
    actor.send({ type: 'create.upload', slot: 'poster', file: new Blob(['x']) });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(actor.getSnapshot()).artwork.poster).toEqual(POSTER);
    actor.send({ type: 'create.submit' });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'created');
    expect(createItem).toHaveBeenCalledWith(expect.objectContaining({
      kind: 'series', title: 'Saga', tags: ['sea', 'coast'], seasons: [{ number: 1 }, { number: 2 }], posterUrl: POSTER.url, thumbnailUrl: '',
    }));
    expect(openCreated).toHaveBeenCalledWith({ item: ITEM });
  });

  it('shows what is missing without calling the server, and the server\'s refusal beside its field', async () => {
    const { actor, createItem } = start({ create: () => { throw new CreateFailure('Season 3 does not exist.', { seasonNumber: 'Season 3 does not exist.' }); }, input: { kind: 'episode', seriesId: 's-1', seasonNumber: 3 } });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.submit' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({ title: M.titleRequired, genre: M.genreRequired, durationMinutes: M.durationRequired });
    expect(createItem).not.toHaveBeenCalled();
    actor.send({ type: 'create.change', field: 'title', value: 'E1' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.title).toBeUndefined();
    actor.send({ type: 'create.change', field: 'genre', value: 'Drama' });
    actor.send({ type: 'create.change', field: 'durationMinutes', value: '30' });
    actor.send({ type: 'create.submit' });
    await waitFor(actor, (s) => selectCreateContext(s).error !== null);
    expect(selectCreatePhase(actor.getSnapshot())).toBe('editing');
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({ seasonNumber: 'Season 3 does not exist.' });
    expect(createItem).toHaveBeenCalledWith(expect.objectContaining({ kind: 'episode', seriesId: 's-1', seasonNumber: 3, episodeNumber: 1, durationSeconds: 1800 }));
  });

  it('keeps a refused upload\'s message beside its slot, and leaves on cancel', async () => {
    const { actor, leave } = start({ upload: () => { throw new Error('A poster must be 2:3.'); } });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.upload', slot: 'poster', file: new Blob(['x']) });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({ poster: 'A poster must be 2:3.' });
    actor.send({ type: 'create.cancel' });
    expect(leave).toHaveBeenCalledTimes(1);
  });
});

describe('createRequestOf and missingFields', () => {
  it('turns a live event\'s start in the site time zone into UTC', () => {
    const body = createRequestOf({ kind: 'live', values: values({ startsAt: '2026-12-01T20:30', durationMinutes: '120' }), artwork: {}, timeZone: 'Europe/Paris' });
    expect(body).toMatchObject({ kind: 'live', startsAt: '2026-12-01T19:30:00.000Z', durationSeconds: 7200 });
    expect(body).not.toHaveProperty('seasons');
    expect(missingFields({ kind: 'live', values: values({ startsAt: '2026-02-30T10:00' }), timeZone: 'UTC' })).toEqual({ startsAt: M.startsAtInvalid });
    expect(missingFields({ kind: 'live', values: values({}), timeZone: 'UTC' })).toEqual({ startsAt: M.startsAtRequired });
    // Issue 37: the one range of dates (common/instant-bounds.ts): 9999-12-31 23:00 in New York is 10000 in UTC.
    expect(missingFields({ kind: 'live', values: values({ startsAt: '9999-12-31T23:00' }), timeZone: 'America/New_York' })).toEqual({ startsAt: M.startsAtOutOfRange });
    expect(missingFields({ kind: 'live', values: values({ startsAt: '9999-12-31T18:59' }), timeZone: 'America/New_York' })).toEqual({});
  });

  it('sends a video\'s duration in seconds and a release day, and asks a series for seasons', () => {
    expect(createRequestOf({ kind: 'video', values: values({ durationMinutes: '95', releaseDate: '2025-11-20' }), artwork: {}, timeZone: 'UTC' }))
      .toMatchObject({ durationSeconds: 5700, releaseDate: '2025-11-20' });
    expect(missingFields({ kind: 'series', values: values({ seasons: '0' }), timeZone: 'UTC' })).toEqual({ seasons: M.seasonsRequired });
    expect(missingFields({ kind: 'episode', values: values({ durationMinutes: '20', seasonNumber: 'x', episodeNumber: '' }), timeZone: 'UTC' }))
      .toEqual({ seriesId: M.seriesRequired, seasonNumber: M.seasonRequired, episodeNumber: M.episodeNumberRequired });
  });
});

describe('content create machine: every path', () => {
  const events = [
      { type: 'xstate.done.actor.loadSetup', output: SETUP },
      { type: 'xstate.error.actor.loadSetup', error: new Error('offline') },
      { type: 'create.retry' },
      { type: 'create.cancel' },
      { type: 'create.kind', kind: 'series' },
      { type: 'create.change', field: 'title', value: 'Saga' },
      { type: 'create.change', field: 'genre', value: 'Drama' },
      { type: 'create.upload', slot: 'poster', file: new Blob(['x']) },
      { type: 'xstate.done.actor.uploadArtwork', output: POSTER },
      { type: 'xstate.error.actor.uploadArtwork', error: new Error('bad') },
      { type: 'create.submit' },
      { type: 'xstate.done.actor.createItem', output: ITEM },
      { type: 'xstate.error.actor.createItem', error: new Error('x') },
  ];
  itReachesEveryStateAndTransition(contentCreateMachine, {
    input: {},
    events,
    logic: contentCreateMachine.provide({ actors: { loadSetup: pendingActor(), uploadArtwork: pendingActor(), createItem: pendingActor() } }),
  });
});
