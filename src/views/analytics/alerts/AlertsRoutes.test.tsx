import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { qoeAlertsMachine } from '../../../../machines/qoe-alerts.machine';
import { qoeSavedViewsMachine } from '../../../../machines/qoe-saved-views.machine';
import { fakeActor, pendingActor } from '../../../../machines/test-harness/fakes';
import { QOE_ALERT_MESSAGES, QOE_SAVED_VIEW_MESSAGES } from '../../../../common/messages/qoe-alerts';
import { renderView, settle } from '../../../test-harness/render-view';
import { signedInAs } from '../../../test-harness/view-fixtures';
import { AlertsRoute, SavedViewRoute, SavedViewsRoute } from './AlertsRoutes';
import { alertsData, MY_VIEW } from './alert-fixtures';

describe('AlertsRoutes', { timeout: 20_000 }, () => {
  it('/analytics/alerts shows the Alerts page', async () => {
    const logic = qoeAlertsMachine.provide({ actors: { fetchAlerts: fakeActor(() => alertsData()) } });
    await renderView(<AlertsRoute />, { url: '/analytics/alerts', actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeAlerts: logic } });
    expect(screen.getByRole('heading', { name: QOE_ALERT_MESSAGES.pageTitle })).toBeTruthy();
  });

  it('/analytics/saved lists the saved views; /analytics/saved/$viewId opens the one of its address', async () => {
    const openView = vi.fn();
    const fetchView = vi.fn(() => MY_VIEW);
    const logic = qoeSavedViewsMachine.provide({
      actors: { fetchViews: pendingActor(), fetchView: fakeActor(fetchView) },
      actions: { openView: (_, params) => openView(params) },
    });
    await renderView(<SavedViewsRoute />, { url: '/analytics/saved', actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeSavedViews: logic } });
    expect(screen.getByRole('heading', { name: QOE_SAVED_VIEW_MESSAGES.listTitle })).toBeTruthy();
    await renderView(<SavedViewRoute />, { url: '/analytics/saved/view-1', actors: signedInAs({ 'Dashboard 360': 'read' }), pages: { qoeSavedViews: logic } });
    await settle();
    expect(fetchView).toHaveBeenCalledWith({ id: 'view-1' });
    expect(openView).toHaveBeenCalledWith({ path: MY_VIEW.path, search: MY_VIEW.search, replace: true });
  });
});
