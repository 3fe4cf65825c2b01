import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APPCMS_PAGES } from '../../config';
import { renderView } from '../../test-harness/render-view';
import { AppCmsLayout } from './AppCmsLayout';

describe('AppCmsLayout', () => {
  it('links every AppCMS section in its side navigation', async () => {
    await renderView(<AppCmsLayout />, { url: '/appcms/brand' });
    const links = within(screen.getByRole('navigation', { name: 'AppCMS' })).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual(APPCMS_PAGES.map((p) => [p.title, p.path]));
  });

  it('folds the sections behind a Sections button (shown under 900 px) that a chosen section closes again', async () => {
    const view = await renderView(<AppCmsLayout />, { url: '/appcms/brand' });
    const nav = screen.getByRole('navigation', { name: 'AppCMS' });
    const toggle = within(nav).getByRole('button', { name: 'Sections' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')?.contains(within(nav).getByRole('link', { name: 'Brand' }))).toBe(true);
    await view.user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(nav.getAttribute('data-open')).toBe('true');
    await view.user.click(within(nav).getByRole('link', { name: 'Settings' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(nav.getAttribute('data-open')).toBe('false');
  });
});
