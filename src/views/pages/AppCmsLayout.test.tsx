import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APPCMS_PAGES } from '../../config';
import { renderView } from '../../test-support/render-view';
import { AppCmsLayout } from './AppCmsLayout';

describe('AppCmsLayout', () => {
  it('links every AppCMS section in its side navigation', async () => {
    await renderView(<AppCmsLayout />, { url: '/appcms/brand' });
    const links = within(screen.getByRole('navigation', { name: 'AppCMS' })).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual(APPCMS_PAGES.map((p) => [p.title, p.path]));
  });
});
