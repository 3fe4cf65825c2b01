import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { signedInAs } from '../../test-harness/view-fixtures';
import { ForbiddenPage } from './ForbiddenPage';

describe('ForbiddenPage', () => {
  it('tells an account without any role so, and offers signing out to sign in as someone else', async () => {
    await renderView(<ForbiddenPage />, { actors: signedInAs({}), url: '/forbidden' });
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.getByText(OWN_MESSAGES.forbidden)).toBeTruthy();
    expect(screen.getByText(OWN_MESSAGES.forbiddenNoRole)).toBeTruthy();
    expect(screen.getByRole('link', { name: OWN_MESSAGES.forbiddenSignOut }).getAttribute('href')).toBe('/logout');
    // The header is hidden here (spec §2.9): the page says whose session it is (issue 38).
    expect(screen.getByText(/^Signed in as .+@.+\.$/)).toBeTruthy();
  });

  it('names the area and offers a full admin their landing page, never "no role in any area"', async () => {
    await renderView(<ForbiddenPage />, {
      actors: signedInAs({ 'Dashboard 360': 'write', Content: 'write', Admin: 'write' }),
      url: '/forbidden?area=App%20CMS',
    });
    expect(screen.getByText(OWN_MESSAGES.forbiddenArea('App CMS'))).toBeTruthy();
    expect(screen.queryByText(OWN_MESSAGES.forbiddenNoRole)).toBeNull();
    expect(screen.getByRole('link', { name: OWN_MESSAGES.forbiddenGoTo('Dashboard 360') }).getAttribute('href')).toBe('/analytics');
    expect(screen.getByRole('link', { name: OWN_MESSAGES.forbiddenSignOut })).toBeTruthy();
  });
});
