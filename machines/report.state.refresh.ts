/** The report machine's `refresh` region (assembled in ./report.machine.ts). */
import { reportSetup } from './report.actions';

export const refreshState = reportSetup.createStateConfig({
  description: 'Automatic refresh of real-time pages.',
  initial: 'deciding',
  states: {
    deciding: {
      description: 'Real-time pages poll; the others never do.',
      always: [{ guard: 'isRealtime', target: 'live' }, { target: 'off' }],
    },
    off: {
      description: 'Not a real-time page.',
    },
    live: {
      description: 'Listening to the page visibility.',
      invoke: { src: 'visibility' },
      initial: 'visible',
      states: {
        visible: {
          description: 'The poller child ticks every 15 s.',
          invoke: { src: 'poller', id: 'poller' },
          on: { 'page.hidden': 'hidden' },
        },
        hidden: {
          description: 'The tab is hidden: polling paused; showing it again refreshes at once.',
          on: { 'page.visible': { target: 'visible', actions: 'refreshNow' } },
        },
      },
    },
  },
});
