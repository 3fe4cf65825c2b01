/**
 * The `network` machine's `networks` region: load the site's networks, choose one, and launch,
 * withdraw or copy brand/settings onto the current one (each asked and made by the `change` child).
 */
import {
  alreadyLaunchedMessage, credentialsMissingMessage, fetchFailedMessage, isDefaultMessage, noSelectionMessage, notLaunchedMessage,
  readOnlyMessage, savedNetworkNotFoundMessage, siteNotFoundMessage, unknownSelectionMessage,
} from './network.messages';
import type { NetworkChangeOutcome } from './network-change.machine';
import { changeInputOf, networkSetup } from './network.setup';

/** The site and role a `network.siteChanged` reports. */
const siteOf = ({ event }: { event: { site: string | null; canWrite?: boolean } }) => ({ site: event.site, canWrite: event.canWrite === true });

/** The refusals every change of the current network passes first (spec §5; issue 20). */
const refusals = [
  { guard: 'lacksWriteRole', actions: [{ type: 'setMessage', params: readOnlyMessage }, 'postMessage'] },
  { guard: 'lacksSite', actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'] },
  { guard: 'lacksCurrentNetwork', actions: [{ type: 'setMessage', params: noSelectionMessage }, 'postMessage'] },
  { guard: 'currentIsDefault', actions: [{ type: 'setMessage', params: isDefaultMessage }, 'postMessage'] },
] as const;

/** The `change` child's done event, as the actions after it read it. */
type ChangeEnded = { event: { output: NetworkChangeOutcome } };

/** After any change made: its message shown, its Undo offered beside the networks (issue 38). */
const madeChange = [
  { type: 'setChangeMessage', params: ({ event }: ChangeEnded) => ({ outcome: event.output }) },
  'postMessage',
  { type: 'keepLastChange', params: ({ event }: ChangeEnded) => ({ change: event.output.lastChange }) },
  'clearPending',
] as const;

const ready = networkSetup.createStateConfig({
  description: 'Networks known (possibly none): the operator may choose one and change the current one.',
  initial: 'idle',
  on: {
    'network.select': [
      {
        guard: { type: 'isUnknownNetwork', params: ({ event }) => ({ identifier: event.identifier }) },
        actions: [{ type: 'setMessage', params: ({ event }) => unknownSelectionMessage(event.identifier) }, 'postMessage', 'clearSelection', 'forgetSelectedNetwork'],
      },
      {
        guard: { type: 'isNonDefaultWithoutSite', params: ({ event }) => ({ identifier: event.identifier }) },
        actions: [{ type: 'setMessage', params: siteNotFoundMessage }, 'postMessage'],
      },
      { actions: [{ type: 'selectNetwork', params: ({ event }) => ({ identifier: event.identifier }) }, 'saveSelectedNetwork', 'readViewed'] },
    ],
  },
  states: {
    idle: {
      description: 'Nothing in progress.',
      on: {
        'network.launch': [
          ...refusals,
          { guard: 'currentIsLaunched', actions: [{ type: 'setMessage', params: alreadyLaunchedMessage }, 'postMessage'] },
          { target: 'changing', actions: 'prepareLaunch' },
        ],
        'network.withdraw': [
          ...refusals,
          { guard: 'currentIsNotLaunched', actions: [{ type: 'setMessage', params: notLaunchedMessage }, 'postMessage'] },
          { target: 'changing', actions: 'prepareWithdraw' },
        ],
        'network.copy': [
          ...refusals,
          { target: 'changing', actions: { type: 'prepareCopy', params: ({ event }) => ({ what: event.what }) } },
        ],
        // Also raised on start-up (see `networks`).
        'network.reload': { guard: 'hasSite', target: '#network.networks.loading' },
      },
    },
    changing: {
      description: 'The `change` child asks the operator about the launch, withdrawal or copy (with what it lacks or would change), then makes it.',
      entry: 'openChange',
      invoke: {
        id: 'change',
        src: 'change',
        input: ({ context }) => changeInputOf(context),
        onDone: [
          {
            guard: { type: 'changeEnded', params: ({ event }) => ({ outcome: event.output.outcome, expected: 'cancelled' }) },
            target: 'idle',
            actions: 'clearPending',
          },
          {
            guard: { type: 'changeEnded', params: ({ event }) => ({ outcome: event.output.outcome, expected: 'failed' }) },
            target: 'idle',
            actions: [{ type: 'setChangeMessage', params: ({ event }) => ({ outcome: event.output }) }, 'postMessage', 'clearPending'],
          },
          {
            guard: { type: 'pendingIs', params: { kind: 'launch' } },
            target: 'idle',
            actions: [{ type: 'markActive', params: { isActive: true } }, ...madeChange],
          },
          {
            guard: { type: 'pendingIs', params: { kind: 'withdraw' } },
            target: 'idle',
            actions: [{ type: 'markActive', params: { isActive: false } }, ...madeChange],
          },
          {
            target: 'idle',
            actions: [
              { type: 'storeCopiedNetwork', params: ({ event }) => ({ copied: event.output.copied }) }, 'markSynced', 'invalidateNetworkData', 'readViewed', ...madeChange,
            ],
          },
        ],
      },
      on: {
        // A copy clears the last copy's success as it starts (a launch or withdrawal leaves it).
        'network.confirm': [
          { guard: { type: 'pendingIs', params: { kind: 'copy' } }, actions: ['clearSyncSuccess', 'confirmChange'] },
          { actions: 'confirmChange' },
        ],
        'network.cancel': { actions: 'cancelChange' },
      },
    },
  },
});

export const networksState = networkSetup.createStateConfig({
  description: 'The site\'s networks, the current one and the changes made to it.',
  // Start-up: the region rests in `ready` and asks for its networks at once (same macrostep):
  // `network.reload` fetches them only for a known site, so without one it stays in `ready`.
  initial: 'ready',
  entry: 'reload',
  on: {
    'network.siteChanged': [
      {
        guard: { type: 'sameSiteLosesWriteRole', params: siteOf },
        actions: [{ type: 'storeWriteRole', params: ({ event }) => ({ canWrite: event.canWrite === true }) }, 'forgetLastChange'],
      },
      {
        guard: { type: 'isSameSite', params: ({ event }) => ({ site: event.site }) },
        actions: { type: 'storeWriteRole', params: ({ event }) => ({ canWrite: event.canWrite === true }) },
      },
      // Signing in (or restoring a session) keeps the choice saved for this browser tab.
      {
        guard: { type: 'siteArrived', params: ({ event }) => ({ site: event.site }) },
        target: '.loading',
        actions: [{ type: 'storeSite', params: siteOf }, 'forgetLastChange', 'invalidateNetworkData', 'readViewed'],
      },
      // Another site's networks have other identifiers: the saved choice no longer applies.
      {
        guard: { type: 'siteReplaced', params: ({ event }) => ({ site: event.site }) },
        target: '.loading',
        actions: [{ type: 'storeSite', params: siteOf }, 'clearSelection', 'forgetSelectedNetwork', 'forgetLastChange', 'invalidateNetworkData', 'readViewed'],
      },
      // The site is gone (signed out): changes are refused with 'Site not found' until one arrives.
      { target: '.ready', actions: [{ type: 'storeSite', params: siteOf }, 'forgetLastChange', 'invalidateNetworkData', 'readViewed'] },
    ],
  },
  states: {
    loading: {
      description: 'Fetching the site and its networks (serviceGet). A network chosen meanwhile (an address with ?network= opened cold) is kept and checked once they arrive.',
      on: {
        'network.select': { actions: [{ type: 'selectNetwork', params: ({ event }) => ({ identifier: event.identifier }) }, 'saveSelectedNetwork'] },
      },
      invoke: {
        id: 'fetchService',
        src: 'fetchService',
        input: ({ context }) => ({ site: context.site ?? '' }),
        onDone: [
          {
            guard: { type: 'savedNetworkUnknown', params: ({ event }) => ({ service: event.output }) },
            target: 'ready',
            actions: [
              { type: 'storeService', params: ({ event }) => ({ service: event.output }) },
              { type: 'setMessage', params: savedNetworkNotFoundMessage }, 'postMessage', 'clearSelection', 'forgetSelectedNetwork', 'readViewed',
            ],
          },
          { target: 'ready', actions: [{ type: 'storeService', params: ({ event }) => ({ service: event.output }) }, 'readViewed'] },
        ],
        onError: [
          {
            guard: { type: 'isCredentialsMissing', params: ({ event }) => ({ error: event.error }) },
            target: 'ready',
            actions: [{ type: 'setMessage', params: credentialsMissingMessage }, 'postMessage'],
          },
          { target: 'ready', actions: [{ type: 'setMessage', params: fetchFailedMessage }, 'postMessage'] },
        ],
      },
    },
    ready,
  },
});
