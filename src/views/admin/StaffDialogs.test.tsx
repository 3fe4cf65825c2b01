import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StaffChangeResponse } from '../../../common/admin-contract';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { renderView, settle } from '../../test-harness/render-view';
import { StaffPage } from './StaffPage';
import { member, staffList, staffPageLogic, staffPages } from '../../test-harness/admin-fixtures';

/** The role grid's cells are radio inputs: their `checked` and `disabled` are read. */
function inputOf(element: HTMLElement): HTMLInputElement {
  if (!(element instanceof HTMLInputElement)) throw new Error('Not an input');
  return element;
}

function renderWith(actors: Parameters<typeof staffPageLogic>[1], list = () => staffList()) {
  return renderView(<StaffPage />, { url: '/admin', pages: staffPages(staffPageLogic(list, actors)) });
}

describe('StaffDialogs', () => {
  it('creates an account from the role grid and shows its one-time link', async () => {
    const saved: StaffChangeResponse = {
      success: true, message: 'created', staff: member('nina', { displayName: 'Nina' }), link: { url: 'http://x/set-password?token=abc', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const saveStaff = vi.fn((_input: unknown) => saved);
    const view = await renderWith({ saveStaff: fakeActor(saveStaff) });
    await view.user.click(screen.getByRole('button', { name: 'New account' }));
    const dialog = screen.getByRole('dialog', { name: 'New staff account' });
    await view.user.type(within(dialog).getByLabelText('E-mail (username)'), 'nina@demo.test');
    await view.user.type(within(dialog).getByLabelText('Display name'), 'Nina');
    await view.user.type(within(dialog).getByLabelText('Mobile number'), '+15550109876');
    await view.user.click(within(dialog).getByLabelText('Content: read'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await settle();
    expect(saveStaff).toHaveBeenCalledWith({ form: expect.objectContaining({ email: 'nina@demo.test', roles: { Content: 'read' } }) });
    expect(screen.getByTestId('set-password-link').textContent).toBe('http://x/set-password?token=abc');
  }, 20_000);

  it('asks for a mobile number only when the SMS second factor applies, saves without one, and copies the link (issue 30)', async () => {
    const saved: StaffChangeResponse = {
      success: true, message: 'created', staff: member('pat', { displayName: 'Pat', phoneNumber: '' }),
      link: { url: 'http://x/set-password?token=pat', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const saveStaff = vi.fn((_input: unknown) => saved);
    const view = await renderWith({ saveStaff: fakeActor(saveStaff) });
    await view.user.click(screen.getByRole('button', { name: 'New account' }));
    const dialog = screen.getByRole('dialog', { name: 'New staff account' });
    expect(within(dialog).getByTestId('phoneNumber-hint').textContent).toBe(ADMIN_MESSAGES.phoneHintOptional);
    expect(within(dialog).getByLabelText('Mobile number').getAttribute('aria-required')).toBe('false');
    await view.user.type(within(dialog).getByLabelText('E-mail (username)'), 'pat@demo.test');
    await view.user.type(within(dialog).getByLabelText('Display name'), 'Pat');
    await view.user.click(within(dialog).getByLabelText('Second factor (SMS code) at sign-in'));
    expect(within(dialog).getByTestId('phoneNumber-hint').textContent).toBe(ADMIN_MESSAGES.phoneHintRequired);
    expect(within(dialog).getByLabelText('Mobile number').getAttribute('aria-required')).toBe('true');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(ADMIN_MESSAGES.phoneRequiredForSms)).toBeTruthy();
    expect(saveStaff).not.toHaveBeenCalled();
    await view.user.click(within(dialog).getByLabelText('Second factor (SMS code) at sign-in'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await settle();
    expect(saveStaff).toHaveBeenCalledWith({ form: expect.objectContaining({ email: 'pat@demo.test', phoneNumber: '', twoFactorOnLogin: false }) });
    const linkDialog = screen.getByRole('dialog', { name: 'Set-password link' });
    expect(within(linkDialog).getByText(ADMIN_MESSAGES.linkNotSent, { exact: false })).toBeTruthy();
    await view.user.click(within(linkDialog).getByRole('button', { name: ADMIN_MESSAGES.copyLink }));
    expect(within(linkDialog).getByRole('status').textContent).toBe(ADMIN_MESSAGES.linkCopied);
  }, 20_000);

  it('offers only the roles and levels the signed-in user may grant; roles above them stay locked (issue 25)', async () => {
    const list = staffList({
      grantable: { Admin: 'write', Content: 'read' },
      items: [member('ada', { displayName: 'Ada Admin', roles: { Admin: 'write', Content: 'read' } }), member('bob', { displayName: 'Bob Reader', roles: { 'App CMS': 'write', Content: 'read' } })],
    });
    const saveStaff = vi.fn((_input: unknown) => ({ success: true, message: 'saved', staff: member('bob') }));
    const view = await renderWith({ saveStaff: fakeActor(saveStaff) }, () => list);
    await view.user.click(screen.getByRole('button', { name: 'New account' }));
    const create = screen.getByRole('dialog', { name: 'New staff account' });
    const enabled = (name: string) => !inputOf(within(create).getByLabelText(name)).disabled;
    expect(['Content: none', 'Content: read', 'Admin: none', 'Admin: read', 'Admin: contributor', 'Admin: write', 'App CMS: none'].every(enabled)).toBe(true);
    expect(['Content: contributor', 'Content: write', 'App CMS: read', 'App CMS: write', 'Dashboard 360: read', 'Customer Support: contributor'].some(enabled)).toBe(false);
    expect(within(create).getByText(ADMIN_MESSAGES.grantLocked)).toBeTruthy();
    await view.user.click(within(create).getByRole('button', { name: 'Cancel' }));

    await view.user.click(screen.getByRole('button', { name: 'Edit Bob Reader' }));
    const edit = screen.getByRole('dialog', { name: 'Edit Bob Reader' });
    const appCms = ['none', 'read', 'contributor', 'write'].map((level) => inputOf(within(edit).getByLabelText(`App CMS: ${level}`)));
    expect(appCms.map((r) => [r.checked, r.disabled])).toEqual([[false, true], [false, true], [false, true], [true, false]]);
    await view.user.click(within(edit).getByLabelText('App CMS: none'));
    await view.user.click(within(edit).getByLabelText('Content: none'));
    await view.user.click(within(edit).getByRole('button', { name: 'Save' }));
    await settle();
    expect(saveStaff).toHaveBeenCalledWith({ form: expect.objectContaining({ roles: { 'App CMS': 'write' } }) });
  }, 20_000);

  it('offers a read-only Admin role nothing to change', async () => {
    await renderWith({}, () => staffList({ canEdit: false, grantable: {} }));
    expect(screen.queryByRole('button', { name: 'New account' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Disable / })).toBeNull();
  });

  it('shows field errors instead of saving an empty form', async () => {
    const view = await renderWith({});
    await view.user.click(screen.getByRole('button', { name: 'New account' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('E-mail is required.')).toBeTruthy();
    expect(screen.getByText('Display name is required.')).toBeTruthy();
  });

  it('asks before disabling, then runs it', async () => {
    const runAction = vi.fn((_input: unknown) => ({ message: 'Bob Reader is disabled and signed out everywhere.' }));
    const view = await renderWith({ runAction: fakeActor(runAction) });
    await view.user.click(screen.getByRole('button', { name: 'Disable Bob Reader' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable account' });
    expect(within(dialog).getByText(/signed out everywhere at once/)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await settle();
    expect(runAction).toHaveBeenCalledWith({ action: { kind: 'disable', id: 'bob', name: 'Bob Reader', version: 2 }, phoneNumber: '' });
    expect(screen.getByRole('status').textContent).toContain('Bob Reader is disabled');
  });

  it('lists the sessions of an account and ends one', async () => {
    const endSession = vi.fn((_input: unknown) => ({ message: 'Session ended.' }));
    const sessions = [{ id: 's1', deviceId: 'device-1', ipAddress: '10.0.0.9', userAgent: 'Firefox', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', current: false }];
    const view = await renderWith({ fetchSessions: fakeActor(() => sessions), endSession: fakeActor(endSession) });
    await view.user.click(screen.getByRole('button', { name: 'Sessions of Bob Reader' }));
    await settle();
    const dialog = screen.getByRole('dialog', { name: 'Sessions of Bob Reader' });
    expect(within(dialog).getByText(/Address 10\.0\.0\.9/)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'End this session' }));
    await settle();
    expect(endSession).toHaveBeenCalledWith({ id: 'bob', sessionId: 's1' });
  });
});
