import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONETIZATION_TABS } from '../../config';
import { renderView } from '../../test-harness/render-view';
import { activeMonetizationTab, MonetizationLayout } from './MonetizationLayout';

describe('MonetizationLayout', () => {
  it('shows every tab and marks the one of the current path', async () => {
    const second = MONETIZATION_TABS[1]!;
    await renderView(<MonetizationLayout />, { url: second.route });
    const tabs = within(screen.getByRole('navigation', { name: 'Monetization' })).getAllByRole('link');
    expect(tabs.map((a) => a.textContent)).toEqual(MONETIZATION_TABS.map((t) => t.title));
    expect(tabs.filter((a) => a.getAttribute('data-active') === 'true').map((a) => a.textContent)).toEqual([second.title]);
    expect(activeMonetizationTab('/nowhere')).toBeUndefined();
  });
});
