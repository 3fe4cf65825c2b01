import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppNavigationContext, AuthLink } from './auth-link';

afterEach(cleanup);

describe('AuthLink', () => {
  it('is a plain link with its address when no app navigation is provided', () => {
    render(<AuthLink to="/forgot-password">Forgot password?</AuthLink>);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('sends a plain left click through the app navigation instead of reloading the page', () => {
    const navigate = vi.fn();
    render(<AppNavigationContext.Provider value={navigate}><AuthLink to="/forgot-password">Forgot password?</AuthLink></AppNavigationContext.Provider>);
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    const plain = fireEvent.click(link, { button: 0 });
    expect(plain).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/forgot-password');
  });

  it('leaves a modified click (new tab, new window) to the browser', () => {
    const navigate = vi.fn();
    render(<AppNavigationContext.Provider value={navigate}><AuthLink to="/forgot-password">Forgot password?</AuthLink></AppNavigationContext.Provider>);
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(fireEvent.click(link, { button: 0, ctrlKey: true })).toBe(true);
    expect(fireEvent.click(link, { button: 0, metaKey: true })).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });
});
