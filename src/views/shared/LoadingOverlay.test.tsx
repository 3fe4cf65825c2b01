import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { LoadingOverlay } from './LoadingOverlay';

describe('LoadingOverlay', () => {
  it('announces what is loading as a polite status', async () => {
    await renderView(<LoadingOverlay label="Verifying your session…" />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Verifying your session…');
    expect(status.getAttribute('aria-live')).toBe('polite');
  });

  it('says Loading… by default', async () => {
    await renderView(<LoadingOverlay />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });
});
