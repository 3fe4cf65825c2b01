import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../machines/list.machine';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-support/render-view';
import { AuditPage } from './AuditPage';
import { auditList, auditPageLogic } from '../../test-support/admin-fixtures';

describe('AuditPage', () => {
  it('shows who did what with before and after, and applies the filters', async () => {
    const fetchAudit = vi.fn((_query: ListQuery) => auditList());
    const view = await renderView(<AuditPage />, { pages: { audit: auditPageLogic(fetchAudit) } });
    expect(screen.getByRole('cell', { name: 'ada@demo.test' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'bob@demo.test · roles: {"Content":"read"} → {}' })).toBeTruthy();
    await view.user.type(screen.getByLabelText('Who'), 'ada');
    await view.user.selectOptions(screen.getByLabelText('Action'), 'staff.updated');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    await settle();
    expect(fetchAudit).toHaveBeenLastCalledWith({ search: '', filters: { who: 'ada', action: 'staff.updated', from: '', to: '' }, offset: 0, limit: 25 });
  });

  it('refuses a reversed date range with a message', async () => {
    const view = await renderView(<AuditPage />, { pages: { audit: auditPageLogic() } });
    await view.user.type(screen.getByLabelText('From'), '2026-03-05');
    await view.user.type(screen.getByLabelText('To'), '2026-03-01');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe(ADMIN_MESSAGES.invalidDateRange);
  });
});
