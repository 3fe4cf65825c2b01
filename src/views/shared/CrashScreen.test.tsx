import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { CrashBoundary, CrashScreen } from './CrashScreen';

function Broken(): never {
  throw new Error('render failed');
}

describe('CrashScreen', () => {
  it("shows the spec's crash text and a Reload Page button", async () => {
    await renderView(<CrashScreen />);
    expect(screen.getByRole('heading', { name: MESSAGES.crashTitle })).toBeTruthy();
    expect(screen.getByText(MESSAGES.crashSupport)).toBeTruthy();
    expect(screen.getByRole('button', { name: MESSAGES.crashReload })).toBeTruthy();
  });

  it('replaces a view that throws', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderView(<CrashBoundary><Broken /></CrashBoundary>);
    expect(screen.getByRole('heading', { name: MESSAGES.crashTitle })).toBeTruthy();
    expect(quiet).toHaveBeenCalledWith('Unhandled view error', 'render failed', expect.any(String));
    quiet.mockRestore();
  });
});
