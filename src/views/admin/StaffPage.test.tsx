import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { staffAdminMachine } from '../../../machines/staff-admin.machine';
import { fakeActor, pendingActor } from '../../../machines/test-support/fakes';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-support/render-view';
import { StaffAdminContext } from './staff-admin-context';
import { StaffView } from './StaffPage';
import { staffList } from './test-fixtures';

function renderStaff(list = staffList(), fetchStaff = vi.fn((_input: unknown) => list)) {
  const logic = staffAdminMachine.provide({
    actors: { fetchStaff: fakeActor(fetchStaff), saveStaff: pendingActor(), runAction: pendingActor(), fetchSessions: pendingActor(), endSession: pendingActor() },
  });
  return renderView(<StaffAdminContext.Provider logic={logic}><StaffView /></StaffAdminContext.Provider>);
}

describe('StaffView', () => {
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

  it('shows Admin read the table without any write control', async () => {
    await renderStaff(staffList({ canEdit: false }));
    expect(screen.getByText(ADMIN_MESSAGES.noEditRole)).toBeTruthy();
    for (const name of ['New account', 'Require 2FA for everyone', 'Edit Bob Reader', 'Disable Bob Reader', 'Reset password of Bob Reader']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.getByRole('button', { name: 'Sessions of Bob Reader' })).toBeTruthy();
  });

  it('sends the typed search and says when nothing matches', async () => {
    const fetchStaff = vi.fn((input: unknown) => ((input as { search: string }).search ? staffList({ items: [], total: 0 }) : staffList()));
    const view = await renderStaff(staffList(), fetchStaff);
    await view.user.type(screen.getByLabelText('Search staff'), 'zz');
    await new Promise((r) => setTimeout(r, 350));
    await settle();
    expect(fetchStaff).toHaveBeenLastCalledWith({ search: 'zz', page: 1 });
    expect(screen.getByText(ADMIN_MESSAGES.noStaff)).toBeTruthy();
  });
});
