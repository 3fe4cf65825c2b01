import { screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { listMachine } from '../../../machines/list.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { ListTable } from './ListTable';
import type { ListRef } from './page-refs';

const ROWS = Array.from({ length: 20 }, (_, i) => ({ id: `p${i}`, name: `Plan ${i}` }));
let list: ListRef;

function Table() {
  list = useActorRef(listMachine.provide({ actors: { fetchPage: fakeActor(() => ({ items: ROWS, total: 45 })) } }), { input: { filters: { status: '' } } });
  return <ListTable<{ id: string; name: string }> list={list} label="Plans" statuses={{ draft: 'Draft', active: 'Active' }} columns={[{ title: 'Name', cell: (r) => r.name }]} />;
}

describe('ListTable', () => {
  it('shows the rows, the range and the paging', async () => {
    await renderView(<Table />);
    expect(screen.getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('1–20 of 45')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends search, status and next page to the list', async () => {
    const view = await renderView(<Table />);
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(list.getSnapshot().context.query.offset).toBe(20);
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'active');
    expect(list.getSnapshot().context.query).toMatchObject({ filters: { status: 'active' }, offset: 0 });
    await view.user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'go');
    expect(list.getSnapshot().context.query.search).toBe('go');
  });
});
