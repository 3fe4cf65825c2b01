/**
 * One change to the current network, asked first and then made (spec §5; issues 28, 30): a launch,
 * a withdrawal, or a copy of brand or settings from the default network. Shaped like the pages'
 * one action (machines/page-action.machine.ts): ask → confirm → running → done | failed.
 *
 * The `network` actor runs it as its `change` child once the change passed the network's refusals
 * (a read-only role, no site, no network, the default network, already launched / not launched),
 * passes the operator's answer on (`change.confirm`, `change.cancel`), and takes its output when it
 * ends: the message to show and, for a change made, the network copied and what the lasting Undo offers.
 *
 *   opening ─open─▶ confirming.(launch | withdraw | copy), as the change's kind says
 *   confirming.launch   (checking → checked | checkFailed)     ─confirm─▶ running.launching   ─▶ done | failed
 *   confirming.withdraw                                         ─confirm─▶ running.withdrawing ─▶ done | failed
 *   confirming.copy     (comparing → compared | compareFailed) ─confirm─▶ running.copying     ─▶ done | failed
 *   confirming ─cancel─▶ cancelled
 */
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import type { DiffEntry, LaunchGap } from '../common/appcms';
import type { Network } from '../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import type { LastingChange } from './lasting-undo.machine';
import {
  isCredentialsMissingError, networkErrorMessage,
  type CopyFromDefaultInput, type NetworkMessage, type PendingChange, type PublishNetworkInput,
} from './network.types';
import { providedLater } from './unprovided';

export interface NetworkChangeInput {
  site: string;
  change: PendingChange;
}

/**
 * How the change ended: cancelled (nothing changed, nothing to say), failed (the message says why) or
 * done (the message, the network as copied, and what the lasting Undo offers).
 */
export interface NetworkChangeOutcome {
  outcome: 'cancelled' | 'failed' | 'done';
  message: NetworkMessage | null;
  lastChange: LastingChange | null;
  copied: Network | null;
}

const CANCELLED: NetworkChangeOutcome = { outcome: 'cancelled', message: null, lastChange: null, copied: null };

export interface NetworkChangeContext {
  site: string;
  change: PendingChange;
  /** The change's own request id: its Undo names it (issue 28). */
  requestId: string;
  /** What the network to launch lacks (issue 30); null until checked. */
  launchGaps: LaunchGap[] | null;
  /** What the copy would change (field, this network's value, the default's); null until read. */
  copyPreview: DiffEntry[] | null;
  outcome: NetworkChangeOutcome;
}

export type NetworkChangeEvent =
  /** From the `network` actor as it starts the child: ask the question of this kind of change. */
  | { type: 'change.open' }
  | { type: 'change.confirm' }
  | { type: 'change.cancel' };

/**
 * The change made, in words, with its handle: what the lasting Undo offers beside the networks (issue 38),
 * as the `network` actor's `lastChange` child (lasting-undo.machine.ts), which tells `network` once undone.
 */
function lastChangeOf({ change, requestId }: NetworkChangeContext): LastingChange {
  const text = change.kind === 'copy'
    ? OWN_MESSAGES.networkLastChange.copy(change.what, change.defaultName, change.name)
    : OWN_MESSAGES.networkLastChange[change.kind](change.name);
  return { requestId, label: OWN_MESSAGES.networkUndoLast[change.kind], replyTo: 'network', text };
}

const checkInput = ({ context }: { context: NetworkChangeContext }): PublishNetworkInput =>
  ({ site: context.site, network: context.change.identifier });
/** A launch or withdrawal: the network, and the change's own request id (its Undo names it). */
const changeInput = ({ context }: { context: NetworkChangeContext }): PublishNetworkInput =>
  ({ ...checkInput({ context }), requestId: context.requestId });
const previewInput = ({ context }: { context: NetworkChangeContext }): CopyFromDefaultInput =>
  ({ site: context.site, network: context.change.identifier, what: context.change.kind === 'copy' ? context.change.what : 'brand' });
const copyInput = ({ context }: { context: NetworkChangeContext }): CopyFromDefaultInput =>
  ({ ...previewInput({ context }), requestId: context.requestId });

const credentialsMissing: NetworkMessage = { text: MESSAGES.credentialsMissing, severity: 'error' };
const copiedText = ({ change }: NetworkChangeContext): string =>
  (change.kind === 'copy' ? MESSAGES.copied(change.what, change.defaultName, change.name) : '');

export const networkChangeMachine = setup({
  types: machineTypes<{
    context: NetworkChangeContext; events: NetworkChangeEvent; input: NetworkChangeInput; output: NetworkChangeOutcome;
    children: {
      publishNetwork: 'publishNetwork'; withdrawNetwork: 'withdrawNetwork'; copyFromDefault: 'copyFromDefault'; previewCopy: 'previewCopy'; checkReadiness: 'checkReadiness';
    };
  }>(),
  actors: {
    publishNetwork: providedLater<void, PublishNetworkInput>('publishNetwork'),
    withdrawNetwork: providedLater<void, PublishNetworkInput>('withdrawNetwork'),
    copyFromDefault: providedLater<Network | null, CopyFromDefaultInput>('copyFromDefault'),
    previewCopy: providedLater<DiffEntry[], CopyFromDefaultInput>('previewCopy'),
    checkReadiness: providedLater<LaunchGap[], PublishNetworkInput>('checkReadiness'),
  },
  actions: {
    storeLaunchGaps: assign((_, params: { gaps: LaunchGap[] }) => ({ launchGaps: params.gaps })),
    storeCopyPreview: assign((_, params: { changes: DiffEntry[] }) => ({ copyPreview: params.changes })),
    succeed: assign(({ context }, params: { message: NetworkMessage; copied: Network | null }) => ({
      outcome: { outcome: 'done', message: params.message, copied: params.copied, lastChange: lastChangeOf(context) },
    })),
    fail: assign((_, params: { message: NetworkMessage }) => ({ outcome: { outcome: 'failed', message: params.message, lastChange: null, copied: null } })),
  },
  guards: {
    isKind: ({ context }, params: { kind: PendingChange['kind'] }) => context.change.kind === params.kind,
    isCredentialsMissing: (_, params: { error: unknown }) => isCredentialsMissingError(params.error),
  },
}).createMachine({
  id: 'networkChange',
  description: 'One launch, withdrawal or copy of the current network: asked first (with what it lacks or would change), then made.',
  context: ({ input }) => ({
    site: input.site, change: input.change, requestId: crypto.randomUUID(), launchGaps: null, copyPreview: null, outcome: CANCELLED,
  }),
  initial: 'opening',
  output: ({ context }) => context.outcome,
  states: {
    opening: {
      description: 'Created with the change; the `network` actor opens its question at once (`change.open`).',
      on: {
        'change.open': [
          { guard: { type: 'isKind', params: { kind: 'launch' } }, target: 'confirming.launch' },
          { guard: { type: 'isKind', params: { kind: 'withdraw' } }, target: 'confirming.withdraw' },
          { target: 'confirming.copy' },
        ],
      },
    },
    confirming: {
      description: 'The operator is asked whether to go ahead; cancelling changes nothing.',
      // Entered at the kind's own question (`change.open`); xstate asks for an initial all the same.
      initial: 'launch',
      on: { 'change.cancel': 'cancelled' },
      states: {
        launch: {
          description: 'Asking to confirm launching the network, with what it lacks first (issue 30).',
          initial: 'checking',
          states: {
            checking: {
              description: 'Reading what the network lacks (a brand, settings, at least one platform on) before it can be confirmed.',
              invoke: {
                id: 'checkReadiness',
                src: 'checkReadiness',
                input: checkInput,
                onDone: { target: 'checked', actions: { type: 'storeLaunchGaps', params: ({ event }) => ({ gaps: event.output }) } },
                onError: { target: 'checkFailed' },
              },
            },
            checked: {
              description: 'The dialog lists what the network lacks (or says it is ready); the operator launches anyway or cancels.',
              on: { 'change.confirm': '#networkChange.running.launching' },
            },
            checkFailed: {
              description: 'What the network lacks could not be read; the launch can still be confirmed or cancelled.',
              on: { 'change.confirm': '#networkChange.running.launching' },
            },
          },
        },
        withdraw: {
          description: 'Asking to confirm withdrawing the network, saying what withdrawing does (issue 28).',
          on: { 'change.confirm': '#networkChange.running.withdrawing' },
        },
        copy: {
          description: 'Asking to confirm copying brand or settings from the default network, with what the copy would change.',
          initial: 'comparing',
          on: { 'change.confirm': '#networkChange.running.copying' },
          states: {
            comparing: {
              description: 'Reading what the copy would change: each field whose value differs from the default network\'s.',
              invoke: {
                id: 'previewCopy',
                src: 'previewCopy',
                input: previewInput,
                onDone: { target: 'compared', actions: { type: 'storeCopyPreview', params: ({ event }) => ({ changes: event.output }) } },
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
      },
    },
    running: {
      description: 'The change is being made, as one request the snackbar can Undo; the operator\'s answers wait for it.',
      // Entered at the kind's own request (its confirm); xstate asks for an initial all the same.
      initial: 'launching',
      states: {
        launching: {
          description: 'Publishing the network (networkPublish).',
          invoke: {
            id: 'publishNetwork',
            src: 'publishNetwork',
            input: changeInput,
            onDone: {
              target: '#networkChange.done',
              actions: { type: 'succeed', params: ({ context }) => ({ message: { text: MESSAGES.launched(context.change.name), severity: 'success' }, copied: null }) },
            },
            onError: [
              { guard: { type: 'isCredentialsMissing', params: ({ event }) => ({ error: event.error }) }, target: '#networkChange.failed', actions: { type: 'fail', params: { message: credentialsMissing } } },
              { target: '#networkChange.failed', actions: { type: 'fail', params: ({ context }) => ({ message: { text: MESSAGES.failedToLaunch(context.change.name), severity: 'error' } }) } },
            ],
          },
        },
        withdrawing: {
          description: 'Withdrawing the network (POST /v2.0/appcms/withdraw): not launched any more, audited.',
          invoke: {
            id: 'withdrawNetwork',
            src: 'withdrawNetwork',
            input: changeInput,
            onDone: {
              target: '#networkChange.done',
              actions: { type: 'succeed', params: ({ context }) => ({ message: { text: OWN_MESSAGES.networkWithdrawn(context.change.name), severity: 'success' }, copied: null }) },
            },
            onError: [
              { guard: { type: 'isCredentialsMissing', params: ({ event }) => ({ error: event.error }) }, target: '#networkChange.failed', actions: { type: 'fail', params: { message: credentialsMissing } } },
              {
                target: '#networkChange.failed',
                actions: {
                  type: 'fail',
                  params: ({ context, event }) => ({
                    message: { text: `${OWN_MESSAGES.networkWithdrawFailed(context.change.name)} ${networkErrorMessage(event.error)}`, severity: 'error' },
                  }),
                },
              },
            ],
          },
        },
        copying: {
          description: 'Copying from the default network in one server transaction (networkCopyFromDefault).',
          invoke: {
            id: 'copyFromDefault',
            src: 'copyFromDefault',
            input: copyInput,
            onDone: {
              target: '#networkChange.done',
              actions: { type: 'succeed', params: ({ context, event }) => ({ message: { text: copiedText(context), severity: 'success' }, copied: event.output }) },
            },
            onError: [
              { guard: { type: 'isCredentialsMissing', params: ({ event }) => ({ error: event.error }) }, target: '#networkChange.failed', actions: { type: 'fail', params: { message: credentialsMissing } } },
              { target: '#networkChange.failed', actions: { type: 'fail', params: ({ event }) => ({ message: { text: networkErrorMessage(event.error), severity: 'error' } }) } },
            ],
          },
        },
      },
    },
    done: {
      description: 'The change was made; its message and its Undo go to the `network` actor.',
      type: 'final',
    },
    failed: {
      description: 'The server refused the change or could not be reached; the message says which.',
      type: 'final',
    },
    cancelled: {
      description: 'The operator cancelled; nothing changed.',
      type: 'final',
    },
  },
});

export type NetworkChangeMachine = typeof networkChangeMachine;
export type NetworkChangeRef = ActorRefFrom<NetworkChangeMachine>;
export type NetworkChangeSnapshot = SnapshotFrom<NetworkChangeMachine>;

/** The change is being made (its request is out). */
export const selectChangeRunning = (s: NetworkChangeSnapshot | undefined): boolean => s?.matches('running') === true;
/** The operator is being asked. */
export const selectChangeAsking = (s: NetworkChangeSnapshot | undefined): boolean => s?.matches('confirming') === true;

/** What the network to launch lacks: still being checked, checked (the gaps, maybe none), or not readable. */
export const selectChangeReadiness = (s: NetworkChangeSnapshot | undefined):
  { phase: 'checking' } | { phase: 'checked'; gaps: LaunchGap[] } | { phase: 'failed' } | null => {
  if (!s) return null;
  if (s.matches({ confirming: { launch: 'checking' } })) return { phase: 'checking' };
  if (s.matches({ confirming: { launch: 'checked' } })) return { phase: 'checked', gaps: s.context.launchGaps ?? [] };
  if (s.matches({ confirming: { launch: 'checkFailed' } })) return { phase: 'failed' };
  return null;
};

/** What the copy would change: still being read, read (the fields), or not readable. */
export const selectChangeCopyPreview = (s: NetworkChangeSnapshot | undefined):
  { phase: 'comparing' } | { phase: 'compared'; changes: DiffEntry[] } | { phase: 'failed' } | null => {
  if (!s) return null;
  if (s.matches({ confirming: { copy: 'comparing' } })) return { phase: 'comparing' };
  if (s.matches({ confirming: { copy: 'compared' } })) return { phase: 'compared', changes: s.context.copyPreview ?? [] };
  if (s.matches({ confirming: { copy: 'compareFailed' } })) return { phase: 'failed' };
  return null;
};
