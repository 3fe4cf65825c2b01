import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { siteProfile } from '../../../machines/test-harness/fixtures';
import { renderView } from '../../test-harness/render-view';
import { sessionWith } from '../../test-harness/view-fixtures';
import { useDisplayDates } from './use-site-time-zone';

function Probe() {
  const { zone, date, dateTime } = useDisplayDates();
  return <p data-testid="probe">{`${zone} | ${date('2026-11-25T02:30:00Z')} | ${dateTime('2026-11-25T02:30:00Z')} | ${dateTime(null)}`}</p>;
}

const signedInWithZone = (defaultTimezone: string | null) => ({
  auth: {
    readStoredSession: fakeActor(() => ({
      ...sessionWith({ Content: 'write' }),
      profile: defaultTimezone === null ? null : siteProfile({ defaultTimezone }),
    })),
  },
});

describe('useDisplayDates: the console\'s one date format in the signed-in site\'s zone', () => {
  it('writes dates in the site\'s default time zone, not the browser\'s', async () => {
    await renderView(<Probe />, { actors: signedInWithZone('America/New_York') });
    expect((await screen.findByTestId('probe')).textContent)
      .toBe('America/New_York | 24 Nov 2026 | 24 Nov 2026, 21:30 | —');
  });

  it('falls back to UTC when the site names no zone or one the browser does not know', async () => {
    const view = await renderView(<Probe />, { actors: signedInWithZone(null) });
    expect((await screen.findByTestId('probe')).textContent).toBe('UTC | 25 Nov 2026 | 25 Nov 2026, 02:30 | —');
    view.unmount();
    await renderView(<Probe />, { actors: signedInWithZone('Mars/Olympus_Mons') });
    expect((await screen.findByTestId('probe')).textContent).toBe('UTC | 25 Nov 2026 | 25 Nov 2026, 02:30 | —');
  });
});
