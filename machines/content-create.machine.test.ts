import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { CONTENT_CREATE_MESSAGES as M, type ContentItem } from '../common/content';
import {
  contentCreateMachine, CreateFailure, createRequestOf, missingFields, selectCreateContext, selectCreatePhase,
  selectCreateConfirmingLeave, selectCreateGuardsLeaving, seasonNumberError, durationError, seasonsError, episodeNumberError, typedFieldError, seasonMissingError, type CreateSetup,
  type ContentCreateInput, type CreateDraft, type CreateValues,
} from './content-create.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const SETUP = { series: [{ id: 's-1', title: 'Harbour' }], timeZone: 'Europe/Paris' };
const ITEM: ContentItem = {
  id: 'new-1', kind: 'series', title: 'Saga', status: 'draft', durationSeconds: 0, plays30d: 0, updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1, artworkUrl: '', description: '', genre: '', tags: [], scheduledAt: null, publishedAt: null, posterUrl: '', rating: 'NR',
  originalLanguage: 'en', releaseDate: null, startsAt: null, seasons: [{ number: 1, title: 'Season 1' }], seriesId: null, seasonNumber: null,
  episodeNumber: null, createdAt: '2026-01-01T00:00:00.000Z',
};
const POSTER = { url: '/v2.0/appcms/files/abc.png', width: 400, height: 600 };

function start(over: { create?: (input: unknown) => unknown; upload?: (input: unknown) => unknown; input?: ContentCreateInput; draft?: CreateDraft; setup?: Partial<CreateSetup> } = {}) {
  const openCreated = vi.fn();
  const leave = vi.fn();
  const keepDraft = vi.fn();
  const forgetDraft = vi.fn();
  const createItem = vi.fn(over.create ?? (() => ITEM));
  const machine = contentCreateMachine.provide({
    actors: { loadSetup: fakeActor(() => ({ ...SETUP, ...over.setup, draft: over.draft ?? null })), uploadArtwork: fakeActor(over.upload ?? (() => POSTER)), createItem: fakeActor(createItem) },
    actions: { openCreated: (_, params) => openCreated(params), leave, keepDraft: (_, params) => keepDraft(params), forgetDraft },
  });
  return { actor: createActor(machine, { input: over.input ?? {} }).start(), openCreated, leave, createItem, keepDraft, forgetDraft };
}

const values = (over: Partial<CreateValues>): CreateValues => ({
  title: 'T', description: '', genre: 'Drama', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '',
  startsAt: '', seasons: '1', seriesId: '', seasonNumber: '1', episodeNumber: '1', ...over,
});

describe('content create', () => {
  it('creates a series with its seasons and its poster, then opens it', async () => {
    const { actor, openCreated, createItem, forgetDraft } = start();
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
    expect(forgetDraft).toHaveBeenCalledTimes(1);
    expect(selectCreateGuardsLeaving(actor.getSnapshot())).toBe(false);
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
    expect(selectCreatePhase(actor.getSnapshot())).toBe('left');
  });

  it('asks before Cancel loses typed input: Stay keeps it, Leave discards the kept form and goes to the library', async () => {
    const { actor, leave, forgetDraft, keepDraft } = start();
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateGuardsLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'create.change', field: 'title', value: 'Harbour lights' });
    expect(keepDraft).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'video', values: expect.objectContaining({ title: 'Harbour lights' }), artwork: {} }));
    expect(selectCreateGuardsLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'create.cancel' });
    expect(selectCreatePhase(actor.getSnapshot())).toBe('confirmingLeave');
    expect(selectCreateConfirmingLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'create.leaveCancel' });
    expect(selectCreatePhase(actor.getSnapshot())).toBe('editing');
    expect(selectCreateContext(actor.getSnapshot()).values.title).toBe('Harbour lights');
    expect(leave).not.toHaveBeenCalled();
    actor.send({ type: 'create.cancel' });
    actor.send({ type: 'create.leaveConfirm' });
    expect(leave).toHaveBeenCalledTimes(1);
    expect(forgetDraft).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('holds a navigation it did not start while something is typed (another kind counts), and lets it through otherwise', async () => {
    const { actor, leave, forgetDraft } = start();
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.navigate' });
    expect(selectCreatePhase(actor.getSnapshot())).toBe('editing');
    actor.send({ type: 'create.kind', kind: 'live' });
    actor.send({ type: 'create.navigate' });
    expect(selectCreatePhase(actor.getSnapshot())).toBe('confirmingNavigation');
    actor.send({ type: 'create.leaveConfirm' });
    // The router goes on by itself: the machine only drops the kept form.
    expect(leave).not.toHaveBeenCalled();
    expect(forgetDraft).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('brings back the form this tab kept before a reload, artwork included', async () => {
    const draft: CreateDraft = { kind: 'series', values: values({ title: 'Saga', seasons: '3' }), artwork: { poster: POSTER } };
    const { actor } = start({ draft });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(actor.getSnapshot())).toMatchObject({ kind: 'series', values: draft.values, artwork: draft.artwork });
    expect(selectCreateGuardsLeaving(actor.getSnapshot())).toBe(true);
  });

  it('keeps the address\'s choice over a kept form of another kind or series ("Add episode" of a series)', async () => {
    const draft: CreateDraft = { kind: 'video', values: values({ title: 'Other' }), artwork: {} };
    const { actor } = start({ draft, input: { kind: 'episode', seriesId: 's-1', seasonNumber: 2 } });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(actor.getSnapshot())).toMatchObject({ kind: 'episode', values: expect.objectContaining({ title: '', seriesId: 's-1', seasonNumber: '2' }) });
    expect(selectCreateGuardsLeaving(actor.getSnapshot())).toBe(false);
    const same = { kind: 'episode' as const, values: values({ title: 'Pilot', seriesId: 's-1', seasonNumber: '2' }), artwork: {} };
    const again = start({ draft: same, input: { kind: 'episode', seriesId: 's-1', seasonNumber: 2 } });
    await waitFor(again.actor, (s) => selectCreatePhase(s) === 'editing');
    expect(selectCreateContext(again.actor.getSnapshot()).values.title).toBe('Pilot');
  });

  it('checks the season as it is typed, by the server\'s rule (a whole number from 1 to 100)', async () => {
    const { actor } = start({ input: { kind: 'episode', seriesId: 's-1' } });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '101' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBe(M.seasonNumberRule);
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBe(M.seasonRequired);
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '2' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBeUndefined();
    expect([seasonNumberError('1'), seasonNumberError('100'), seasonNumberError('0'), seasonNumberError('1.5')]).toEqual([null, null, M.seasonNumberRule, M.seasonNumberRule]);
    expect(M.seasonNumberRule).toBe('Enter the season as a whole number from 1 to 100.');
  });
});

describe('upper bounds in operator words (issue 38)', () => {
  it('says the duration, the number of seasons and the episode number are too large as they are typed, and again on submit', async () => {
    const { actor, createItem } = start({ input: { kind: 'episode', seriesId: 's-1' } });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.change', field: 'durationMinutes', value: '2000' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.durationMinutes).toBe('The duration must be no longer than 1,440 minutes (24 hours).');
    actor.send({ type: 'create.change', field: 'episodeNumber', value: '5000' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.episodeNumber).toBe(M.episodeNumberRule);
    actor.send({ type: 'create.change', field: 'title', value: 'Pilot' });
    actor.send({ type: 'create.change', field: 'genre', value: 'Drama' });
    actor.send({ type: 'create.submit' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({ durationMinutes: M.durationTooLong, episodeNumber: M.episodeNumberRule });
    expect(createItem).not.toHaveBeenCalled();
    actor.send({ type: 'create.change', field: 'durationMinutes', value: '1440' });
    actor.send({ type: 'create.change', field: 'episodeNumber', value: '1000' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({});
    actor.send({ type: 'create.kind', kind: 'series' });
    actor.send({ type: 'create.change', field: 'seasons', value: '60' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasons).toBe(M.seasonsTooMany);
    actor.send({ type: 'create.submit' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors).toEqual({ seasons: M.seasonsTooMany });
    expect(createItem).not.toHaveBeenCalled();
  });

  it('says the typed season does not exist in the chosen series as soon as they disagree, before any submit', async () => {
    const { actor, createItem } = start({
      input: { kind: 'episode' },
      setup: { series: [{ id: 's-1', title: 'Harbour', seasons: [1, 2] }, { id: 's-2', title: 'Coast', seasons: [1, 2, 3] }, { id: 's-3', title: 'Old' }] },
    });
    await waitFor(actor, (s) => selectCreatePhase(s) === 'editing');
    actor.send({ type: 'create.change', field: 'seriesId', value: 's-1' });
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '3' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBe('Season 3 does not exist in “Harbour”.');
    actor.send({ type: 'create.change', field: 'seriesId', value: 's-2' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBeUndefined();
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '4' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBe(M.seasonMissing(4, 'Coast'));
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '0' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBe(M.seasonNumberRule);
    actor.send({ type: 'create.change', field: 'seasonNumber', value: '4' });
    // A series whose seasons the list does not say: the server decides.
    actor.send({ type: 'create.change', field: 'seriesId', value: 's-3' });
    expect(selectCreateContext(actor.getSnapshot()).fieldErrors.seasonNumber).toBeUndefined();
    expect(createItem).not.toHaveBeenCalled();
    expect(seasonMissingError({ kind: 'video', series: [{ id: 's-1', title: 'Harbour', seasons: [1] }] }, values({ seriesId: 's-1', seasonNumber: '5' }))).toBeNull();
  });

  it('checks each bound at its edge', () => {
    expect([durationError('video', '1440'), durationError('video', '1441'), durationError('live', ''), durationError('live', '1441'), durationError('video', '')])
      .toEqual([null, M.durationTooLong, null, M.durationTooLong, M.durationRequired]);
    expect([seasonsError('50'), seasonsError('51'), seasonsError('0')]).toEqual([null, M.seasonsTooMany, M.seasonsRequired]);
    expect([episodeNumberError('1000'), episodeNumberError('1001'), episodeNumberError('0'), episodeNumberError('')])
      .toEqual([null, M.episodeNumberRule, M.episodeNumberRule, M.episodeNumberRequired]);
    expect([typedFieldError('video', 'durationMinutes', ''), typedFieldError('series', 'seasons', '0'), typedFieldError('episode', 'episodeNumber', ''), typedFieldError('video', 'title', 'x')])
      .toEqual([null, null, null, null]);
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
      .toEqual({ seriesId: M.seriesRequired, seasonNumber: M.seasonNumberRule, episodeNumber: M.episodeNumberRequired });
  });
});

describe('content create machine: every path', () => {
  const events = [
      { type: 'xstate.done.actor.loadSetup', output: SETUP },
      { type: 'xstate.error.actor.loadSetup', error: new Error('offline') },
      { type: 'create.retry' },
      { type: 'create.cancel' },
      { type: 'create.navigate' },
      { type: 'create.leaveConfirm' },
      { type: 'create.leaveCancel' },
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
