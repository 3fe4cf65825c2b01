import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { setSideNavCollapsed } from '../shared/preferences';
import { AnalyticsNav } from './AnalyticsLayout';

afterEach(() => {
  setSideNavCollapsed(false);
  localStorage.clear();
});

describe('AnalyticsLayout', { timeout: 20_000 }, () => {
  it('lists the six groups of spec §2.5 and keeps the range when switching pages', async () => {
    await renderView(<AnalyticsNav />, { url: '/?days=7&sort=sessions' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    for (const group of ['Real-time', 'Audience', 'Behaviour', 'Content', 'Monetization', 'Quality of service']) {
      expect(within(nav).getByRole('group', { name: group })).toBeTruthy();
    }
    expect(within(nav).getAllByRole('link')).toHaveLength(24);
    expect(within(nav).getByRole('link', { name: 'QoS ISP' }).getAttribute('href')).toBe('/analytics/qos-isp?days=7');
  });

  it('offers the alerts and saved views after the spec\'s groups, in a group of their own (issue 41)', async () => {
    await renderView(<AnalyticsNav />, { url: '/?days=7&f=cdn%3Aakamai' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    const groups = within(nav).getAllByRole('group').map((g) => g.getAttribute('aria-labelledby'));
    expect(groups.at(-1)).toBe('nav-Alerts-and-saved-views');
    const tools = within(nav).getByRole('group', { name: 'Alerts and saved views' });
    expect(within(tools).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]))
      .toEqual([['Alerts', '/analytics/alerts'], ['Saved views', '/analytics/saved']]);
  });

  it('keeps the QoS filter set when switching pages, not the breakdown or the page of views (issue 41)', async () => {
    await renderView(<AnalyticsNav />, { url: '/?days=7&f=cdn%3Aakamai&by=os&page=3' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    expect(within(nav).getByRole('link', { name: 'QoS ISP' }).getAttribute('href')).toBe('/analytics/qos-isp?days=7&f=cdn%3Aakamai');
  });

  it('folds the reports behind a Sections button (shown under 900 px) that a chosen report closes again', async () => {
    const view = await renderView(<AnalyticsNav />, { url: '/analytics' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    const toggle = within(nav).getByRole('button', { name: 'Sections' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')?.contains(within(nav).getByRole('link', { name: 'QoS ISP' }))).toBe(true);
    await view.user.click(toggle);
    expect([toggle.getAttribute('aria-expanded'), nav.getAttribute('data-open')]).toEqual(['true', 'true']);
    // A group heading is not a choice: the list stays open.
    await view.user.click(within(nav).getByText('Audience'));
    expect(nav.getAttribute('data-open')).toBe('true');
    await view.user.click(within(nav).getByRole('link', { name: 'QoS ISP' }));
    expect([toggle.getAttribute('aria-expanded'), nav.getAttribute('data-open')]).toEqual(['false', 'false']);
  });

  it('collapses and expands at desktop width, remembered', async () => {
    const view = await renderView(<AnalyticsNav />, { url: '/analytics' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    const collapse = within(nav).getByRole('button', { name: 'Reports menu' });
    expect([collapse.getAttribute('aria-expanded'), nav.getAttribute('data-collapsed')]).toEqual(['true', 'false']);
    expect(collapse.getAttribute('aria-controls')).toBe(within(nav).getByRole('button', { name: 'Sections' }).getAttribute('aria-controls'));
    await view.user.click(collapse);
    expect([collapse.getAttribute('aria-expanded'), nav.getAttribute('data-collapsed')]).toEqual(['false', 'true']);
    expect(localStorage.getItem('cmsTools.sideNavCollapsed')).toBe('true');
    view.unmount();
    // Opened again (another page, a reload): still collapsed.
    const second = await renderView(<AnalyticsNav />, { url: '/analytics' });
    const again = within(screen.getByRole('navigation', { name: 'Dashboard 360' })).getByRole('button', { name: 'Reports menu' });
    expect(again.getAttribute('aria-expanded')).toBe('false');
    await second.user.click(again);
    expect(again.getAttribute('aria-expanded')).toBe('true');
    expect(localStorage.getItem('cmsTools.sideNavCollapsed')).toBe('false');
  });
});
