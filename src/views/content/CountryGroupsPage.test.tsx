import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Roles } from '../../../common/contract';
import { AVAILABILITY_MESSAGES as M, type CountryGroup } from '../../../common/content-availability';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { contentAvailabilityFakes, contentAvailabilityTestPages } from '../../test-harness/content-availability-pages';
import { signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { CountryGroupsPage } from './CountryGroupsPage';

const GROUP: CountryGroup = {
  id: '22222222-2222-4222-8222-222222222222', name: 'British Isles', countries: ['GB', 'IE'], version: 2, usedByItems: 1, usedByLicences: 0,
};
const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });

function setup() {
  const fakes = contentAvailabilityFakes();
  fakes.rows.countryGroups = { items: [GROUP], total: 1 };
  fakes.records.countryGroups = { id: GROUP.id, values: { name: GROUP.name, countries: 'GB, IE' }, version: 2, data: null };
  return { fakes, pages: contentAvailabilityTestPages(fakes) };
}

describe('CountryGroupsPage', () => {
  it('lists the groups with their countries and use, and offers a writer create, edit and delete', async () => {
    const { pages } = setup();
    await renderView(<CountryGroupsPage />, { url: '/content/country-groups', pages, actors: as('write') });
    const row = screen.getByRole('row', { name: /British Isles/ });
    expect(row.textContent).toContain('GB, IE');
    expect(row.textContent).toContain('1 item, 0 licences');
    expect(screen.getByRole('link', { name: 'New country group' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete British Isles' })).toBeTruthy();
  });

  it('names an unknown country code beside the field and saves nothing, then saves the codes entered', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<CountryGroupsPage />, { url: `/content/country-groups?edit=${GROUP.id}`, pages, actors: as('write') });
    const countries = await screen.findByRole('textbox', { name: /Countries/ });
    await view.user.clear(countries);
    await view.user.type(countries, 'GB, XX');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(M.countryGroupUnknownCountry('XX'))).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
    await view.user.clear(countries);
    await view.user.type(countries, 'gb ie im');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fakes.saves).toHaveLength(1));
    expect(fakes.saves[0]).toMatchObject({ kind: 'countryGroups', input: { id: GROUP.id, version: 2, changes: { countries: 'gb ie im' } } });
    expect(await screen.findByText(M.countryGroupSaved)).toBeTruthy();
  });

  it('asks before deleting, saying what deleting does; a group in use is refused with the server\'s message', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<CountryGroupsPage />, { url: '/content/country-groups', pages, actors: as('write') });
    await view.user.click(screen.getByRole('button', { name: 'Delete British Isles' }));
    expect(screen.getByRole('dialog', { name: 'Delete country group' }).textContent).toContain(M.countryGroupDeleteConfirm('British Isles'));
    expect(fakes.actions).toHaveLength(0);
    fakes.refuse = { status: 409, message: M.countryGroupInUse('British Isles', 1, 0) };
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(M.countryGroupInUse('British Isles', 1, 0)));
    expect(fakes.actions).toEqual([{ name: 'delete', args: { id: GROUP.id, version: 2 }, label: 'British Isles' }]);
  });

  it('shows a read role the list and a disabled form, without create, delete or save', async () => {
    const { pages } = setup();
    await renderView(<CountryGroupsPage />, { url: `/content/country-groups?edit=${GROUP.id}`, pages, actors: as('read') });
    expect(screen.getByRole('row', { name: /British Isles/ })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New country group' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect((await screen.findByRole('textbox', { name: /Name/ }) as HTMLInputElement).disabled).toBe(true);
  });
});
