import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { InactivityWarningDialog } from './InactivityWarningDialog';

describe('InactivityWarningDialog', () => {
  it('is closed while the user is active', async () => {
    await renderView(<InactivityWarningDialog />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("warns with a countdown a minute before the timeout and sends 'Stay signed in'", async () => {
    const clock = new SimulatedClock();
    const view = await renderView(<InactivityWarningDialog />, {
      clock,
      config: { inactivityTimeoutMinutes: 2 },
      given: (root) => {
        systemActor(root, 'inactivity').send({ type: 'path.changed', path: '/content' });
        clock.increment(60_000);
      },
    });
    expect(screen.getByRole('dialog', { name: 'Are you still there?' })).toBeTruthy();
    expect(screen.getByText(OWN_MESSAGES.inactivityWarning)).toBeTruthy();
    expect(screen.getByText('Signing out in 60 s.')).toBeTruthy();
    act(() => { for (let i = 0; i < 5; i += 1) clock.increment(1000); });
    expect(screen.getByText('Signing out in 55 s.')).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: OWN_MESSAGES.staySignedIn }));
    expect(view.sentTo('inactivity')).toEqual([{ type: 'inactivity.stay' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

