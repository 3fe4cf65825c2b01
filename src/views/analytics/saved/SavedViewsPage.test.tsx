import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { qoeSavedViewsMachine, type UpdateViewInput } from '../../../../machines/qoe-saved-views.machine';
import { fakeActor } from '../../../../machines/test-harness/fakes';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { MY_VIEW, SHARED_VIEW } from '../alerts/alert-fixtures';
import { SavedViewOpenPage, SavedViewsPage } from './SavedViewsPage';

function renderList(roles: Record<string, 'read' | 'write'>, openId?: string) {
  const openView = vi.fn();
  const updateView = vi.fn((input: UpdateViewInput) => ({ ...MY_VIEW, ...input.view, version: input.version + 1 }));
  const deleteView = vi.fn(() => ({ success: true }));
  const logic = qoeSavedViewsMachine.provide({
    actors: {
      fetchViews: fakeActor(() => [MY_VIEW, SHARED_VIEW]), fetchView: fakeActor(() => MY_VIEW),
      updateView: fakeActor(updateView), deleteView: fakeActor(deleteView),
    },
    actions: { openView: (_, params) => openView(params) },
  });
  const ui = openId ? <SavedViewOpenPage viewId={openId} /> : <SavedViewsPage />;
  return { view: renderView(ui, { url: '/analytics/saved', actors: signedInAs(roles), pages: { qoeSavedViews: logic } }), openView, updateView, deleteView };
}

describe('SavedViewsPage', { timeout: 20_000 }, () => {
  it('lists mine and the shared ones; only mine can be renamed, shared or deleted; opening one goes to its page', async () => {
    const { view, openView } = renderList({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await settle();
    const mine = screen.getByTestId('saved-view-view-1');
    expect(mine.textContent).toContain('QoS Overall');
    expect(mine.textContent).toContain('Device type is android; ISP is Slow Net');
    expect(within(mine).getByRole('link', { name: MY_VIEW.name }).getAttribute('href')).toBe('/analytics/qos-overall?days=7&f=device%3Aandroid%3Bisp%3ASlow%2520Net');
    const shared = screen.getByTestId('saved-view-view-2');
    expect(shared.textContent).toContain(M.sharedBy('Tess'));
    expect(within(shared).queryByRole('button')).toBeNull();
    await user.click(within(shared).getByRole('link', { name: SHARED_VIEW.name }));
    expect(openView).toHaveBeenCalledWith({ path: '/analytics/qos-isp', search: { days: '30' }, replace: false });
  });

  it('renames and shares my view; delete asks first and says who loses it', async () => {
    const { view, updateView, deleteView } = renderList({ 'Dashboard 360': 'write' });
    const { user } = await view;
    await settle();
    await user.click(screen.getByRole('button', { name: `${M.rename}: ${MY_VIEW.name}` }));
    const dialog = screen.getByRole('dialog');
    await user.clear(within(dialog).getByLabelText(M.name));
    await user.type(within(dialog).getByLabelText(M.name), 'Android slow');
    await user.click(within(dialog).getByRole('button', { name: M.rename }));
    await settle();
    expect(updateView).toHaveBeenCalledWith({ id: 'view-1', version: 1, view: { name: 'Android slow', path: MY_VIEW.path, search: MY_VIEW.search, shared: false } });
    expect(screen.getByRole('status').textContent).toBe(M.renamed('Android slow'));
    await user.click(screen.getByRole('button', { name: `${M.share}: Android slow` }));
    await settle();
    expect(updateView).toHaveBeenLastCalledWith(expect.objectContaining({ view: expect.objectContaining({ shared: true }) }));
    await user.click(screen.getByRole('button', { name: `${M.delete}: Android slow` }));
    expect(screen.getByRole('dialog').textContent).toContain(M.deleteBody(true));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: M.deleteConfirm }));
    await settle();
    expect(deleteView).toHaveBeenCalledWith({ id: 'view-1', version: 3 });
  });

  it('a reader cannot share a view', async () => {
    const { view } = renderList({ 'Dashboard 360': 'read' });
    await view;
    await settle();
    expect(screen.queryByRole('button', { name: `${M.share}: ${MY_VIEW.name}` })).toBeNull();
    expect(screen.getByRole('button', { name: `${M.rename}: ${MY_VIEW.name}` })).toBeTruthy();
  });

  it('its own address opens the view\'s page with its search (replacing the address)', async () => {
    const { view, openView } = renderList({ 'Dashboard 360': 'read' }, 'view-1');
    await view;
    await settle();
    expect(openView).toHaveBeenCalledWith({ path: MY_VIEW.path, search: MY_VIEW.search, replace: true });
  });
});
