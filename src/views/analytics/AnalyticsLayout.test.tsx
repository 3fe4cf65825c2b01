import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-support/render-view';
import { AnalyticsNav } from './AnalyticsLayout';

describe('AnalyticsLayout', { timeout: 20_000 }, () => {
  it('lists the six groups of spec §2.5 and keeps the range when switching pages', async () => {
    await renderView(<AnalyticsNav />, { url: '/?days=7&sort=sessions' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard 360' });
    for (const group of ['Real-time', 'Audience', 'Behaviour', 'Content', 'Monetization', 'Quality of service']) {
      expect(within(nav).getByRole('group', { name: group })).toBeTruthy();
    }
    expect(within(nav).getAllByRole('link')).toHaveLength(22);
    expect(within(nav).getByRole('link', { name: 'QoS ISP' }).getAttribute('href')).toBe('/analytics/qos-isp?days=7');
  });
});
