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
 * The `lastChange` child (lasting-undo.machine.ts, the page's lasting Undo) offers the last change's Undo (issue 38).
 * Types, actors, actions and guards: network.setup.ts; I/O actors and the session-storage actions
 * are supplied by src/adapters/network-actors.ts.
 */
import { type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { readOnlyMessage } from './network.messages';
import { networkSetup } from './network.setup';
import { messageState } from './network.state.message';
import { networksState } from './network.state.networks';
import { readsState } from './network.state.reads';
import type { DiffEntry, LaunchGap } from '../common/appcms';
import type { Network, NetworkDataKind, Service } from '../common/contract';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { MESSAGES } from '../common/messages';
import {
  selectChangeAsking, selectChangeCopyPreview, selectChangeReadiness, selectChangeRunning,
  type NetworkChangeRef, type NetworkChangeSnapshot,
} from './network-change.machine';
import type { LastingUndoRef } from './lasting-undo.machine';
import { currentNetworkOf, defaultNetworkOf, hasSite, type NetworkDataEntry, type NetworkMessage, type PendingChange } from './network.types';

export * from './network.types';

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
  // Issue 38: the lasting Undo of the last change; its messages go after MESSAGE_DISPLAY_MS like every network message.
  invoke: { id: 'lastChange', src: 'lastChange', input: { messageDurationMs: MESSAGE_DISPLAY_MS } },
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

// What views read from the `network` actor. The dialog of a change reads its `change` child
// (`selectChangeActor`) with the selectors of network-change.machine.ts.
export const selectNetworks = (snapshot: NetworkSnapshot): Network[] => snapshot.context.networks;
export const selectService = (snapshot: NetworkSnapshot): Service | null => snapshot.context.service;
export const selectCurrentNetwork = (snapshot: NetworkSnapshot): Network | null => currentNetworkOf(snapshot.context);
export const selectDefaultNetwork = (snapshot: NetworkSnapshot): Network | null => defaultNetworkOf(snapshot.context);
export const selectMessage = (snapshot: NetworkSnapshot): NetworkMessage | null => snapshot.context.message;
export const selectSyncSuccess = (snapshot: NetworkSnapshot): boolean => snapshot.context.syncSuccess;
export const selectIsFetching = (snapshot: NetworkSnapshot): boolean => snapshot.matches({ networks: 'loading' });

/** The `change` child: the launch, withdrawal or copy being asked about or made, while there is one. */
export const selectChangeActor = (snapshot: NetworkSnapshot): NetworkChangeRef | undefined => snapshot.children.change;
const changeOf = (snapshot: NetworkSnapshot): NetworkChangeSnapshot | undefined => snapshot.children.change?.getSnapshot();

/** A launch, withdrawal or copy is being made (read now; a view follows the child with `selectChangeRunning`). */
export const selectIsChanging = (snapshot: NetworkSnapshot): boolean => selectChangeRunning(changeOf(snapshot));
export const selectIsReading = (snapshot: NetworkSnapshot): boolean => snapshot.matches({ reads: 'reading' });
/** The loading flag of spec §4.6: fetching, launching, copying or reading per-network data. */
export const selectLoading = (snapshot: NetworkSnapshot): boolean =>
  selectIsFetching(snapshot) || selectIsChanging(snapshot) || selectIsReading(snapshot);
/** The change waiting for the operator's confirmation, or being carried out. */
export const selectPendingChange = (snapshot: NetworkSnapshot): PendingChange | null => snapshot.context.pending;
/** What the pending copy would change: still being read, read (the fields), or not readable. */
export const selectCopyPreview = (snapshot: NetworkSnapshot):
  { phase: 'comparing' } | { phase: 'compared'; changes: DiffEntry[] } | { phase: 'failed' } | null => selectChangeCopyPreview(changeOf(snapshot));
export const selectIsConfirming = (snapshot: NetworkSnapshot): boolean => selectChangeAsking(changeOf(snapshot));
/**
 * The current network's data of one kind: undefined while not read yet for that network, else the
 * entry (data null for the default network, missing credentials or a failed read).
 */
export const selectNetworkData = (kind: NetworkDataKind) => (snapshot: NetworkSnapshot): NetworkDataEntry | undefined => {
  const entry = snapshot.context.networkData[kind];
  const current = currentNetworkOf(snapshot.context);
  return entry && current && entry.identifier === current.identifier ? entry : undefined;
};
/** The actor follows a signed-in site (given only to users with an App CMS role): the switcher is offered. */
export const selectHasSite = (snapshot: NetworkSnapshot): boolean => hasSite(snapshot.context);
/** Launch and Copy are offered only to a role that may use them (issue 20). */
export const selectCanWrite = (snapshot: NetworkSnapshot): boolean => snapshot.context.canWrite;
/**
 * Launch is offered to a role that may write on a network that is neither launched nor the default
 * (issue 30: the default network is always live; were it sent, the machine answers "… is the default network.").
 */
export const selectCanLaunch = (snapshot: NetworkSnapshot): boolean => {
  const current = currentNetworkOf(snapshot.context);
  return snapshot.context.canWrite && current !== null && !current.isDefault && !current.isActive;
};
/** Withdraw is offered to a role that may write, on a launched network that is not the default (issue 28). */
export const selectCanWithdraw = (snapshot: NetworkSnapshot): boolean => {
  const current = currentNetworkOf(snapshot.context);
  return snapshot.context.canWrite && current !== null && !current.isDefault && current.isActive;
};
/** What the network to launch lacks: still being checked, checked (the gaps, maybe none), or not readable. */
export const selectLaunchReadiness = (snapshot: NetworkSnapshot):
  { phase: 'checking' } | { phase: 'checked'; gaps: LaunchGap[] } | { phase: 'failed' } | null => selectChangeReadiness(changeOf(snapshot));
/** The `lastChange` child (issue 38): the last change offered to undo beside the networks. */
export const selectLastChangeActor = (snapshot: NetworkSnapshot): LastingUndoRef | undefined => snapshot.children.lastChange;
/**
 * Spec §5: launching or copying is refused for the default network. To a role that may write, on the
 * default network, the reason the switcher shows beside its disabled Launch and Copy; null otherwise.
 */
export const selectDefaultNetworkRefusal = (snapshot: NetworkSnapshot): string | null => {
  const current = currentNetworkOf(snapshot.context);
  return snapshot.context.canWrite && current?.isDefault === true ? MESSAGES.isDefaultNetwork(current.name) : null;
};
/** Copy from default is offered to a role that may write (on the default network the machine says why it cannot). */
export const selectCanCopy = (snapshot: NetworkSnapshot): boolean =>
  snapshot.context.canWrite && currentNetworkOf(snapshot.context) !== null;
