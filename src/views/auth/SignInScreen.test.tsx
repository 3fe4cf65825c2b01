import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { APP_TITLE } from '../../../common/constants';
import { renderView } from '../../test-harness/render-view';
import { AppNavigationContext, AuthLink } from './auth-link';
import { SignInScreen, SIGN_IN_TITLE } from './SignInScreen';

describe('SignInScreen (the sign-in page without the router, issue 26)', () => {
  it('frames the sign-in form like the router does on /: skip link, the form in #main-content, the title', async () => {
    await renderView(<SignInScreen />);
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main-content');
    expect(document.getElementById('main-content')?.querySelector('main form')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Sign in to/ })).toBeTruthy();
    expect(document.title).toBe(SIGN_IN_TITLE);
    expect(SIGN_IN_TITLE).toBe(`Sign in | ${APP_TITLE}`);
  });
});

describe('AuthLink', () => {
  it('goes through the app navigation on a plain click, keeping the address in href', async () => {
    const navigate = vi.fn();
    render(<AppNavigationContext.Provider value={navigate}><AuthLink to="/forgot-password">Forgot password?</AuthLink></AppNavigationContext.Provider>);
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe('/forgot-password');
    await userEvent.click(link);
    expect(navigate).toHaveBeenCalledWith('/forgot-password');
  });

  it('leaves a modified click (a new tab) to the browser', async () => {
    const navigate = vi.fn();
    render(<AppNavigationContext.Provider value={navigate}><AuthLink to="/forgot-password">Forgot password?</AuthLink></AppNavigationContext.Provider>);
    const user = userEvent.setup();
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    await user.keyboard('{/Control}');
    expect(navigate).not.toHaveBeenCalled();
  });
});
