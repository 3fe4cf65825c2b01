import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { qoeSaveViewMachine } from '../../../../machines/qoe-saved-view-save.machine';
import { fakeActor } from '../../../../machines/test-harness/fakes';
import type { QoeSavedViewInput } from '../../../../common/qoe';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { MY_VIEW } from '../alerts/alert-fixtures';
import { SaveViewControl, searchOf } from './SaveViewControl';

function renderSave(roles: Record<string, 'read' | 'write'>) {
  const createView = vi.fn((input: QoeSavedViewInput) => ({ ...MY_VIEW, ...input }));
  const logic = qoeSaveViewMachine.provide({ actors: { createView: fakeActor(createView) } });
  const view = renderView(<SaveViewControl title="QoS Overall" />, {
    url: '/analytics/qos-overall?days=7&f=device%3Aandroid', actors: signedInAs(roles), pages: { qoeSaveView: logic },
  });
  return { view, createView };
}

describe('SaveViewControl', { timeout: 20_000 }, () => {
  it('saves the page with its range and filters under a name, shared when an editor asks, and links to it', async () => {
    const { view, createView } = renderSave({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await user.click(screen.getByRole('button', { name: M.save }));
    const dialog = screen.getByRole('dialog');
    const name = within(dialog).getByLabelText(M.name);
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: M.confirmSave }));
    expect(dialog.textContent).toContain(M.nameRequired);
    await user.type(name, 'Android week');
    await user.click(within(dialog).getByLabelText(M.shared));
    await user.click(within(dialog).getByRole('button', { name: M.confirmSave }));
    await settle();
    expect(createView).toHaveBeenCalledWith({ name: 'Android week', path: '/analytics/qos-overall', search: { days: '7', f: 'device:android' }, shared: true });
    expect(screen.getByRole('status').textContent).toContain(M.saved('Android week'));
    expect(screen.getByRole('link', { name: M.open }).getAttribute('href')).toBe(`/analytics/saved/${MY_VIEW.id}`);
  });

  it('a reader saves a private view only: no sharing offered', async () => {
    const { view, createView } = renderSave({ 'Dashboard 360': 'read' });
    const { user } = await view;
    await user.click(screen.getByRole('button', { name: M.save }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).queryByLabelText(M.shared)).toBeNull();
    expect(dialog.textContent).toContain(M.sharedOnlyWriters);
    await user.click(within(dialog).getByRole('button', { name: M.confirmSave }));
    await settle();
    expect(createView).toHaveBeenCalledWith(expect.objectContaining({ name: 'QoS Overall', shared: false }));
  });

  it('writes every search parameter as text', () => {
    expect(searchOf({ days: 7, f: 'isp:A', empty: '', gone: undefined })).toEqual({ days: '7', f: 'isp:A' });
  });
});
