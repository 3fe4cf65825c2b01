import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../machines/list.machine';
import { AUDIT_LOG_MESSAGES } from '../../../common/audit-actions';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-support/render-view';
import { AuditPage } from './AuditPage';
import { auditList, auditPageLogic } from '../../test-support/admin-fixtures';

describe('AuditPage', () => {
  it('names each row\'s object in words with a link to its page, and its changes as field: before → after', async () => {
    await renderView(<AuditPage />, { pages: { audit: auditPageLogic() } });
    const rows = within(screen.getByRole('table', { name: 'Audit entries' })).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const brand = within(rows[0]!);
    expect(brand.getByText('Brand saved')).toBeTruthy();
    expect(brand.getByRole('cell', { name: 'ada@demo.test' })).toBeTruthy();
    const link = brand.getByRole('link', { name: 'brand of network Kids Zone' });
    expect(link.getAttribute('href')).toBe('/appcms/brand?network=kids-zone');
    expect(brand.getByText('Theme primary color: #AA0000 → #123456')).toBeTruthy();
    expect(within(rows[1]!).getByText('Roles: content read → (none)')).toBeTruthy();
    expect(screen.getByText(AUDIT_LOG_MESSAGES.retention)).toBeTruthy();
    expect(screen.getByText('Page 1 of 1 · 2 entries')).toBeTruthy();
  });

  it('offers the actions of the chosen area in words, and applies every filter together', async () => {
    const fetchAudit = vi.fn((_query: ListQuery) => auditList());
    const view = await renderView(<AuditPage />, { pages: { audit: auditPageLogic(fetchAudit) } });
    await view.user.selectOptions(screen.getByLabelText('Area'), 'appcms');
    const actions = within(screen.getByLabelText('Action')).getAllByRole('option').map((o) => o.textContent);
    expect(actions).toContain('Brand saved');
    expect(actions).toContain('Network launched');
    expect(actions).not.toContain('Signed in');
    await view.user.selectOptions(screen.getByLabelText('Action'), 'Brand saved');
    await view.user.type(screen.getByLabelText('Who'), 'ada');
    await view.user.selectOptions(screen.getByLabelText('Object'), 'Brand');
    await view.user.type(screen.getByLabelText('Object name'), 'Kids');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    await settle();
    expect(fetchAudit).toHaveBeenLastCalledWith({
      search: '', offset: 0, limit: 25,
      filters: { area: 'appcms', action: 'appcms.brand.save', who: 'ada', objectKind: 'brand', object: 'Kids', from: '', to: '' },
    });
  });

  it('exports what the applied filters show as CSV and says how many rows', async () => {
    const exportAudit = vi.fn(() => auditList());
    const onDownload = vi.fn();
    const view = await renderView(<AuditPage />, { pages: { audit: auditPageLogic(undefined, exportAudit, onDownload) } });
    await view.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(exportAudit).toHaveBeenCalledTimes(1);
    expect(onDownload).toHaveBeenCalledTimes(1);
    const [csv, filename] = onDownload.mock.calls[0]!;
    expect(filename).toBe('audit-log.csv');
    expect(String(csv).trimEnd().split('\r\n')).toHaveLength(3);
    expect(screen.getByRole('status').textContent).toBe(AUDIT_LOG_MESSAGES.exported(2));
  });

  it('refuses a reversed date range with a message', async () => {
    const view = await renderView(<AuditPage />, { pages: { audit: auditPageLogic() } });
    await view.user.type(screen.getByLabelText('From'), '2026-03-05');
    await view.user.type(screen.getByLabelText('To'), '2026-03-01');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe(ADMIN_MESSAGES.invalidDateRange);
  });
});
