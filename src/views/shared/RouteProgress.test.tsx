import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { RouteProgress } from './RouteProgress';

describe('RouteProgress', () => {
  it('shows the progress bar from route.start until route.done or route.error', async () => {
    const view = await renderView(<RouteProgress />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    const routeLoading = systemActor(view.root, 'routeLoading');
    act(() => routeLoading.send({ type: 'route.start' }));
    expect(screen.getByRole('progressbar', { name: 'Loading page' })).toBeTruthy();
    act(() => routeLoading.send({ type: 'route.error' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
