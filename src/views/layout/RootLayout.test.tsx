import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APP_TITLE } from '../../../common/constants';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { preloadShell, RootLayout } from './RootLayout';

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
    // The header and the snackbar load on first use (not part of the sign-in page's first load).
    expect(await screen.findByTestId('header-visitor')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeTruthy();
    expect((await screen.findByTestId('snackbar')).textContent).toContain('Saved.');
    expect(document.title).toBe(APP_TITLE);
  });

  it('offers a skip link first, which jumps past the header to the page', async () => {
    const view = await renderView(<RootLayout />, { url: '/content' });
    await screen.findByTestId('header-visitor');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(document.body.querySelector('a')).toBe(skip);
    await view.user.click(skip);
    expect(document.activeElement?.id).toBe('main-content');
  });

  it('hides the header on the routes the spec lists', async () => {
    await preloadShell();
    await renderView(<RootLayout />, {
      url: '/content/video/42',
      given: (root) => systemActor(root, 'notifier').send({ type: 'notify.show', message: 'Saved.', severity: 'success' }),
    });
    // The lazy parts have rendered (the snackbar shows), and the header is not among them.
    await screen.findByTestId('snackbar');
    expect(screen.queryByTestId('header-visitor')).toBeNull();
  });
});
