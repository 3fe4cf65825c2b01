import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Roles } from '../../../common/contract';
import { AVAILABILITY_MESSAGES as M } from '../../../common/content-availability';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { contentAvailabilityFakes, contentAvailabilityTestPages } from '../../test-harness/content-availability-pages';
import { signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { LicencesPage, type LicenceListRow } from './LicencesPage';

const ROW: LicenceListRow = {
  id: '33333333-3333-4333-8333-333333333333', name: 'EU window', contentTitle: 'Storm Coast', version: 4,
  startsText: '1 Dec 2026, 00:00', endsText: '1 Jun 2027, 00:00', groupNames: ['British Isles'],
};
const ITEM = { id: '44444444-4444-4444-8444-444444444444', title: 'Storm Coast', kind: 'video' };
const GROUP = { id: '22222222-2222-4222-8222-222222222222', name: 'British Isles' };
const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });

function setup() {
  const fakes = contentAvailabilityFakes();
  fakes.rows.licences = { items: [ROW], total: 1 };
  fakes.records.licences = {
    id: ROW.id, version: 4,
    values: { contentId: ITEM.id, name: 'EU window', startsAt: '2026-12-01T00:00', endsAt: '2027-06-01T00:00', countryGroupIds: [GROUP.id], timeZone: 'Europe/London' },
    data: { items: [ITEM], groups: [GROUP], timeZone: 'Europe/London' },
  };
  return { fakes, pages: contentAvailabilityTestPages(fakes) };
}

describe('LicencesPage', () => {
  it("opens the list on the address's search and page and writes a typed search back once typing pauses (issue 38)", async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<LicencesPage />, { url: '/content/licences?search=EU&page=3&status=bogus', pages, actors: as('read') });
    expect(fakes.reads).toEqual([{ search: 'EU', filters: {}, offset: 40, limit: 20 }]);
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    expect(box.value).toBe('EU');
    await view.user.type(box, ' window');
    await waitFor(() => expect(fakes.written).toEqual([{ route: '/content/licences', query: { search: 'EU window', filters: {}, offset: 0, limit: 20 } }]));
  });

  it('lists each licence with its item, window in the site\'s zone and country groups', async () => {
    const { pages } = setup();
    await renderView(<LicencesPage />, { url: '/content/licences', pages, actors: as('write') });
    const row = screen.getByRole('row', { name: /EU window/ });
    expect(row.textContent).toContain('Storm Coast');
    expect(row.textContent).toContain('1 Dec 2026, 00:00');
    expect(row.textContent).toContain('British Isles');
    expect(screen.getByRole('link', { name: 'New licence' })).toBeTruthy();
  });

  it('refuses an end before the start beside the field, then saves the window with its groups', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<LicencesPage />, { url: `/content/licences?edit=${ROW.id}`, pages, actors: as('write') });
    expect(await screen.findByLabelText(/^Start/)).toBeTruthy();
    expect((screen.getByRole('combobox', { name: /Item/ }) as HTMLSelectElement).disabled).toBe(true);
    const end = screen.getByLabelText(/^End/);
    await view.user.clear(end);
    await view.user.type(end, '2026-11-01T00:00');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(M.licenceEndsBeforeStart)).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
    await view.user.clear(end);
    await view.user.type(end, '2027-01-01T12:30');
    await view.user.click(screen.getByRole('checkbox', { name: 'British Isles' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fakes.saves).toHaveLength(1));
    expect(fakes.saves[0]).toMatchObject({ kind: 'licences', input: { id: ROW.id, version: 4, changes: { endsAt: '2027-01-01T12:30', countryGroupIds: [] } } });
  });

  it('creates a licence only once an item is chosen', async () => {
    const { fakes, pages } = setup();
    fakes.records.licences = { ...fakes.records.licences!, values: { contentId: '', name: '', startsAt: '', endsAt: '', countryGroupIds: [], timeZone: 'UTC' } };
    const view = await renderView(<LicencesPage />, { url: '/content/licences?edit=new', pages, actors: as('write') });
    await view.user.type(await screen.findByRole('textbox', { name: /Name/ }), 'World window');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(M.licenceNeedsItem)).toBeTruthy();
    expect(screen.getByText(M.dateRequired('Start'))).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
  });

  it('asks before deleting a licence, naming it and its item, then deletes it with its version', async () => {
    const { fakes, pages } = setup();
    fakes.actionAnswer = M.licenceDeleted('EU window');
    const view = await renderView(<LicencesPage />, { url: '/content/licences', pages, actors: as('write') });
    await view.user.click(screen.getByRole('button', { name: 'Delete EU window' }));
    expect(screen.getByRole('dialog', { name: 'Delete licence' }).textContent).toContain(M.licenceDeleteConfirm('EU window', 'Storm Coast'));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(M.licenceDeleted('EU window')));
    expect(fakes.actions[0]).toMatchObject({ name: 'delete', args: { id: ROW.id, version: 4 } });
  });

  it('shows a read role the licences without create or delete', async () => {
    const { pages } = setup();
    await renderView(<LicencesPage />, { url: '/content/licences', pages, actors: as('read') });
    expect(screen.getByRole('row', { name: /EU window/ })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New licence' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});
