/**
 * What views read from the `network` actor (re-exported by network.machine.ts). The dialog of a
 * change reads its `change` child (`selectChangeActor`) with the selectors of network-change.machine.ts.
 */
import type { DiffEntry, LaunchGap } from '../common/appcms';
import type { Network, NetworkDataKind, Service } from '../common/contract';
import { MESSAGES } from '../common/messages';
import {
  selectChangeAsking, selectChangeCopyPreview, selectChangeReadiness, selectChangeRunning,
  type NetworkChangeRef, type NetworkChangeSnapshot,
} from './network-change.machine';
import type { NetworkLastChangeRef } from './network-last-change.machine';
import type { NetworkSnapshot } from './network.machine';
import { currentNetworkOf, defaultNetworkOf, hasSite, type NetworkDataEntry, type NetworkMessage, type PendingChange } from './network.types';

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
export const selectLastChangeActor = (snapshot: NetworkSnapshot): NetworkLastChangeRef | undefined => snapshot.children.lastChange;
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
