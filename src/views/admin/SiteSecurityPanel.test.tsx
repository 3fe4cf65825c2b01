import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOTP_MESSAGES, type SiteAuthenticatorResponse } from '../../../common/totp';
import { siteAuthenticatorMachine } from '../../../machines/site-authenticator.machine';
import { fakeActor } from '../../../machines/test-support/fakes';
import { renderView, settle } from '../../test-support/render-view';
import { TOTP_TEXT } from '../account/totp-text';
import { SiteSecurityPanel } from './SiteSecurityPanel';

const answer = (overrides: Partial<SiteAuthenticatorResponse> = {}): SiteAuthenticatorResponse =>
  ({ success: true, message: '', required: false, canEdit: true, ...overrides });

function logicWith(initial: SiteAuthenticatorResponse) {
  const set = vi.fn((input: { required: boolean }) => answer({ required: input.required, message: TOTP_MESSAGES.siteRequirementOn }));
  const logic = siteAuthenticatorMachine.provide({ actors: { fetchSiteAuthenticator: fakeActor(() => initial), setSiteAuthenticator: fakeActor(set) } });
  return { logic, set };
}

describe('SiteSecurityPanel (Admin)', () => {
  it('an Admin editor switches "Require an authenticator app for everyone on this site" on', async () => {
    const { logic, set } = logicWith(answer());
    const view = await renderView(<SiteSecurityPanel />, { pages: { siteSecurity: logic } });
    const box = screen.getByRole('checkbox', { name: TOTP_TEXT.en.siteToggle });
    expect(box).toHaveProperty('checked', false);
    expect(screen.getByText(TOTP_TEXT.en.siteToggleHelp)).toBeTruthy();
    await view.user.click(box);
    await settle();
    expect(set).toHaveBeenCalledWith({ required: true });
    expect(screen.getByRole('checkbox', { name: TOTP_TEXT.en.siteToggle })).toHaveProperty('checked', true);
    expect(screen.getByRole('status').textContent).toBe(TOTP_MESSAGES.siteRequirementOn);
  });

  it('is hidden for a read role', async () => {
    const { logic } = logicWith(answer({ canEdit: false, required: true }));
    await renderView(<SiteSecurityPanel />, { pages: { siteSecurity: logic } });
    expect(screen.queryByRole('checkbox', { name: TOTP_TEXT.en.siteToggle })).toBeNull();
  });
});
