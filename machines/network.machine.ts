/**
 * The current network and what can be done with it (spec §4.6, §5, §8), as the `network` system
 * actor. Three concerns run side by side:
 * - `networks` (network.state.networks.ts): load the site's networks, choose one, launch or withdraw
 *   it or copy brand/settings onto it from the default network; each change is asked and made by the
 *   `change` child (network-change.machine.ts) once the network's refusals are passed;
 * - `reads` (network.state.reads.ts): the per-network settings, brand and device data the AppCMS
 *   pages show: the page on screen says which kind it shows (`network.view`), and the machine reads
 *   it again whenever the current network or its data changes;
 * - `message` (network.state.message.ts): the machine's last message, cleared after
 *   MESSAGE_DISPLAY_MS. Every message also goes to the `notifier` snackbar.
 * The `lastChange` child (network-last-change.machine.ts) offers the last change's Undo (issue 38).
 * Types, actors, actions and guards: network.setup.ts; I/O actors and the session-storage actions
 * are supplied by src/adapters/network-actors.ts.
 */
import { type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { readOnlyMessage } from './network.messages';
import { networkSetup } from './network.setup';
import { messageState } from './network.state.message';
import { networksState } from './network.state.networks';
import { readsState } from './network.state.reads';

export * from './network.types';
export * from './network.selectors';

export const networkMachine = networkSetup.createMachine({
  id: 'network',
  description: 'The network switcher: the site\'s networks, the current one, launching, copying from the default network and per-network reads.',
  type: 'parallel',
  context: ({ input }) => ({
    site: input.site,
    canWrite: input.canWrite === true,
    service: null,
    networks: [],
    selectedId: input.savedNetworkId,
    pending: null,
    syncSuccess: false,
    message: null,
    readRequest: null,
    networkData: {},
    viewing: null,
  }),
  invoke: { id: 'lastChange', src: 'lastChange' },
  on: {
    'network.view': { actions: [{ type: 'setViewing', params: ({ event }) => ({ kind: event.kind }) }, 'readViewed'] },
    // Issue 38: undo the last launch, withdrawal or copy (offered beside the networks to a role that may write).
    'network.undoLast': [
      { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
      { actions: 'undoLastChange' },
    ],
    // Issue 28: a launch, withdrawal or copy of this actor was undone: read the networks and the data shown again.
    'undo.done': { actions: ['invalidateNetworkData', 'readViewed', 'reload'] },
  },
  states: {
    networks: networksState,
    reads: readsState,
    message: messageState,
  },
});

export type NetworkMachine = typeof networkMachine;
export type NetworkActorRef = ActorRefFrom<NetworkMachine>;
export type NetworkSnapshot = SnapshotFrom<NetworkMachine>;
