import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APP_TITLE } from '../../../common/constants';
import { renderView } from '../../test-support/render-view';
import { systemActor } from '../../app-actor';
import { RootLayout } from './RootLayout';

describe('RootLayout', () => {
  it('shows the header, the progress bar while a route loads, and the snackbar', async () => {
    await renderView(<RootLayout />, {
      url: '/content',
      routePath: '/content',
      given: (root) => {
        systemActor(root, 'routeLoading').send({ type: 'route.start' });
        systemActor(root, 'notifier').send({ type: 'notify.show', message: 'Saved.', severity: 'success' });
      },
    });
    expect(screen.getByTestId('header-visitor')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeTruthy();
    expect(screen.getByTestId('snackbar').textContent).toContain('Saved.');
    expect(document.title).toBe(APP_TITLE);
  });

  it('offers a skip link first, which jumps past the header to the page', async () => {
    const view = await renderView(<RootLayout />, { url: '/content' });
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(document.body.querySelector('a')).toBe(skip);
    await view.user.click(skip);
    expect(document.activeElement?.id).toBe('main-content');
  });

  it('hides the header on the routes the spec lists', async () => {
    await renderView(<RootLayout />, { url: '/content/video/42' });
    expect(screen.queryByTestId('header-visitor')).toBeNull();
  });
});
