/**
 * The `network` machine's setup (machines/network.machine.ts assembles it with its states): its
 * types, its I/O actors and children, and its actions, guards and delays by name.
 * I/O actors and the session-storage actions are supplied by src/adapters/network-actors.ts.
 */
import { assign, enqueueActions, raise, sendTo, setup } from 'xstate';
import { machineTypes } from './machine-types';
import type { Network, Service } from '../common/contract';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { networkChangeMachine, type NetworkChangeInput, type NetworkChangeOutcome } from './network-change.machine';
import { lastingUndoMachine, type LastingChange } from './lasting-undo.machine';
import { showNotification } from './notify';
import {
  currentNetworkOf, defaultNetworkOf, hasSite, isCredentialsMissingError,
  type FetchNetworkDataInput, type FetchServiceInput, type NetworkContext, type NetworkData, type NetworkEvent,
  type NetworkMachineInput, type NetworkMessage, type PendingChange,
} from './network.types';
import { providedLater } from './unprovided';

/** Every child by its id: `snapshot.children.change` and `.lastChange` are typed. */
export type NetworkChildren = {
  /** Issue 38: the last change, offered to undo beside the networks (its applyUndo provided by the wiring). */
  lastChange: 'lastChange';
  /** The launch, withdrawal or copy being asked about or made. */
  change: 'change';
  fetchService: 'fetchService';
  fetchNetworkData: 'fetchNetworkData';
};

/** The current network as the change to ask about, or null without one. */
function pendingOf(context: NetworkContext, kind: 'launch' | 'withdraw'): PendingChange | null {
  const current = currentNetworkOf(context);
  return current ? { kind, identifier: current.identifier, name: current.name } : null;
}

export const networkSetup = setup({
  types: machineTypes<{ context: NetworkContext; events: NetworkEvent; children: NetworkChildren; input: NetworkMachineInput }>(),
  actors: {
    fetchService: providedLater<Service, FetchServiceInput>('fetchService'),
    fetchNetworkData: providedLater<NetworkData | null, FetchNetworkDataInput>('fetchNetworkData'),
    change: networkChangeMachine,
    lastChange: lastingUndoMachine,
  },

  actions: {
    /** Supplied by src: writes `context.selectedId` (just chosen) to session storage. */
    saveSelectedNetwork: () => {},
    /** Supplied by src: removes the saved identifier from session storage. */
    forgetSelectedNetwork: () => {},

    storeService: assign((_, params: { service: Service }) => ({ service: params.service, networks: params.service.networks })),
    storeSite: assign((_, params: { site: string | null; canWrite: boolean }) => ({ site: params.site, canWrite: params.canWrite })),
    storeWriteRole: assign((_, params: { canWrite: boolean }) => ({ canWrite: params.canWrite })),
    selectNetwork: assign((_, params: { identifier: string }) => ({ selectedId: params.identifier, syncSuccess: false })),
    clearSelection: assign({ selectedId: null }),
    prepareLaunch: assign(({ context }) => ({ pending: pendingOf(context, 'launch') })),
    prepareWithdraw: assign(({ context }) => ({ pending: pendingOf(context, 'withdraw') })),
    prepareCopy: assign(({ context }, params: { what: 'brand' | 'settings' }) => {
      const current = currentNetworkOf(context);
      if (!current) return { pending: null };
      return { pending: { kind: 'copy', what: params.what, identifier: current.identifier, name: current.name, defaultName: defaultNetworkOf(context)?.name ?? '' } };
    }),
    clearPending: assign({ pending: null }),
    /** The `change` child, just started, asks its question. */
    openChange: sendTo('change', { type: 'change.open' }),
    /** The operator's answer, passed on to the `change` child. */
    confirmChange: sendTo('change', { type: 'change.confirm' }),
    cancelChange: sendTo('change', { type: 'change.cancel' }),
    /** The pending change's network is launched (true) or withdrawn (false). */
    markActive: assign(({ context }, params: { isActive: boolean }) => ({
      networks: context.networks.map((n) => (n.identifier === context.pending?.identifier ? { ...n, isActive: params.isActive } : n)),
    })),
    storeCopiedNetwork: assign(({ context }, params: { copied: Network | null }) => {
      const copied = params.copied;
      if (!copied) return {};
      return { networks: context.networks.map((n) => (n.identifier === copied.identifier ? copied : n)) };
    }),
    markSynced: assign({ syncSuccess: true }),
    clearSyncSuccess: assign({ syncSuccess: false }),
    /** Tells the `lastChange` child the change just made: it offers its Undo beside the networks (issue 38). */
    keepLastChange: sendTo('lastChange', (_, params: { change: LastingChange | null }) =>
      (params.change ? { type: 'lastingUndo.keep', change: params.change } : { type: 'lastingUndo.forget' })),
    undoLastChange: sendTo('lastChange', { type: 'lastingUndo.undo' }),
    /** Another site, or a role that may not write any more: the last change is not this person's to undo here. */
    forgetLastChange: sendTo('lastChange', { type: 'lastingUndo.forget' }),
    /** The data read so far no longer holds (a copy changed it, or the site changed); `readViewed` reads again. */
    invalidateNetworkData: assign({ networkData: {} }),
    prepareRead: assign(({ context }, params: { kind: FetchNetworkDataInput['kind'] }) => {
      const current = currentNetworkOf(context);
      return current ? { readRequest: { identifier: current.identifier, kind: params.kind } } : {};
    }),
    storeEmptyNetworkData: assign(({ context }, params: { kind: FetchNetworkDataInput['kind'] }) => {
      const current = currentNetworkOf(context);
      if (!current) return { readRequest: null };
      return { readRequest: null, networkData: { ...context.networkData, [params.kind]: { identifier: current.identifier, data: null, failed: false } } };
    }),
    storeNetworkData: assign(({ context }, params: { data: NetworkData | null; failed: boolean }) => {
      const request = context.readRequest;
      if (!request) return {};
      return { readRequest: null, networkData: { ...context.networkData, [request.kind]: { identifier: request.identifier, data: params.data, failed: params.failed } } };
    }),
    clearMessage: assign({ message: null }),
    setViewing: assign((_, params: { kind: FetchNetworkDataInput['kind'] | null }) => ({ viewing: params.kind })),
    /** Reads the data the open page shows for the (possibly new) current network. */
    readViewed: enqueueActions<NetworkContext, NetworkEvent, undefined, NetworkEvent, never, never, never, never, never>(({ context, enqueue }) => {
      if (context.viewing) enqueue.raise({ type: 'network.read', kind: context.viewing });
    }),
    reload: raise({ type: 'network.reload' }),

    /** Keeps a message in context; `postMessage` then shows it. Always used as the pair. */
    setMessage: assign((_, params: NetworkMessage) => ({ message: params })),
    /** The message the `change` child ended with (`postMessage` then shows it). */
    setChangeMessage: assign((_, params: { outcome: NetworkChangeOutcome }) => ({ message: params.outcome.message })),
    /** Restarts the message's display timer and shows it in the `notifier` snackbar. */
    postMessage: enqueueActions<NetworkContext, NetworkEvent, undefined, NetworkEvent, never, never, never, never, never>(({ context, enqueue, system }) => {
      enqueue.raise({ type: 'network.message.posted' });
      const notifier = system.get('notifier');
      if (notifier && context.message) {
        enqueue.sendTo(notifier, showNotification({ message: context.message.text, severity: context.message.severity, durationMs: MESSAGE_DISPLAY_MS }));
      }
    }),
  },
  guards: {
    hasSite: ({ context }) => hasSite(context),
    lacksSite: ({ context }) => !hasSite(context),
    isSameSite: ({ context }, params: { site: string | null }) => (params.site || null) === (context.site || null),
    siteArrived: ({ context }, params: { site: string | null }) => !context.site && !!params.site,
    siteReplaced: ({ context }, params: { site: string | null }) => !!context.site && !!params.site && context.site !== params.site,
    savedNetworkUnknown: ({ context }, params: { service: Service }) =>
      context.selectedId !== null && !params.service.networks.some((n) => n.identifier === context.selectedId),
    isUnknownNetwork: ({ context }, params: { identifier: string }) => !context.networks.some((n) => n.identifier === params.identifier),
    isNonDefaultWithoutSite: ({ context }, params: { identifier: string }) =>
      !hasSite(context) && context.networks.some((n) => n.identifier === params.identifier && !n.isDefault),
    lacksCurrentNetwork: ({ context }) => currentNetworkOf(context) === null,
    currentIsDefault: ({ context }) => currentNetworkOf(context)?.isDefault === true,
    currentIsLaunched: ({ context }) => currentNetworkOf(context)?.isActive === true,
    currentIsNotLaunched: ({ context }) => currentNetworkOf(context)?.isActive !== true,
    lacksWriteRole: ({ context }) => !context.canWrite,
    /** The same site reported with a role that may not write (any more). */
    sameSiteLosesWriteRole: ({ context }, params: { site: string | null; canWrite: boolean }) =>
      (params.site || null) === (context.site || null) && !params.canWrite,
    canReadNetworkData: ({ context }) => {
      const current = currentNetworkOf(context);
      return current !== null && !current.isDefault && hasSite(context);
    },
    isCredentialsMissing: (_, params: { error: unknown }) => isCredentialsMissingError(params.error),
    pendingIs: ({ context }, params: { kind: PendingChange['kind'] }) => context.pending?.kind === params.kind,
    /** The `change` child ended as params.outcome says (cancelled, failed or done). */
    changeEnded: (_, params: { outcome: string; expected: 'cancelled' | 'failed' | 'done' }) => params.outcome === params.expected,
  },
  delays: {
    messageDisplay: MESSAGE_DISPLAY_MS,
  },
});

/** The `change` child's input: the site and the pending change (`changing` is entered only with one). */
export function changeInputOf(context: NetworkContext): NetworkChangeInput {
  if (!context.pending) throw new Error('The network change child starts only with a pending change.');
  return { site: context.site ?? '', change: context.pending };
}
