import { describe } from 'vitest';
import { qoeAlertCountMachine } from './qoe-alert-count.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import { delayedEvents } from './test-harness/paths';

describe('qoeAlertCount: every path', () => {
  const events = [
    { type: 'page.hidden' },
    { type: 'page.visible' },
    { type: 'count.refresh' },
    { type: 'xstate.done.actor.fetchCount', output: 3 },
    { type: 'xstate.error.actor.fetchCount', error: new Error('down') },
    ...delayedEvents(qoeAlertCountMachine),
  ];
  itReachesEveryStateAndTransition(qoeAlertCountMachine, {
    events,
    logic: qoeAlertCountMachine.provide({ actors: { fetchCount: pendingActor() } }),
  });
});
