import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SECOND_FACTOR_DONE, SECOND_FACTOR_TEXT, secondFactorEffect } from '../../../common/second-factor-rule';
import { TOTP_ROUTES } from '../../../common/totp';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView, settle } from '../../test-harness/render-view';
import { StaffPage } from './StaffPage';
import { member, staffList, staffPageLogic, staffPages } from '../../test-harness/admin-fixtures';

const { options } = SECOND_FACTOR_TEXT;
const COUNTS = { accounts: 7, withSms: 2, withAuthenticator: 1, withNeither: 0 };
const OWN = { ownAuthenticator: true };

async function renderRule(list = staffList({ total: 7, secondFactor: { rule: 'optional', ...COUNTS, ...OWN } }), runAction = vi.fn((_input: unknown) => ({ message: SECOND_FACTOR_DONE.required }))) {
  const fetchStaff = vi.fn(() => list);
  const view = await renderView(<StaffPage />, { url: '/admin', pages: staffPages(staffPageLogic(fetchStaff, { runAction: fakeActor(runAction) })) });
  return { user: view.user, runAction, fetchStaff };
}

describe('SecondFactorRuleControl (issue 30: one rule, one control)', () => {
  it('offers an Admin editor the three values with the rule in force chosen, and no other two-factor control', async () => {
    await renderRule();
    const group = screen.getByRole('group', { name: SECOND_FACTOR_TEXT.legend });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['optional', 'required', 'authenticator']);
    expect(within(group).getByRole('radio', { name: options.optional.label })).toHaveProperty('checked', true);
    expect(within(group).getByText(options.authenticator.hint)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /2FA/ })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: /authenticator app for everyone/i })).toBeNull();
  });

  it('asks first and says what the change will do, with the counts; Cancel changes nothing', async () => {
    const { user, runAction } = await renderRule();
    await user.click(screen.getByRole('radio', { name: options.authenticator.label }));
    const dialog = screen.getByRole('dialog', { name: SECOND_FACTOR_TEXT.confirmTitle });
    const effect = secondFactorEffect('optional', 'authenticator', COUNTS);
    expect(effect).toContain('Every one of the 7 accounts will need an authenticator app at next sign-in.');
    expect(effect).toContain('The 6 accounts without one will have to set it up');
    expect(within(dialog).getByTestId('confirm-lead').textContent).toBe(`${options.optional.label} → ${options.authenticator.label}`);
    expect(within(dialog).getByText(effect)).toBeTruthy();
    // The choice shows the rule in force until the change is made.
    expect(screen.getByRole('radio', { name: options.optional.label, hidden: true })).toHaveProperty('checked', true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(runAction).not.toHaveBeenCalled();
  });

  it('writes the confirmed rule, says so and reads the list again', async () => {
    const { user, runAction, fetchStaff } = await renderRule();
    await user.click(screen.getByRole('radio', { name: options.required.label }));
    const dialog = screen.getByRole('dialog', { name: SECOND_FACTOR_TEXT.confirmTitle });
    expect(within(dialog).getByText(/Every one of the 7 accounts will need a second factor at next sign-in/)).toBeTruthy();
    expect(within(dialog).getByText(/The SMS code will be switched on for the 5 accounts that have it off/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: SECOND_FACTOR_TEXT.confirmButton }));
    await settle();
    expect(runAction).toHaveBeenCalledWith({ action: { kind: 'secondFactorRule', rule: 'required', from: 'optional', counts: COUNTS }, phoneNumber: '' });
    expect(screen.getByRole('status').textContent).toContain(SECOND_FACTOR_DONE.required);
    expect(fetchStaff).toHaveBeenCalledTimes(2);
  });

  it("offers 'an authenticator app' only once the editor has one, and says why with the way to set it up", async () => {
    const { user, runAction } = await renderRule(staffList({ secondFactor: { rule: 'optional', ...COUNTS, ownAuthenticator: false } }));
    const app = screen.getByRole('radio', { name: options.authenticator.label });
    expect(app).toHaveProperty('disabled', true);
    expect(screen.getByText(SECOND_FACTOR_TEXT.enrolFirst)).toBeTruthy();
    expect(screen.getByRole('link', { name: SECOND_FACTOR_TEXT.enrolLink }).getAttribute('href')).toBe(TOTP_ROUTES.accountSecurity);
    await user.click(app);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(runAction).not.toHaveBeenCalled();
  });

  it('shows Admin read the rule in force in words, and offers nothing', async () => {
    await renderRule(staffList({ canEdit: false, secondFactor: { rule: 'authenticator', ...COUNTS, ...OWN } }));
    expect(screen.getByTestId('second-factor-rule').textContent).toBe(SECOND_FACTOR_TEXT.current('authenticator'));
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.queryByRole('group', { name: SECOND_FACTOR_TEXT.legend })).toBeNull();
  });

  it("under 'required' the staff form keeps the SMS code on (locked, with why) and asks every account for a mobile number", async () => {
    const list = staffList({ secondFactor: { rule: 'required', accounts: 2, withSms: 2, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false }, items: [member('ada', { displayName: 'Ada Admin', roles: { Admin: 'write' }, twoFactorOnLogin: true })] });
    const { user } = await renderRule(list);
    await user.click(screen.getByRole('button', { name: 'New account' }));
    const dialog = screen.getByRole('dialog', { name: 'New staff account' });
    const sms = within(dialog).getByLabelText('Second factor (SMS code) at sign-in');
    expect(sms).toHaveProperty('checked', true);
    expect(sms).toHaveProperty('disabled', true);
    expect(within(dialog).getByText(SECOND_FACTOR_TEXT.smsLocked)).toBeTruthy();
    expect(within(dialog).getByLabelText('Mobile number').getAttribute('aria-required')).toBe('true');
  });
});
