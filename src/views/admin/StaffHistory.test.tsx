import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Revision } from '../../../common/revisions';
import { HISTORY_PANEL_MESSAGES } from '../../../common/revisions';
import { adminRevisionInWords, STAFF_HISTORY_TEXT } from '../../../common/staff-revision-words';
import type { HistoryLoadInput } from '../../../machines/history.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView, settle } from '../../test-harness/render-view';
import { staffList, staffPageLogic, staffPages } from '../../test-harness/admin-fixtures';
import { StaffPage } from './StaffPage';

function revision(seq: number, kind: Revision['kind'], objectId: string, changes: Revision['changes']): Revision {
  return {
    seq, kind, objectId, objectName: null, networkId: null, objectVersion: 2, actor: { id: 'ada', username: 'ada@demo.test' },
    at: '2026-03-01T10:00:00.000Z', reason: null, requestId: null, restoredFrom: null, changes,
  };
}

/** The server's revisions, put in words as the Admin wiring does (src/adapters/admin-actors.ts). */
const REVISIONS: Record<string, Revision[]> = {
  'siteSecurity/site': [revision(9, 'siteSecurity', 'site-1', [{ field: 'secondFactorRule', before: 'optional', after: 'required' }])],
  'staff/bob': [
    revision(8, 'staff', 'bob', [
      { field: 'roles', before: { Content: 'read' }, after: { Content: 'write', Admin: 'read' } },
      { field: 'twoFactorOnLogin', before: true, after: false },
    ]),
    revision(3, 'staff', 'bob', [
      { field: 'displayName', before: null, after: 'Bob Reader' },
      { field: 'roles', before: null, after: { Content: 'read' } },
    ]),
  ],
};

function renderStaff(canEdit: boolean) {
  const load = vi.fn((input: HistoryLoadInput) => {
    const items = (REVISIONS[`${input.kind}/${input.objectId}`] ?? []).map(adminRevisionInWords);
    return { items, total: items.length, page: 1, pageSize: 20, canRestore: canEdit, restorable: false };
  });
  const logic = staffPageLogic(() => staffList({ canEdit }), { loadHistory: fakeActor(load) });
  return { load, view: renderView(<StaffPage />, { url: '/admin', pages: staffPages(logic) }) };
}

describe('Staff page: Histories', () => {
  it("shows Admin read the second-factor rule's History in words, read-only, on demand", async () => {
    const { load, view } = renderStaff(false);
    const user = (await view).user;
    const region = screen.getByRole('region', { name: STAFF_HISTORY_TEXT.ruleRegion });
    expect(load).not.toHaveBeenCalled();
    await user.click(within(region).getByRole('button', { name: STAFF_HISTORY_TEXT.show }));
    await settle();
    expect(load).toHaveBeenCalledWith({ kind: 'siteSecurity', objectId: 'site', page: 1 });
    const panel = within(region).getByTestId('history-panel');
    expect(within(panel).getByText('Second factor at sign-in: Not required → Required — a code by SMS or an authenticator app')).toBeTruthy();
    expect(within(panel).getByText(HISTORY_PANEL_MESSAGES.notRestorable)).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Compare with now' }));
    expect(within(panel).queryByRole('button', { name: /Restore/ })).toBeNull();
    await user.click(within(region).getByRole('button', { name: STAFF_HISTORY_TEXT.hide }));
    expect(within(region).queryByTestId('history-panel')).toBeNull();
    expect(screen.queryAllByRole('radio')).toEqual([]);
  });

  it("shows Admin read an account's History from its row: roles one line per area, switches On/Off, the creation's values", async () => {
    const { load, view } = renderStaff(false);
    const user = (await view).user;
    await user.click(screen.getByRole('button', { name: STAFF_HISTORY_TEXT.rowActionLabel('Bob Reader') }));
    await settle();
    const dialog = screen.getByRole('dialog', { name: STAFF_HISTORY_TEXT.dialogTitle('Bob Reader') });
    expect(load).toHaveBeenCalledWith({ kind: 'staff', objectId: 'bob', page: 1 });
    const newest = within(dialog).getByTestId('revision-8');
    expect(within(newest).getByText('Content: read → write')).toBeTruthy();
    expect(within(newest).getByText('Admin: none → read')).toBeTruthy();
    expect(within(newest).getByText('SMS code at sign-in: On → Off')).toBeTruthy();
    const created = within(dialog).getByTestId('revision-3');
    expect(within(created).getByText('Created with:')).toBeTruthy();
    expect(within(created).getByText('Content: read')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /Restore/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: STAFF_HISTORY_TEXT.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows an editor the edited account's History as its form's second tab, and none in a new account's", async () => {
    const { load, view } = renderStaff(true);
    const user = (await view).user;
    await user.click(screen.getByRole('button', { name: 'Edit Bob Reader' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Bob Reader' });
    expect(within(dialog).getByRole('tab', { name: STAFF_HISTORY_TEXT.detailsTab }).getAttribute('aria-selected')).toBe('true');
    expect(load).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('tab', { name: STAFF_HISTORY_TEXT.historyTab }));
    await settle();
    expect(load).toHaveBeenCalledWith({ kind: 'staff', objectId: 'bob', page: 1 });
    const panel = within(dialog).getByRole('tabpanel', { name: STAFF_HISTORY_TEXT.historyTab });
    expect(within(panel).getByText('Content: read → write')).toBeTruthy();
    expect(within(panel).getByText(HISTORY_PANEL_MESSAGES.notRestorable)).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: 'Display name' })).toBeNull();
    await user.click(within(dialog).getByRole('tab', { name: STAFF_HISTORY_TEXT.detailsTab }));
    expect(within(dialog).getByRole('textbox', { name: 'Display name' })).toBeTruthy();
    expect(within(dialog).queryByRole('tabpanel', { name: STAFF_HISTORY_TEXT.historyTab })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'New account' }));
    const created = screen.getByRole('dialog', { name: 'New staff account' });
    expect(within(created).queryByRole('tab')).toBeNull();
  });
});
