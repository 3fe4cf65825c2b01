/**
 * The current network and what can be done with it (spec §4.6, §5, §8), as the `network` system
 * actor. Three concerns run side by side:
 * - `networks`: load the site's networks, choose one, launch it or copy brand/settings onto it from
 *   the default network (each change confirmed first);
 * - `reads`: the per-network settings, brand and device data the AppCMS pages show: the page on
 *   screen says which kind it shows (`network.view`), and the machine reads it again whenever the
 *   current network or its data changes;
 * - `message`: the machine's last message, cleared after MESSAGE_DISPLAY_MS. Every message also goes
 *   to the `notifier` snackbar.
 * I/O actors and the session-storage actions are supplied by src/adapters/network-actors.ts.
 */
import { and, assign, enqueueActions, raise, sendTo, setup, type ActorRefFrom, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { DiffEntry, LaunchGap } from '../common/appcms';
import type { Network, NetworkDataKind, Service } from '../common/contract';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import type { NotifierEvent, Severity } from './notifier.machine';
import { providedLater } from './unprovided';
import { networkLastChangeMachine, type LastNetworkChange, type NetworkLastChangeRef } from './network-last-change.machine';

export type CopyWhat = 'brand' | 'settings';
export type NetworkData = Record<string, unknown>;

/** Thrown by the I/O actors when the access token or the API key is missing (spec §5). */
export const CREDENTIALS_MISSING = 'credentials-missing';
export class CredentialsMissingError extends Error {
  readonly code = CREDENTIALS_MISSING;
  constructor() {
    super(MESSAGES.credentialsMissing);
    this.name = 'CredentialsMissingError';
  }
}

export interface NetworkMachineInput {
  site: string | null;
  /** The identifier saved in session storage, if any. */
  savedNetworkId: string | null;
  canWrite?: boolean;
}

export type PendingChange =
  | { kind: 'launch'; identifier: string; name: string }
  /** Issue 28: a launched network goes back to not launched. */
  | { kind: 'withdraw'; identifier: string; name: string }
  | { kind: 'copy'; what: CopyWhat; identifier: string; name: string; defaultName: string };

export interface NetworkDataEntry {
  identifier: string;
  /** null: nothing to show (the default network, missing credentials, or the read failed). */
  data: NetworkData | null;
  failed: boolean;
}

export interface NetworkMessage {
  text: string;
  severity: Severity;
}

export interface NetworkContext {
  site: string | null;
  /** The signed-in role may launch and copy (common/roles canEdit on App CMS); read-only users are refused. */
  canWrite: boolean;
  service: Service | null;
  networks: Network[];
  /** The chosen identifier; null means the default network is current. */
  selectedId: string | null;
  pending: PendingChange | null;
  /** What the pending copy would change (field, this network's value, the default's); null until read. */
  copyPreview: DiffEntry[] | null;
  /** What the network to launch lacks (issue 30); null until checked. */
  launchGaps: LaunchGap[] | null;
  syncSuccess: boolean;
  message: NetworkMessage | null;
  readRequest: { identifier: string; kind: NetworkDataKind } | null;
  networkData: Partial<Record<NetworkDataKind, NetworkDataEntry>>;
  /** The kind of data the page on screen shows, or null when no such page is open. */
  viewing: NetworkDataKind | null;
  /** The request id of the change being made (launch, withdraw, copy): its Undo names it (issue 28). */
  changeRequestId?: string | null;
}

export type NetworkEvent =
  | { type: 'network.select'; identifier: string }
  | { type: 'network.launch' }
  /** Issue 28: withdraw the current (launched) network, after confirmation. */
  | { type: 'network.withdraw' }
  /** The snackbar's Undo of a change of this actor went through: the networks and their data are read again. */
  | { type: 'undo.done'; requestId: string }
  /** Issue 38: undo the last launch, withdrawal or copy (offered beside the networks, not in the 3-second message). */
  | { type: 'network.undoLast' }

  | { type: 'network.copy'; what: CopyWhat }
  | { type: 'network.confirm' }
  | { type: 'network.cancel' }
  | { type: 'network.read'; kind: NetworkDataKind }
  /** A page showing one kind of the current network's data opened (kind) or closed (null). */
  | { type: 'network.view'; kind: NetworkDataKind | null }
  /** Fetch the site's networks again; also raised on start-up. */
  | { type: 'network.reload' }
  | { type: 'network.siteChanged'; site: string | null; canWrite?: boolean }
  /** Internal: raised whenever a message is posted, to restart its display timer. */
  | { type: 'network.message.posted' };

export interface FetchServiceInput { site: string }
export interface PublishNetworkInput { site: string; network: string; requestId?: string }
export interface CopyFromDefaultInput { site: string; network: string; what: CopyWhat; requestId?: string }
export interface FetchNetworkDataInput { site: string; network: string; kind: NetworkDataKind }

function outputOf<T>(event: AnyEventObject): T {
  return (event as AnyEventObject & { output: T }).output;
}

function errorOf(event: AnyEventObject): unknown {
  return (event as AnyEventObject & { error: unknown }).error;
}

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : MESSAGES.genericGraphqlError;
}

export function currentNetworkOf(context: Pick<NetworkContext, 'networks' | 'selectedId'>): Network | null {
  const chosen = context.selectedId === null ? undefined : context.networks.find((n) => n.identifier === context.selectedId);
  return chosen ?? context.networks.find((n) => n.isDefault) ?? null;
}

export function defaultNetworkOf(context: Pick<NetworkContext, 'networks'>): Network | null {
  return context.networks.find((n) => n.isDefault) ?? null;
}

type MessageArgs = { context: NetworkContext; event: AnyEventObject };

const pendingName = (context: NetworkContext) => context.pending?.name ?? '';

/** The message of each outcome, as params of the `setMessage` action. */
const fetchFailedMessage = (): NetworkMessage => ({ text: MESSAGES.failedToFetchNetworks, severity: 'error' });
const credentialsMissingMessage = (): NetworkMessage => ({ text: MESSAGES.credentialsMissing, severity: 'error' });
const siteNotFoundMessage = (): NetworkMessage => ({ text: MESSAGES.siteNotFound, severity: 'error' });
const noSelectionMessage = (): NetworkMessage => ({ text: MESSAGES.noNetworkSelected, severity: 'error' });
const isDefaultMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.isDefaultNetwork(currentNetworkOf(context)?.name ?? ''), severity: 'warning' });
const unknownSelectionMessage = ({ event }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.networkNotFound(event.type === 'network.select' ? String(event.identifier) : ''), severity: 'error' });
const savedNetworkNotFoundMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.networkNotFound(context.selectedId ?? ''), severity: 'error' });
const readOnlyMessage = (): NetworkMessage => ({ text: OWN_MESSAGES.networkReadOnly, severity: 'error' });
const alreadyLaunchedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: OWN_MESSAGES.networkAlreadyLaunched(currentNetworkOf(context)?.name ?? ''), severity: 'info' });
const launchedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.launched(pendingName(context)), severity: 'success' });
const withdrawnMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: OWN_MESSAGES.networkWithdrawn(pendingName(context)), severity: 'success' });
const withdrawFailedMessage = ({ context, event }: MessageArgs): NetworkMessage =>
  ({ text: `${OWN_MESSAGES.networkWithdrawFailed(pendingName(context))} ${errorMessage(errorOf(event))}`, severity: 'error' });
const notLaunchedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: OWN_MESSAGES.networkIsNotLaunched(currentNetworkOf(context)?.name ?? ''), severity: 'info' });
const launchFailedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.failedToLaunch(pendingName(context)), severity: 'error' });
const copiedMessage = ({ context }: MessageArgs): NetworkMessage => {
  const pending = context.pending;
  const text = pending?.kind === 'copy' ? MESSAGES.copied(pending.what, pending.defaultName, pending.name) : '';
  return { text, severity: 'success' };
};

/** The change just made, in words, with its handle: what the lasting Undo offers (issue 38). */
function lastChangeOf(context: NetworkContext): LastNetworkChange | null {
  const pending = context.pending;
  if (!pending || !context.changeRequestId) return null;
  const text = pending.kind === 'copy'
    ? OWN_MESSAGES.networkLastChange.copy(pending.what, pending.defaultName, pending.name)
    : OWN_MESSAGES.networkLastChange[pending.kind](pending.name);
  return { kind: pending.kind, requestId: context.changeRequestId, text };
}
const copyFailedMessage = ({ event }: MessageArgs): NetworkMessage => ({ text: errorMessage(errorOf(event)), severity: 'error' });
const readFailedMessage = ({ context }: MessageArgs): NetworkMessage => {
  const request = context.readRequest;
  const network = context.networks.find((n) => n.identifier === request?.identifier);
  return { text: MESSAGES.failedToGet(request?.kind ?? '', network?.name ?? request?.identifier ?? ''), severity: 'error' };
};

function fetchServiceInput({ context }: { context: NetworkContext }): FetchServiceInput {
  return { site: context.site ?? '' };
}

function publishNetworkInput({ context }: { context: NetworkContext }): PublishNetworkInput {
  return { site: context.site ?? '', network: context.pending?.identifier ?? '' };
}

/** A launch or withdrawal: the network, and the change's own request id (its Undo names it). */
function changeNetworkInput({ context }: { context: NetworkContext }): PublishNetworkInput {
  return { ...publishNetworkInput({ context }), ...(context.changeRequestId ? { requestId: context.changeRequestId } : {}) };
}

function copyInput({ context }: { context: NetworkContext }): CopyFromDefaultInput {
  return { ...copyFromDefaultInput({ context }), ...(context.changeRequestId ? { requestId: context.changeRequestId } : {}) };
}

function copyFromDefaultInput({ context }: { context: NetworkContext }): CopyFromDefaultInput {
  const what = context.pending?.kind === 'copy' ? context.pending.what : 'brand';
  return { site: context.site ?? '', network: context.pending?.identifier ?? '', what };
}

function fetchNetworkDataInput({ context }: { context: NetworkContext }): FetchNetworkDataInput {
  return { site: context.site ?? '', network: context.readRequest?.identifier ?? '', kind: context.readRequest?.kind ?? 'settings' };
}

export const networkMachine = setup({
  types: {
    context: {} as NetworkContext,
    events: {} as NetworkEvent,
    input: {} as NetworkMachineInput,
  },
  actors: {
    fetchService: providedLater<Service, FetchServiceInput>('fetchService'),
    publishNetwork: providedLater<void, PublishNetworkInput>('publishNetwork'),
    withdrawNetwork: providedLater<void, PublishNetworkInput>('withdrawNetwork'),
    copyFromDefault: providedLater<Network | null, CopyFromDefaultInput>('copyFromDefault'),
    previewCopy: providedLater<DiffEntry[], CopyFromDefaultInput>('previewCopy'),
    checkReadiness: providedLater<LaunchGap[], PublishNetworkInput>('checkReadiness'),
    fetchNetworkData: providedLater<NetworkData | null, FetchNetworkDataInput>('fetchNetworkData'),
    /** Issue 38: the last change, offered to undo beside the networks (its applyUndo provided by the wiring). */
    lastChange: networkLastChangeMachine,
  },
  actions: {
    /** Supplied by src: writes `context.selectedId` (just chosen) to session storage. */
    saveSelectedNetwork: () => {},
    /** Supplied by src: removes the saved identifier from session storage. */
    forgetSelectedNetwork: () => {},

    storeService: assign(({ event }) => {
      const service = outputOf<Service>(event);
      return { service, networks: service.networks };
    }),
    storeSite: assign(({ event }) => (event.type === 'network.siteChanged' ? { site: event.site, canWrite: event.canWrite === true } : {})),
    storeWriteRole: assign(({ event }) => (event.type === 'network.siteChanged' ? { canWrite: event.canWrite === true } : {})),
    selectNetwork: assign(({ event }) => (event.type === 'network.select' ? { selectedId: event.identifier, syncSuccess: false } : {})),
    clearSelection: assign({ selectedId: null }),
    clearNetworks: assign({ service: null, networks: [] }),
    prepareLaunch: assign(({ context }) => {
      const current = currentNetworkOf(context);
      return { pending: current ? { kind: 'launch' as const, identifier: current.identifier, name: current.name } : null };
    }),
    prepareCopy: assign(({ context, event }) => {
      const current = currentNetworkOf(context);
      if (event.type !== 'network.copy' || !current) return { pending: null };
      return {
        pending: {
          kind: 'copy' as const,
          what: event.what,
          identifier: current.identifier,
          name: current.name,
          defaultName: defaultNetworkOf(context)?.name ?? '',
        },
      };
    }),
    clearPending: assign({ pending: null, copyPreview: null, launchGaps: null }),
    storeCopyPreview: assign(({ event }) => ({ copyPreview: outputOf<DiffEntry[]>(event) })),
    storeLaunchGaps: assign(({ event }) => ({ launchGaps: outputOf<LaunchGap[]>(event) })),
    nameChange: assign(() => ({ changeRequestId: crypto.randomUUID() })),
    prepareWithdraw: assign(({ context }) => {
      const current = currentNetworkOf(context);
      return { pending: current ? { kind: 'withdraw' as const, identifier: current.identifier, name: current.name } : null };
    }),
    markWithdrawn: assign(({ context }) => ({
      networks: context.networks.map((n) => (n.identifier === context.pending?.identifier ? { ...n, isActive: false } : n)),
    })),
    markLaunched: assign(({ context }) => ({
      networks: context.networks.map((n) => (n.identifier === context.pending?.identifier ? { ...n, isActive: true } : n)),
    })),
    storeCopiedNetwork: assign(({ context, event }) => {
      const copied = outputOf<Network | null>(event);
      if (!copied) return {};
      return { networks: context.networks.map((n) => (n.identifier === copied.identifier ? copied : n)) };
    }),
    markSynced: assign({ syncSuccess: true }),
    /** Tells the `lastChange` child the change just made: it offers its Undo beside the networks (issue 38). */
    keepLastChange: sendTo('lastChange', ({ context }) => {
      const change = lastChangeOf(context);
      return change ? { type: 'lastChange.keep' as const, change } : { type: 'lastChange.forget' as const };
    }),
    undoLastChange: sendTo('lastChange', { type: 'lastChange.undo' as const }),
    /** Another site, or a role that may not write any more: the last change is not this person's to undo here. */
    forgetLastChange: sendTo('lastChange', { type: 'lastChange.forget' as const }),
    clearSyncSuccess: assign({ syncSuccess: false }),
    /** The data read so far no longer holds (a copy changed it, or the site changed); `readViewed` reads again. */
    invalidateNetworkData: assign({ networkData: {} }),
    prepareRead: assign(({ context, event }) => {
      const current = currentNetworkOf(context);
      if (event.type !== 'network.read' || !current) return {};
      return { readRequest: { identifier: current.identifier, kind: event.kind } };
    }),
    storeEmptyNetworkData: assign(({ context, event }) => {
      const current = currentNetworkOf(context);
      if (event.type !== 'network.read' || !current) return { readRequest: null };
      return {
        readRequest: null,
        networkData: { ...context.networkData, [event.kind]: { identifier: current.identifier, data: null, failed: false } },
      };
    }),
    storeNetworkData: assign(({ context, event }) => {
      const request = context.readRequest;
      if (!request) return {};
      const data = outputOf<NetworkData | null>(event) ?? null;
      return {
        readRequest: null,
        networkData: { ...context.networkData, [request.kind]: { identifier: request.identifier, data, failed: false } },
      };
    }),
    storeFailedRead: assign(({ context }) => {
      const request = context.readRequest;
      if (!request) return {};
      return {
        readRequest: null,
        networkData: { ...context.networkData, [request.kind]: { identifier: request.identifier, data: null, failed: true } },
      };
    }),
    clearMessage: assign({ message: null }),
    setViewing: assign(({ event }) => (event.type === 'network.view' ? { viewing: event.kind } : {})),
    /** Reads the data the open page shows for the (possibly new) current network. */
    readViewed: enqueueActions<NetworkContext, NetworkEvent, undefined, NetworkEvent, never, never, never, never, never>(({ context, enqueue }) => {
      if (context.viewing) enqueue.raise({ type: 'network.read', kind: context.viewing });
    }),

    /** Keeps a message in context; `postMessage` then shows it. Always used as the pair. */
    setMessage: assign((_args, params: NetworkMessage) => ({ message: params })),
    /** Restarts the message's display timer and shows it in the `notifier` snackbar. */
    // Explicit type arguments: inferring them here would make every action's params `unknown`.
    postMessage: enqueueActions<NetworkContext, NetworkEvent, undefined, NetworkEvent, never, never, never, never, never>(({ context, enqueue, system }) => {
      enqueue.raise({ type: 'network.message.posted' });
      const notifier = system.get('notifier');
      if (notifier && context.message) {
        const show: NotifierEvent = {
          type: 'notify.show', message: context.message.text, severity: context.message.severity, durationMs: MESSAGE_DISPLAY_MS,
        };
        enqueue.sendTo(notifier, show);
      }
    }),
  },
  guards: {
    hasSite: ({ context }) => context.site !== null && context.site !== '',
    lacksSite: ({ context }) => context.site === null || context.site === '',
    isSameSite: ({ context, event }) => event.type === 'network.siteChanged' && (event.site || null) === (context.site || null),
    siteArrived: ({ context, event }) => event.type === 'network.siteChanged' && !context.site && !!event.site,
    siteReplaced: ({ context, event }) => event.type === 'network.siteChanged' && !!context.site && !!event.site && context.site !== event.site,
    savedNetworkUnknown: ({ context, event }) => {
      const { networks } = outputOf<Service>(event);
      return context.selectedId !== null && !networks.some((n) => n.identifier === context.selectedId);
    },
    isUnknownNetwork: ({ context, event }) =>
      event.type === 'network.select' && !context.networks.some((n) => n.identifier === event.identifier),
    isNonDefaultWithoutSite: ({ context, event }) => {
      if (event.type !== 'network.select' || (context.site !== null && context.site !== '')) return false;
      return context.networks.some((n) => n.identifier === event.identifier && !n.isDefault);
    },
    lacksCurrentNetwork: ({ context }) => currentNetworkOf(context) === null,
    currentIsDefault: ({ context }) => currentNetworkOf(context)?.isDefault === true,
    currentIsLaunched: ({ context }) => currentNetworkOf(context)?.isActive === true,
    currentIsNotLaunched: ({ context }) => currentNetworkOf(context)?.isActive !== true,
    lacksWriteRole: ({ context }) => !context.canWrite,
    losesWriteRole: ({ event }) => event.type === 'network.siteChanged' && event.canWrite !== true,
    canReadNetworkData: ({ context }) => {
      const current = currentNetworkOf(context);
      return current !== null && !current.isDefault && context.site !== null && context.site !== '';
    },
    isCredentialsMissing: ({ event }) => (errorOf(event) as { code?: unknown } | null)?.code === CREDENTIALS_MISSING,
  },
  delays: {
    messageDisplay: MESSAGE_DISPLAY_MS,
  },
}).createMachine({
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
    copyPreview: null,
    launchGaps: null,
    syncSuccess: false,
    message: null,
    readRequest: null,
    networkData: {},
    viewing: null,
  }),
  invoke: { id: 'lastChange', src: 'lastChange' },
  on: {
    'network.view': { actions: ['setViewing', 'readViewed'] },
    // Issue 38: undo the last launch, withdrawal or copy (offered beside the networks to a role that may write).
    'network.undoLast': [
      { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
      { actions: 'undoLastChange' },
    ],
    // Issue 28: a launch, withdrawal or copy of this actor was undone: read the networks and the data shown again.
    'undo.done': { actions: ['invalidateNetworkData', 'readViewed', raise({ type: 'network.reload' })] },
  },
  states: {
    networks: {
      description: 'The site\'s networks, the current one and the changes made to it.',
      // Start-up: the region rests in `ready` and asks for its networks at once (same macrostep):
      // `network.reload` fetches them only for a known site, so without one it stays in `ready`.
      initial: 'ready',
      entry: raise({ type: 'network.reload' }),
      on: {
        'network.siteChanged': [
          { guard: and(['isSameSite', 'losesWriteRole']), actions: ['storeWriteRole', 'forgetLastChange'] },
          { guard: 'isSameSite', actions: 'storeWriteRole' },
          // Signing in (or restoring a session) keeps the choice saved for this browser tab.
          { guard: 'siteArrived', target: '.loading', actions: ['storeSite', 'forgetLastChange', 'invalidateNetworkData', 'readViewed'] },
          // Another site's networks have other identifiers: the saved choice no longer applies.
          { guard: 'siteReplaced', target: '.loading', actions: ['storeSite', 'clearSelection', 'forgetSelectedNetwork', 'forgetLastChange', 'invalidateNetworkData', 'readViewed'] },
          // The site is gone (signed out): changes are refused with 'Site not found' until one arrives.
          { target: '.ready', actions: ['storeSite', 'forgetLastChange', 'invalidateNetworkData', 'readViewed'] },
        ],
      },
      states: {
        loading: {
          description: 'Fetching the site and its networks (serviceGet). A network chosen meanwhile (an address with ?network= opened cold) is kept and checked once they arrive.',
          on: {
            'network.select': { actions: ['selectNetwork', 'saveSelectedNetwork'] },
          },
          invoke: {
            id: 'fetchService',
            src: 'fetchService',
            input: fetchServiceInput,
            onDone: [
              { guard: 'savedNetworkUnknown', target: 'ready', actions: ['storeService', { type: 'setMessage', params: savedNetworkNotFoundMessage }, 'postMessage', 'clearSelection', 'forgetSelectedNetwork', 'readViewed'] },
              { target: 'ready', actions: ['storeService', 'readViewed'] },
            ],
            onError: [
              { guard: 'isCredentialsMissing', target: 'ready', actions: [{ type: 'setMessage', params: credentialsMissingMessage }, 'postMessage'] },
              { target: 'ready', actions: [{ type: 'setMessage', params: fetchFailedMessage }, 'postMessage'] },
            ],
          },
        },
        ready: {
          description: 'Networks known (possibly none): the operator may choose one and change the current one.',
          initial: 'idle',
          on: {
            'network.select': [
              { guard: 'isUnknownNetwork', actions: [{ type: 'setMessage', params: unknownSelectionMessage }, 'postMessage', 'clearSelection', 'forgetSelectedNetwork'] },
              { guard: 'isNonDefaultWithoutSite', actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'] },
              { actions: ['selectNetwork', 'saveSelectedNetwork', 'readViewed'] },
            ],
          },
          states: {
            idle: {
              description: 'Nothing in progress.',
              on: {
                'network.launch': [
                  { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
                  { guard: 'lacksSite', actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'] },
                  { guard: 'lacksCurrentNetwork', actions: [{ type: 'setMessage', params: noSelectionMessage }, 'postMessage'] },
                  { guard: 'currentIsDefault', actions: [{ type: 'setMessage', params: isDefaultMessage }, 'postMessage'] },
                  { guard: 'currentIsLaunched', actions: [{ type: 'setMessage', params: alreadyLaunchedMessage }, 'postMessage'] },
                  { target: 'confirmingLaunch', actions: 'prepareLaunch' },
                ],
                'network.withdraw': [
                  { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
                  { guard: 'lacksSite', actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'] },
                  { guard: 'lacksCurrentNetwork', actions: [{ type: 'setMessage', params: noSelectionMessage }, 'postMessage'] },
                  { guard: 'currentIsDefault', actions: [{ type: 'setMessage', params: isDefaultMessage }, 'postMessage'] },
                  { guard: 'currentIsNotLaunched', actions: [{ type: 'setMessage', params: notLaunchedMessage }, 'postMessage'] },
                  { target: 'confirmingWithdraw', actions: 'prepareWithdraw' },
                ],
                'network.copy': [
                  { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
                  { guard: 'lacksSite', actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'] },
                  { guard: 'lacksCurrentNetwork', actions: [{ type: 'setMessage', params: noSelectionMessage }, 'postMessage'] },
                  { guard: 'currentIsDefault', actions: [{ type: 'setMessage', params: isDefaultMessage }, 'postMessage'] },
                  { target: 'confirmingCopy', actions: 'prepareCopy' },
                ],
                // Also raised on start-up (see `networks`).
                'network.reload': { guard: 'hasSite', target: '#network.networks.loading' },
              },
            },
            confirmingLaunch: {
              description: 'Asking the operator to confirm launching the current network, with what it lacks first (issue 30).',
              initial: 'checking',
              on: {
                'network.cancel': { target: 'idle', actions: 'clearPending' },
              },
              states: {
                checking: {
                  description: 'Reading what the network lacks (a brand, settings, at least one platform on) before it can be confirmed.',
                  invoke: {
                    id: 'checkReadiness',
                    src: 'checkReadiness',
                    input: publishNetworkInput,
                    onDone: { target: 'checked', actions: 'storeLaunchGaps' },
                    onError: { target: 'checkFailed' },
                  },
                },
                checked: {
                  description: 'The dialog lists what the network lacks (or says it is ready); the operator launches anyway or cancels.',
                  on: { 'network.confirm': '#network.networks.ready.launching' },
                },
                checkFailed: {
                  description: 'What the network lacks could not be read; the launch can still be confirmed or cancelled.',
                  on: { 'network.confirm': '#network.networks.ready.launching' },
                },
              },
            },
            confirmingWithdraw: {
              description: 'Asking the operator to confirm withdrawing the current network, saying what withdrawing does (issue 28).',
              on: {
                'network.confirm': 'withdrawing',
                'network.cancel': { target: 'idle', actions: 'clearPending' },
              },
            },
            withdrawing: {
              description: 'Withdrawing the network (POST /v2.0/appcms/withdraw): not launched any more, audited, a revision the snackbar can Undo.',
              entry: 'nameChange',
              invoke: {
                id: 'withdrawNetwork',
                src: 'withdrawNetwork',
                input: changeNetworkInput,
                onDone: { target: 'idle', actions: ['markWithdrawn', { type: 'setMessage', params: withdrawnMessage }, 'postMessage', 'keepLastChange', 'clearPending'] },
                onError: [
                  { guard: 'isCredentialsMissing', target: 'idle', actions: [{ type: 'setMessage', params: credentialsMissingMessage }, 'postMessage', 'clearPending'] },
                  { target: 'idle', actions: [{ type: 'setMessage', params: withdrawFailedMessage }, 'postMessage', 'clearPending'] },
                ],
              },
            },
            launching: {
              description: 'Publishing the network (networkPublish), as one request the snackbar can Undo.',
              entry: 'nameChange',
              invoke: {
                id: 'publishNetwork',
                src: 'publishNetwork',
                input: changeNetworkInput,
                onDone: { target: 'idle', actions: ['markLaunched', { type: 'setMessage', params: launchedMessage }, 'postMessage', 'keepLastChange', 'clearPending'] },
                onError: [
                  { guard: 'isCredentialsMissing', target: 'idle', actions: [{ type: 'setMessage', params: credentialsMissingMessage }, 'postMessage', 'clearPending'] },
                  { target: 'idle', actions: [{ type: 'setMessage', params: launchFailedMessage }, 'postMessage', 'clearPending'] },
                ],
              },
            },
            confirmingCopy: {
              description: 'Asking the operator to confirm copying brand or settings from the default network, with what the copy would change.',
              initial: 'comparing',
              on: {
                'network.confirm': 'copying',
                'network.cancel': { target: 'idle', actions: 'clearPending' },
              },
              states: {
                comparing: {
                  description: 'Reading what the copy would change: each field whose value differs from the default network\'s.',
                  invoke: {
                    id: 'previewCopy',
                    src: 'previewCopy',
                    input: copyFromDefaultInput,
                    onDone: { target: 'compared', actions: 'storeCopyPreview' },
                    onError: { target: 'compareFailed' },
                  },
                },
                compared: {
                  description: 'The dialog lists each field the copy would change (or says nothing would).',
                },
                compareFailed: {
                  description: 'The comparison could not be read; the copy can still be confirmed or cancelled.',
                },
              },
            },
            copying: {
              description: 'Copying from the default network in one server transaction (networkCopyFromDefault).',
              entry: ['clearSyncSuccess', 'nameChange'],
              invoke: {
                id: 'copyFromDefault',
                src: 'copyFromDefault',
                input: copyInput,
                onDone: { target: 'idle', actions: ['storeCopiedNetwork', 'markSynced', 'invalidateNetworkData', 'readViewed', { type: 'setMessage', params: copiedMessage }, 'postMessage', 'keepLastChange', 'clearPending'] },
                onError: [
                  { guard: 'isCredentialsMissing', target: 'idle', actions: [{ type: 'setMessage', params: credentialsMissingMessage }, 'postMessage', 'clearPending'] },
                  { target: 'idle', actions: [{ type: 'setMessage', params: copyFailedMessage }, 'postMessage', 'clearPending'] },
                ],
              },
            },
          },
        },
      },
    },
    reads: {
      description: 'Per-network settings, brand and device data for the current network.',
      initial: 'idle',
      states: {
        idle: {
          description: 'No read in progress.',
          on: {
            'network.read': [
              { guard: 'canReadNetworkData', target: 'reading', actions: 'prepareRead' },
              { actions: 'storeEmptyNetworkData' },
            ],
          },
        },
        reading: {
          description: 'Reading one kind of data for the current network; a newer request replaces it.',
          on: {
            'network.read': [
              { guard: 'canReadNetworkData', target: 'reading', reenter: true, actions: 'prepareRead' },
              { target: 'idle', actions: 'storeEmptyNetworkData' },
            ],
          },
          invoke: {
            id: 'fetchNetworkData',
            src: 'fetchNetworkData',
            input: fetchNetworkDataInput,
            onDone: { target: 'idle', actions: 'storeNetworkData' },
            onError: { target: 'idle', actions: [{ type: 'setMessage', params: readFailedMessage }, 'postMessage', 'storeFailedRead'] },
          },
        },
      },
    },
    message: {
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
    },
  },
});

export type NetworkMachine = typeof networkMachine;
export type NetworkActorRef = ActorRefFrom<NetworkMachine>;
export type NetworkSnapshot = SnapshotFrom<NetworkMachine>;

export const selectNetworks = (snapshot: NetworkSnapshot): Network[] => snapshot.context.networks;
export const selectService = (snapshot: NetworkSnapshot): Service | null => snapshot.context.service;
export const selectCurrentNetwork = (snapshot: NetworkSnapshot): Network | null => currentNetworkOf(snapshot.context);
export const selectDefaultNetwork = (snapshot: NetworkSnapshot): Network | null => defaultNetworkOf(snapshot.context);
export const selectMessage = (snapshot: NetworkSnapshot): NetworkMessage | null => snapshot.context.message;
export const selectSyncSuccess = (snapshot: NetworkSnapshot): boolean => snapshot.context.syncSuccess;
export const selectIsFetching = (snapshot: NetworkSnapshot): boolean => snapshot.matches({ networks: 'loading' });
export const selectIsChanging = (snapshot: NetworkSnapshot): boolean =>
  snapshot.matches({ networks: { ready: 'launching' } }) || snapshot.matches({ networks: { ready: 'copying' } })
  || snapshot.matches({ networks: { ready: 'withdrawing' } });
export const selectIsReading = (snapshot: NetworkSnapshot): boolean => snapshot.matches({ reads: 'reading' });
/** The loading flag of spec §4.6: fetching, launching, copying or reading per-network data. */
export const selectLoading = (snapshot: NetworkSnapshot): boolean =>
  selectIsFetching(snapshot) || selectIsChanging(snapshot) || selectIsReading(snapshot);
/** The change waiting for the operator's confirmation, or being carried out. */
export const selectPendingChange = (snapshot: NetworkSnapshot): PendingChange | null => snapshot.context.pending;
/** What the pending copy would change: still being read, read (the fields), or not readable. */
export const selectCopyPreview = (snapshot: NetworkSnapshot):
  { phase: 'comparing' } | { phase: 'compared'; changes: DiffEntry[] } | { phase: 'failed' } | null => {
  if (snapshot.matches({ networks: { ready: { confirmingCopy: 'comparing' } } })) return { phase: 'comparing' };
  if (snapshot.matches({ networks: { ready: { confirmingCopy: 'compared' } } })) return { phase: 'compared', changes: snapshot.context.copyPreview ?? [] };
  if (snapshot.matches({ networks: { ready: { confirmingCopy: 'compareFailed' } } })) return { phase: 'failed' };
  return null;
};
export const selectIsConfirming = (snapshot: NetworkSnapshot): boolean =>
  snapshot.matches({ networks: { ready: 'confirmingLaunch' } }) || snapshot.matches({ networks: { ready: 'confirmingCopy' } })
  || snapshot.matches({ networks: { ready: 'confirmingWithdraw' } });
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
export const selectHasSite = (snapshot: NetworkSnapshot): boolean => snapshot.context.site !== null && snapshot.context.site !== '';
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
  { phase: 'checking' } | { phase: 'checked'; gaps: LaunchGap[] } | { phase: 'failed' } | null => {
  if (snapshot.matches({ networks: { ready: { confirmingLaunch: 'checking' } } })) return { phase: 'checking' };
  if (snapshot.matches({ networks: { ready: { confirmingLaunch: 'checked' } } })) return { phase: 'checked', gaps: snapshot.context.launchGaps ?? [] };
  if (snapshot.matches({ networks: { ready: { confirmingLaunch: 'checkFailed' } } })) return { phase: 'failed' };
  return null;
};
/** The `lastChange` child (issue 38): the last change offered to undo beside the networks. */
export const selectLastChangeActor = (snapshot: NetworkSnapshot): NetworkLastChangeRef | undefined =>
  snapshot.children.lastChange as NetworkLastChangeRef | undefined;
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
