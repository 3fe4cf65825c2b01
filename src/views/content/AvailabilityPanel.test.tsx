import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Roles } from '../../../common/contract';
import { AVAILABILITY_MESSAGES as M, type Licence } from '../../../common/content-availability';
import { OWN_MESSAGES } from '../../../common/messages';
import { editorMachine, type EditorRecord, type EditorSaveInput } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { contentAvailabilityFakes, contentAvailabilityTestPages } from '../../test-harness/content-availability-pages';
import { signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { AvailabilityPanel } from './AvailabilityPanel';

const ID = '55555555-5555-4555-8555-555555555555';
const GROUP = { id: '22222222-2222-4222-8222-222222222222', name: 'British Isles' };
const LICENCE: Licence = {
  id: '33333333-3333-4333-8333-333333333333', contentId: ID, contentTitle: 'Storm Coast', name: 'EU window',
  startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2027-06-01T00:00:00.000Z', countryGroupIds: [], version: 1,
};
const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });

/** The item's edit form's editor (the other editor of the same record), read at `version`; counts its reads. */
function itemEditor(version = 3) {
  const reads = { count: 0 };
  const record: EditorRecord = { id: ID, values: { title: 'Storm Coast' }, version, data: null };
  const actor = createActor(editorMachine.provide({
    actors: {
      load: fromPromise(async () => { reads.count += 1; return { ...record, version: version + reads.count - 1 }; }),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ ...record, values: input.draft, version: input.version + 1 })),
    },
  }), { input: { id: ID } }).start();
  return { actor, reads };
}

function setup() {
  const fakes = contentAvailabilityFakes();
  // Stored 2026-12-24T17:00Z, shown in the site's zone (New York, UTC−5): 12:00.
  fakes.records.availability = {
    id: ID, version: 3,
    values: { publishAt: '2026-12-24T12:00', unpublishAt: '', countryGroupIds: [GROUP.id], timeZone: 'America/New_York' },
    data: { timezone: 'America/New_York', status: 'scheduled', licences: [LICENCE], groups: [GROUP] },
  };
  return { fakes, pages: contentAvailabilityTestPages(fakes) };
}

describe('AvailabilityPanel', () => {
  it('shows publish at in the site\'s time zone, the item\'s country groups and its licences', async () => {
    const { pages } = setup();
    await renderView(<AvailabilityPanel id={ID} writable itemEditor={itemEditor().actor} />, { pages, actors: as('write') });
    expect(((await screen.findByLabelText('Publish at')) as HTMLInputElement).value).toBe('2026-12-24T12:00');
    // The zone is stated once per page, above it (ProtectedLayout), not again in the panel (issue 38).
    expect(screen.queryByText(/time zone/)).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'British Isles' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('list', { name: 'Licences' }).textContent)
      .toContain('EU window: 30 Nov 2026, 19:00 – 31 May 2027, 20:00');
  });

  it('saves the times entered, and shows the server\'s refusal naming the licence', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<AvailabilityPanel id={ID} writable itemEditor={itemEditor().actor} />, { pages, actors: as('write') });
    const unpublish = await screen.findByLabelText('Unpublish at');
    await view.user.type(unpublish, '2026-12-20T08:00');
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    expect(screen.getByText(M.unpublishBeforePublish)).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
    await view.user.clear(unpublish);
    await view.user.type(unpublish, '2027-01-20T08:00');
    const refusal = M.publishOutsideLicence('EU window', '30 Nov 2026, 19:00', '31 May 2027, 20:00');
    fakes.refuse = { status: 400, message: refusal };
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(refusal));
    expect(fakes.saves[0]).toMatchObject({ kind: 'availability', input: { id: ID, version: 3, changes: { unpublishAt: '2027-01-20T08:00' } } });
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    expect(await screen.findByText(M.availabilitySaved)).toBeTruthy();
  });

  it('holds a navigation elsewhere while changed times are unsaved, until the person chooses (issue 38)', async () => {
    const { pages } = setup();
    const view = await renderView(<AvailabilityPanel id={ID} writable itemEditor={itemEditor().actor} />, { pages, actors: as('write'), url: `/content/video/${ID}`, routePath: '/content/video/$id' });
    await view.user.type(await screen.findByLabelText('Unpublish at'), '2027-01-20T08:00');
    await view.navigate('/content');
    expect(view.location()).toBe(`/content/video/${ID}`);
    const dialog = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(view.location()).toBe(`/content/video/${ID}`);
    await view.navigate('/content');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(view.location()).toBe('/content'));
  });

  it('shows a read role the availability without Save, its fields disabled', async () => {
    const { pages } = setup();
    await renderView(<AvailabilityPanel id={ID} writable={false} itemEditor={itemEditor().actor} />, { pages, actors: as('read') });
    expect(((await screen.findByLabelText('Publish at')) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update availability' })).toBeNull();
  });

  it('tells the item\'s edit form of its save (3 → 4): the form, without changes, reads the item again; its own save moves the panel on', async () => {
    const { fakes, pages } = setup();
    const item = itemEditor(3);
    const history = { send: vi.fn() };
    const view = await renderView(<AvailabilityPanel id={ID} writable itemEditor={item.actor} history={history as unknown as PageHistoryRef} />, { pages, actors: as('write') });
    await waitFor(() => expect(item.actor.getSnapshot().value).toBe('editing'));
    const unpublish = await screen.findByLabelText('Unpublish at');
    await view.user.type(unpublish, '2027-01-20T08:00');
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    expect(await screen.findByText(M.availabilitySaved)).toBeTruthy();
    await waitFor(() => expect(item.reads.count).toBe(2));
    await waitFor(() => expect(item.actor.getSnapshot().context.version).toBe(4));
    // The item's History reads the availability's revision.
    expect(history.send.mock.calls).toEqual([[{ type: 'history.reload' }]]);
    // The item's form saves a title (4 → 5): the panel's next save goes with version 5, not refused.
    item.actor.send({ type: 'editor.change', field: 'title', value: 'Storm Coast II' });
    await view.user.clear(unpublish);
    await view.user.type(unpublish, '2027-02-20T08:00');
    item.actor.send({ type: 'editor.save' });
    await waitFor(() => expect(item.actor.getSnapshot().value).toBe('saved'));
    await view.user.click(screen.getByRole('button', { name: 'Update availability' }));
    await waitFor(() => expect(fakes.saves).toHaveLength(2));
    expect(fakes.saves[1]).toMatchObject({ kind: 'availability', input: { version: 5, changes: { unpublishAt: '2027-02-20T08:00' } } });
    await waitFor(() => expect(history.send).toHaveBeenCalledTimes(2));
  });
});
