/**
 * The `network` machine's `message` region: its last message, cleared after MESSAGE_DISPLAY_MS.
 * Every message also goes to the `notifier` snackbar (`postMessage`).
 */
import { networkSetup } from './network.setup';

export const messageState = networkSetup.createStateConfig({
  description: 'The machine\'s last message, kept for MESSAGE_DISPLAY_MS (spec §4.6).',
  initial: 'hidden',
  states: {
    hidden: {
      description: 'No message.',
      on: { 'network.message.posted': 'visible' },
    },
    visible: {
      description: 'A message is kept; it clears after the display time, restarting when a new one arrives.',
      after: { messageDisplay: { target: 'hidden', actions: 'clearMessage' } },
      on: { 'network.message.posted': { target: 'visible', reenter: true } },
    },
  },
});
