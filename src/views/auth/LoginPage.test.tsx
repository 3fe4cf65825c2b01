import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { loginResponse } from '../../../machines/test-harness/fixtures';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { LoginPage } from './LoginPage';

describe('LoginPage', () => {
  it('shows the sign-in form and sends the typed credentials', async () => {
    const view = await renderView(<LoginPage />, { actors: { auth: { login: pendingActor() } } });

    expect(screen.getByRole('heading', { name: /Sign in to/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    await view.user.type(screen.getByLabelText('Username'), 'ada@demo.test');
    await view.user.type(screen.getByLabelText('Password'), 'Demo!Pass123');
    await view.user.click(screen.getByRole('button', { name: 'Sign in' }));

    // The text is the machine's: each keystroke goes to it, and the fields show what it holds.
    const sent = view.sentTo('auth');
    expect(sent.at(-1)).toEqual({ type: 'login.submit' });
    expect(sent).toContainEqual({ type: 'form.usernameChanged', username: 'ada@demo.test' });
    expect(sent).toContainEqual({ type: 'form.passwordChanged', password: 'Demo!Pass123' });
    expect(screen.getByLabelText('Username')).toHaveProperty('value', 'ada@demo.test');
    expect(screen.getByLabelText('Password')).toHaveProperty('value', 'Demo!Pass123');
    expect(screen.getByRole('button', { name: 'Signing in…' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toHaveProperty('disabled', true);
  });

  it("shows the machine's error as an alert", async () => {
    const view = await renderView(<LoginPage />, {
      actors: { auth: { login: fakeActor(() => loginResponse({ success: false, message: 'Invalid username or password' })) } },
      given: (root) => {
        const auth = root.system.get('auth');
        auth?.send({ type: 'form.usernameChanged', username: 'ada' });
        auth?.send({ type: 'form.passwordChanged', password: 'wrong' });
        auth?.send({ type: 'login.submit' });
      },
    });
    expect(screen.getByRole('alert').textContent).toBe('Invalid username or password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
    expect(view.sent).toEqual([]);
  });

  it('asks for the username when it is missing', async () => {
    const view = await renderView(<LoginPage />);
    await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(view.sentTo('auth')).toEqual([{ type: 'login.submit' }]);
    expect(screen.getByRole('alert').textContent).toBe(OWN_MESSAGES.usernameRequired);
  });

  it('starts a social sign-in with the chosen provider', async () => {
    const view = await renderView(<LoginPage />);
    await view.user.click(screen.getByRole('button', { name: 'Sign in with Microsoft' }));
    expect(view.sentTo('auth')).toEqual([{ type: 'login.social', provider: 'microsoft' }]);
    expect(screen.getByRole('button', { name: 'Sign in with Google' }).getAttribute('aria-busy')).toBe('true');
  });
});
