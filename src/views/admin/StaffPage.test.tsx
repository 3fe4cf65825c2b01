import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../machines/list.machine';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-harness/render-view';
import { StaffPage } from './StaffPage';
import { member, staffList, staffPageLogic, staffPages } from '../../test-harness/admin-fixtures';

function renderStaff(list = staffList(), fetchStaff = vi.fn((_query: ListQuery) => list), url = '/admin', onSearch?: (href: string) => void) {
  return renderView(<StaffPage />, { url, pages: staffPages(staffPageLogic(fetchStaff, {}, onSearch)) });
}

describe('StaffPage', () => {
  it("opens the list searched for the address's text (issue 38: the audit log's link to an account) and writes a new search back", async () => {
    const fetchStaff = vi.fn((_query: ListQuery) => staffList());
    const hrefs: string[] = [];
    const view = await renderStaff(undefined, fetchStaff, '/admin?search=ana%40demo.test', (href) => hrefs.push(href));
    expect(fetchStaff).toHaveBeenCalledTimes(1);
    expect(fetchStaff.mock.calls[0]![0]).toMatchObject({ search: 'ana@demo.test', offset: 0 });
    expect(screen.getByPlaceholderText('Name or e-mail')).toHaveProperty('value', 'ana@demo.test');
    expect(hrefs).toEqual([]);
    await view.user.clear(screen.getByPlaceholderText('Name or e-mail'));
    expect(hrefs.at(-1)).toBe('/admin');
    await view.user.type(screen.getByPlaceholderText('Name or e-mail'), 'bo');
    expect(hrefs.at(-1)).toBe('/admin?search=bo');
  });

  it('shows the staff with their roles and offers an editor every write control (no Disable for oneself)', async () => {
    const view = await renderStaff();
    expect(screen.getByText('Ada Admin')).toBeTruthy();
    expect(screen.getByText('Admin: write')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1 · 2 accounts')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Disable Ada Admin' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Disable Bob Reader' })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'New account' }));
    expect(screen.getByRole('dialog', { name: 'New staff account' })).toBeTruthy();
  });

  it('offers "Reset second factor" only for an account that signs in with an SMS code (issue 38)', async () => {
    await renderStaff(staffList({ items: [member('ada', { displayName: 'Ada Admin', roles: { Admin: 'write' }, twoFactorOnLogin: true }), member('bob', { displayName: 'Bob Reader' })] }));
    expect(screen.getByRole('button', { name: 'Reset second factor of Ada Admin' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset second factor of Bob Reader' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reset password of Bob Reader' })).toBeTruthy();
  });

  it('shows Admin read the table without any write control', async () => {
    await renderStaff(staffList({ canEdit: false }));
    expect(screen.getByText(ADMIN_MESSAGES.noEditRole)).toBeTruthy();
    for (const name of ['New account', 'Edit Bob Reader', 'Disable Bob Reader', 'Reset password of Bob Reader', 'Reset second factor of Bob Reader']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sessions of Bob Reader' })).toBeTruthy();
  });

  it('sends the typed search and says when nothing matches', async () => {
    const fetchStaff = vi.fn((query: ListQuery) => (query.search ? staffList({ items: [], total: 0 }) : staffList()));
    const view = await renderStaff(staffList(), fetchStaff);
    await view.user.type(screen.getByLabelText('Search staff'), 'zz');
    await new Promise((r) => setTimeout(r, 350));
    await settle();
    expect(fetchStaff).toHaveBeenLastCalledWith({ search: 'zz', filters: {}, offset: 0, limit: 20 });
    expect(screen.getByText(ADMIN_MESSAGES.noStaff)).toBeTruthy();
  });
});
