import { describe } from 'vitest';
import type { QoeSavedView } from '../common/qoe';
import { qoeSaveViewMachine } from './qoe-saved-view-save.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';

const VIEW: QoeSavedView = {
  id: 'view-1', name: 'Sports on Android', path: '/analytics/qos-overall', search: { f: 'device:android' }, shared: false,
  ownerId: 'u-1', ownerName: 'Ada', mine: true, version: 1, createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z',
};

describe('qoeSaveView: every path', () => {
  const events = [
    { type: 'saveView.open', path: VIEW.path, search: VIEW.search, name: '' },
    { type: 'saveView.name', name: VIEW.name },
    { type: 'saveView.shared', shared: true },
    { type: 'saveView.submit' },
    { type: 'saveView.cancel' },
    { type: 'saveView.dismiss' },
    { type: 'xstate.done.actor.createView', output: VIEW },
    { type: 'xstate.error.actor.createView', error: new Error('down') },
  ];
  itReachesEveryStateAndTransition(qoeSaveViewMachine, {
    events,
    input: { canShare: true },
    logic: qoeSaveViewMachine.provide({ actors: { createView: pendingActor() } }),
  });
});
