import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Roles } from '../../../common/contract';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { usePageActor } from '../../page-actors';
import { contentAvailabilityFakes, contentAvailabilityTestPages } from '../../test-harness/content-availability-pages';
import { signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { RecordListPage } from './RecordListPage';

interface Row { id: string; name: string; version: number; region: string }
const ROW: Row = { id: '55555555-5555-4555-8555-555555555555', name: 'Nordics', version: 7, region: 'North' };
const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });

function Harness({ writable }: { writable: boolean }) {
  const page = usePageActor('countryGroups', { input: { filters: {}, confirm: ['delete'] } });
  return (
    <RecordListPage<Row>
      page={page} writable={writable} route="/content/country-groups" title="Regions" searchLabel="Search regions" newLabel="New region"
      columns={[{ title: 'Region', cell: (r) => `Region ${r.region}` }]}
      deleteArgs={(r) => ({ region: r.region })}
      deleteTitle="Delete region" deleteQuestion={(pending) => `Delete ${pending.label} for good?`}
      editor={() => <p>editor</p>}
    />
  );
}

function setup() {
  const fakes = contentAvailabilityFakes();
  fakes.rows.countryGroups = { items: [ROW], total: 1 };
  return { fakes, pages: contentAvailabilityTestPages(fakes) };
}

describe('RecordListPage', () => {
  it('shows the title, a Name column linking to the record, the page\'s columns and, for a writer, New and Delete', async () => {
    const { pages } = setup();
    await renderView(<Harness writable />, { url: '/content/country-groups', pages, actors: as('write') });
    expect(screen.getByRole('heading', { name: 'Regions' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to library' }).getAttribute('href')).toBe('/content');
    const row = screen.getByRole('row', { name: /Nordics/ });
    expect(within(row).getByRole('link', { name: 'Nordics' }).getAttribute('href')).toBe(`/content/country-groups?edit=${ROW.id}`);
    expect(row.textContent).toContain('Region North');
    expect(screen.getByRole('link', { name: 'New region' }).getAttribute('href')).toBe('/content/country-groups?edit=new');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Region', 'Actions']);
  });

  it('asks before a delete with the page\'s question; Cancel sends nothing, Delete sends id, version and the page\'s arguments', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<Harness writable />, { url: '/content/country-groups', pages, actors: as('write') });
    await view.user.click(screen.getByRole('button', { name: 'Delete Nordics' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete region' });
    expect(dialog.textContent).toContain('Delete Nordics for good?');
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fakes.actions).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Delete Nordics' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fakes.actions).toEqual([{ name: 'delete', args: { id: ROW.id, version: 7, region: 'North' }, label: 'Nordics' }]));
  });

  it('offers a read role no New link and no Actions column', async () => {
    const { pages } = setup();
    await renderView(<Harness writable={false} />, { url: '/content/country-groups', pages, actors: as('read') });
    expect(screen.getByRole('row', { name: /Nordics/ })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New region' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Region']);
  });

  it('is the page\'s one main landmark, holding its back link, title and list (issue 38: landmark-one-main and region on Video licences and Country groups)', async () => {
    const { pages } = setup();
    await renderView(<Harness writable />, { url: '/content/country-groups', pages, actors: as('write') });
    const [main, ...others] = screen.getAllByRole('main');
    expect(others).toHaveLength(0);
    expect(within(main!).getByRole('link', { name: '← Back to library' })).toBeTruthy();
    expect(within(main!).getByRole('heading', { level: 1, name: 'Regions' })).toBeTruthy();
    expect(within(main!).getByRole('row', { name: /Nordics/ })).toBeTruthy();
    expect(within(main!).getByRole('link', { name: 'New region' })).toBeTruthy();
  });
});
