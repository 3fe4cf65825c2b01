/**
 * The `network` machine's `reads` region: the per-network settings, brand and device data the
 * AppCMS pages show, read for the current network (the page on screen says which kind, `network.view`).
 */
import { readFailedMessage } from './network.messages';
import { networkSetup } from './network.setup';

export const readsState = networkSetup.createStateConfig({
  description: 'Per-network settings, brand and device data for the current network.',
  initial: 'idle',
  states: {
    idle: {
      description: 'No read in progress.',
      on: {
        'network.read': [
          { guard: 'canReadNetworkData', target: 'reading', actions: { type: 'prepareRead', params: ({ event }) => ({ kind: event.kind }) } },
          { actions: { type: 'storeEmptyNetworkData', params: ({ event }) => ({ kind: event.kind }) } },
        ],
      },
    },
    reading: {
      description: 'Reading one kind of data for the current network; a newer request replaces it.',
      on: {
        'network.read': [
          { guard: 'canReadNetworkData', target: 'reading', reenter: true, actions: { type: 'prepareRead', params: ({ event }) => ({ kind: event.kind }) } },
          { target: 'idle', actions: { type: 'storeEmptyNetworkData', params: ({ event }) => ({ kind: event.kind }) } },
        ],
      },
      invoke: {
        id: 'fetchNetworkData',
        src: 'fetchNetworkData',
        input: ({ context }) => ({
          site: context.site ?? '', network: context.readRequest?.identifier ?? '', kind: context.readRequest?.kind ?? 'settings',
        }),
        onDone: { target: 'idle', actions: { type: 'storeNetworkData', params: ({ event }) => ({ data: event.output ?? null, failed: false }) } },
        onError: { target: 'idle', actions: [{ type: 'setMessage', params: readFailedMessage }, 'postMessage', { type: 'storeNetworkData', params: { data: null, failed: true } }] },
      },
    },
  },
});
