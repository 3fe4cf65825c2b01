import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { LogoutPage } from './LogoutPage';

describe('LogoutPage', () => {
  it('says the sign-out is under way and sends nothing itself (the /logout route starts it)', async () => {
    const view = await renderView(<LogoutPage />, { url: '/logout?reason=inactivity' });
    expect(screen.getByRole('status').textContent).toBe('Signing you out…');
    expect(view.sent).toEqual([]);
  });
});
