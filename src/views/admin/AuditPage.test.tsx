import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { staffAdminAuditMachine } from '../../../machines/staff-admin-audit.machine';
import { fakeActor } from '../../../machines/test-support/fakes';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-support/render-view';
import { AuditView } from './AuditPage';
import { AuditContext } from './staff-admin-context';
import { auditList } from './test-fixtures';

describe('AuditView', () => {
  it('shows who did what with before and after, and applies the filters', async () => {
    const fetchAudit = vi.fn((_input: unknown) => auditList());
    const logic = staffAdminAuditMachine.provide({ actors: { fetchAudit: fakeActor(fetchAudit) } });
    const view = await renderView(<AuditContext.Provider logic={logic}><AuditView /></AuditContext.Provider>);
    expect(screen.getByRole('cell', { name: 'ada@demo.test' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'bob@demo.test · roles: {"Content":"read"} → {}' })).toBeTruthy();
    await view.user.type(screen.getByLabelText('Who'), 'ada');
    await view.user.selectOptions(screen.getByLabelText('Action'), 'staff.updated');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    await settle();
    expect(fetchAudit).toHaveBeenLastCalledWith({ who: 'ada', action: 'staff.updated', from: '', to: '', page: 1 });
  });

  it('refuses a reversed date range with a message', async () => {
    const logic = staffAdminAuditMachine.provide({ actors: { fetchAudit: fakeActor(() => auditList()) } });
    const view = await renderView(<AuditContext.Provider logic={logic}><AuditView /></AuditContext.Provider>);
    await view.user.type(screen.getByLabelText('From'), '2026-03-05');
    await view.user.type(screen.getByLabelText('To'), '2026-03-01');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe(ADMIN_MESSAGES.invalidDateRange);
  });
});
