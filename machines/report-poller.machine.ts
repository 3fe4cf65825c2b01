/**
 * The polling child of a real-time report page: while it runs it tells its parent `poll.tick`
 * every REALTIME_POLL_MS. The parent runs it only while the page is visible, so stopping it (by
 * leaving the state that invokes it) is how polling pauses in a hidden tab.
 */
import { sendParent, setup } from 'xstate';
import { REALTIME_POLL_MS } from '../common/reports';

export const reportPollerMachine = setup({
  actions: {
    tickParent: sendParent({ type: 'poll.tick' }),
  },
  delays: { pollInterval: REALTIME_POLL_MS },
}).createMachine({
  id: 'reportPoller',
  description: 'Ticks its parent report machine every 15 seconds.',
  initial: 'waiting',
  states: {
    waiting: {
      description: 'Waiting for the next refresh of a real-time page.',
      after: { pollInterval: { target: 'waiting', reenter: true, actions: 'tickParent' } },
    },
  },
});
