// @vitest-environment jsdom
/**
 * Issue 37: the availability panel and the licence form refuse, beside the field, a date outside the
 * one range of date inputs (common/instant-bounds.ts) with the server's message, before anything is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { AVAILABILITY_MESSAGES as M } from '../../common/content-availability';
import { selectDraft, type EditorRecord, type EditorSaveInput } from '../../machines/editor.machine';
import { availabilityErrors, contentAvailabilityPanel, licenceErrors } from './content-availability-io';
import { forgetAllFormDrafts, readFormDraft } from './form-drafts';

describe('date fields of the availability panel and the licence form', () => {
  it('name a date past 9999-12-31 (UTC) in the site\'s zone, and take the last minute of the range', () => {
    const zone = 'America/New_York';
    expect(availabilityErrors({ timeZone: zone, publishAt: '9999-12-31T23:00', unpublishAt: '' })).toEqual({ publishAt: M.dateOutOfRange('Publish at') });
    expect(availabilityErrors({ timeZone: zone, publishAt: '', unpublishAt: '9999-12-31T23:00' })).toEqual({ unpublishAt: M.dateOutOfRange('Unpublish at') });
    expect(availabilityErrors({ timeZone: zone, publishAt: '', unpublishAt: '9999-12-31T18:59' })).toEqual({});
    const licence = { contentId: 'c', name: 'Window', timeZone: zone };
    expect(licenceErrors({ ...licence, startsAt: '1969-12-31T18:59', endsAt: '9999-12-31T23:00' })).toEqual({
      startsAt: M.dateOutOfRange('Start'), endsAt: M.dateOutOfRange('End'),
    });
    expect(licenceErrors({ ...licence, startsAt: '1969-12-31T19:00', endsAt: '9999-12-31T18:59' })).toEqual({});
  });
});

describe('the availability panel keeps a typed change across a reload (issue 38)', () => {
  afterEach(() => forgetAllFormDrafts());
  const STORED: EditorRecord = { values: { timeZone: 'Europe/Paris', publishAt: '', unpublishAt: '', countryGroupIds: [] }, version: 4, data: null };
  const saved: EditorSaveInput[] = [];
  const io = {
    load: fromPromise<EditorRecord, { id: string }>(async () => STORED),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => { saved.push(input); return { values: input.draft, version: input.version + 1, data: null }; }),
  };
  const open = async () => {
    const actor = createActor(contentAvailabilityPanel(io), { input: { id: 'item-7' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    return actor;
  };

  it('opens again with the typed publish time, unsaved, and forgets it once saved', async () => {
    const first = await open();
    first.send({ type: 'editor.change', field: 'publishAt', value: '2027-01-05T09:30' });
    first.stop();
    expect(readFormDraft('content.availability:item-7')).toEqual({ version: 4, values: { publishAt: '2027-01-05T09:30' } });
    const again = await open();
    expect(selectDraft(again.getSnapshot())).toMatchObject({ publishAt: '2027-01-05T09:30', timeZone: 'Europe/Paris' });
    expect(saved).toEqual([]);
    again.send({ type: 'editor.save' });
    await waitFor(again, () => saved.length === 1);
    expect(readFormDraft('content.availability:item-7')).toBeNull();
  });
});
