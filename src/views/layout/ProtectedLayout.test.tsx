import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { siteProfile } from '../../../machines/test-harness/fixtures';
import { sessionWith } from '../../test-harness/view-fixtures';
import { ProtectedLayout } from './ProtectedLayout';

describe('ProtectedLayout', () => {
  it('covers the page with the overlay while the stored session is verified', async () => {
    await renderView(<ProtectedLayout />, {
      actors: { session: { verifySession: pendingActor() } },
      given: (root) => systemActor(root, 'session').send({ type: 'session.start', path: '/content', defaultTimezone: undefined }),
    });
    expect(screen.getByRole('status').textContent).toBe('Verifying your session…');
  });

  it('shows no overlay and no dialog once verified', async () => {
    await renderView(<ProtectedLayout />, {
      actors: { session: { verifySession: fakeActor(() => ({ valid: true, status: 200 })), verifySite: fakeActor(() => ({ provider: 'aws' })) } },
      given: (root) => systemActor(root, 'session').send({ type: 'session.start', path: '/content', defaultTimezone: undefined }),
    });
    expect(screen.queryByTestId('loading-overlay')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("states the site's time zone once above the page (issue 38)", async () => {
    await renderView(<ProtectedLayout />, {
      actors: {
        auth: { readStoredSession: fakeActor(() => ({ ...sessionWith({ Content: 'write' }), profile: siteProfile({ defaultTimezone: 'America/New_York' }) })) },
        session: { verifySession: fakeActor(() => ({ valid: true, status: 200 })), verifySite: fakeActor(() => ({ provider: 'aws' })) },
      },
      given: (root) => systemActor(root, 'session').send({ type: 'session.start', path: '/content', defaultTimezone: undefined }),
    });
    expect((await screen.findAllByTestId('site-zone')).map((note) => note.textContent))
      .toEqual(["Dates and times in America/New_York, the site's time zone."]);
  });

  it('hosts the logout confirmation', async () => {
    await renderView(<ProtectedLayout />, { given: (root) => systemActor(root, 'logout').send({ type: 'logout.request' }) });
    expect(screen.getByRole('dialog', { name: 'Logout' })).toBeTruthy();
  });
});
