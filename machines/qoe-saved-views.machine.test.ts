import { describe } from 'vitest';
import type { QoeSavedView } from '../common/qoe';
import { qoeSavedViewsMachine } from './qoe-saved-views.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';

const MINE: QoeSavedView = {
  id: 'view-1', name: 'Sports on Android', path: '/analytics/qos-overall', search: { f: 'device:android' }, shared: false,
  ownerId: 'u-1', ownerName: 'Ada', mine: true, version: 1, createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z',
};
const THEIRS: QoeSavedView = { ...MINE, id: 'view-2', name: 'Evening peak', shared: true, ownerId: 'u-2', ownerName: 'Grace', mine: false };
const status = (code: number) => Object.assign(new Error(`status ${code}`), { status: code });

describe('qoeSavedViews: every path', () => {
  const events = [
    { type: 'views.retry' },
    { type: 'views.open', id: MINE.id },
    { type: 'views.open', id: 'nope' },
    { type: 'views.rename', id: MINE.id },
    { type: 'views.rename', id: THEIRS.id },
    { type: 'views.share', id: MINE.id, shared: true },
    { type: 'views.share', id: THEIRS.id, shared: false },
    { type: 'views.delete', id: MINE.id },
    { type: 'views.delete', id: THEIRS.id },
    { type: 'rename.name', name: 'Renamed' },
    { type: 'rename.name', name: ' ' },
    { type: 'rename.submit' },
    { type: 'rename.cancel' },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: 'xstate.done.actor.fetchView', output: MINE },
    { type: 'xstate.error.actor.fetchView', error: status(404) },
    { type: 'xstate.error.actor.fetchView', error: status(500) },
    { type: 'xstate.done.actor.fetchViews', output: [MINE, THEIRS] },
    { type: 'xstate.error.actor.fetchViews', error: status(500) },
    { type: 'xstate.done.actor.updateView', output: { ...MINE, name: 'Renamed', version: 2 } },
    { type: 'xstate.error.actor.updateView', error: status(409) },
    { type: 'xstate.error.actor.updateView', error: status(500) },
    { type: 'xstate.done.actor.deleteView', output: null },
    { type: 'xstate.error.actor.deleteView', error: status(409) },
    { type: 'xstate.error.actor.deleteView', error: status(500) },
  ];
  itReachesEveryStateAndTransition(qoeSavedViewsMachine, {
    events,
    // One view opened from its address, and the list: the first state chooses by the input.
    inputs: [{ canShare: true, openId: MINE.id }, { canShare: true }],
    logic: qoeSavedViewsMachine.provide({
      actors: { fetchView: pendingActor(), fetchViews: pendingActor(), updateView: pendingActor(), deleteView: pendingActor() },
    }),
    serializeState: (s) => JSON.stringify([s.value, s.context.views.length, s.context.targetId, s.context.name.trim() !== '']),
  });
});
