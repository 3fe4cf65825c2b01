import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../machines/list.machine';
import { AUDIT_LOG_MESSAGES } from '../../../common/audit-actions';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-harness/render-view';
import { AuditPage } from './AuditPage';
import { auditList, auditPageLogic } from '../../test-harness/admin-fixtures';

const URL = '/admin/audit';

describe('AuditPage', () => {
  it('names each row\'s object in words with a link to its page, and its changes as field: before → after', async () => {
    await renderView(<AuditPage />, { url: URL, pages: { audit: auditPageLogic() } });
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
    const urls: string[] = [];
    const view = await renderView(<AuditPage />, { url: URL, pages: { audit: auditPageLogic(fetchAudit, undefined, undefined, (href) => urls.push(href)) } });
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
    // Issue 38: the applied filters are written to the address (nothing before Apply).
    expect(urls).toEqual(['/admin/audit?area=appcms&action=appcms.brand.save&who=ada&objectKind=brand&object=Kids']);
    await view.user.click(screen.getByRole('button', { name: 'Clear' }));
    await settle();
    expect(urls[1]).toBe('/admin/audit');
  });

  it("opens with the address's filters and page shown in the form and applied to the list (issue 38); a bad value is dropped", async () => {
    const fetchAudit = vi.fn((_query: ListQuery) => ({ ...auditList(), total: 60 }));
    const urls: string[] = [];
    await renderView(<AuditPage />, {
      url: '/admin/audit?area=admin&who=ada&objectKind=coupon&object=SPRING&from=2026-03-01&to=bogus&page=2',
      pages: { audit: auditPageLogic(fetchAudit, undefined, undefined, (href) => urls.push(href)) },
    });
    expect(fetchAudit).toHaveBeenCalledTimes(1);
    expect(fetchAudit).toHaveBeenLastCalledWith({
      search: '', offset: 25, limit: 25,
      filters: { area: 'admin', action: '', who: 'ada', objectKind: 'coupon', object: 'SPRING', from: '2026-03-01', to: '' },
    });
    expect(screen.getByLabelText('Area')).toHaveProperty('value', 'admin');
    expect(screen.getByLabelText('Who')).toHaveProperty('value', 'ada');
    expect(screen.getByLabelText('Object')).toHaveProperty('value', 'coupon');
    expect(screen.getByLabelText('Object name')).toHaveProperty('value', 'SPRING');
    expect(screen.getByLabelText('From')).toHaveProperty('value', '2026-03-01');
    expect(screen.getByLabelText('To')).toHaveProperty('value', '');
    expect(screen.getByText('Page 2 of 3 · 60 entries')).toBeTruthy();
    expect(urls).toEqual([]);
  });

  it('writes the page to the address when paging (issue 38)', async () => {
    const urls: string[] = [];
    const view = await renderView(<AuditPage />, {
      url: '/admin/audit?who=ada',
      pages: { audit: auditPageLogic(() => ({ ...auditList(), total: 60 }), undefined, undefined, (href) => urls.push(href)) },
    });
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await settle();
    expect(urls).toEqual(['/admin/audit?who=ada&page=2']);
    expect(screen.getByText('Page 2 of 3 · 60 entries')).toBeTruthy();
  });

  it('exports what the applied filters show as CSV and says how many rows', async () => {
    const exportAudit = vi.fn(() => auditList());
    const onDownload = vi.fn();
    const view = await renderView(<AuditPage />, { url: URL, pages: { audit: auditPageLogic(undefined, exportAudit, onDownload) } });
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
    const view = await renderView(<AuditPage />, { url: URL, pages: { audit: auditPageLogic() } });
    await view.user.type(screen.getByLabelText('From'), '2026-03-05');
    await view.user.type(screen.getByLabelText('To'), '2026-03-01');
    await view.user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe(ADMIN_MESSAGES.invalidDateRange);
  });
});
