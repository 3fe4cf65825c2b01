import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { AdminLayout } from './AdminLayout';

describe('AdminLayout', () => {
  it('offers Staff and Audit log as sub-pages, marking the current one', async () => {
    await renderView(<AdminLayout />, { url: '/admin/audit', routePath: '/admin/audit' });
    expect(screen.getByRole('heading', { name: 'Admin' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(nav.querySelector('a[href="/admin"]')?.textContent).toBe('Staff');
    const audit = screen.getByRole('link', { name: 'Audit log' });
    expect(audit.getAttribute('href')).toBe('/admin/audit');
    expect(audit.getAttribute('data-status')).toBe('active');
  });
});
