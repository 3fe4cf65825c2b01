/**
 * The subscriber machine's setup (machines/support-subscriber.machine.ts assembles it with its states): its
 * types, the `loadSubscriber` and `runAction` actors (src/adapters/support-actors.ts), the History
 * disclosure it spawns per object, and the guards by name. The actions are added in
 * ./support-subscriber.actions.ts.
 */
import { fromPromise, setup } from 'xstate';
import type { SubscriberDetail } from '../common/support';
import { errorCodeOf } from './error-code';
import { historyDisclosureMachine } from './history-disclosure.machine';
import { machineTypes } from './machine-types';
import { supportGuardsLeaving } from './support-subscriber-leaving';
import {
  commandOf, targetVersionOf,
  type ActionCommand, type ActionOutcome, type ActionRequest, type SubscriberContext, type SubscriberEvent, type SubscriberMachineInput, type SupportDraft,
} from './support-subscriber.rules';
import { providedLater } from './unprovided';

/** The error code the GraphQL client reports for a stale version. */
const CONFLICT_CODE = 'CONFLICT';
/** Codes of a subscriber id that names nobody: unknown (or another site's), or not an id at all. */
const NOT_FOUND_CODES: readonly unknown[] = ['NOT_FOUND', 'BAD_USER_INPUT'];

export const subscriberBase = setup({
  types: machineTypes<{ context: SubscriberContext; events: SubscriberEvent; input: SubscriberMachineInput }>(),
  actors: {
    /** GraphQL subscriber(id). */
    loadSubscriber: providedLater<SubscriberDetail, { subscriberId: string }>('loadSubscriber'),
    /** The GraphQL mutation of the command. */
    runAction: providedLater<ActionOutcome, ActionCommand>('runAction'),
    /** The action typed before a reload (issue 38; the wiring's reads the tab's draft store). None unless provided. */
    readActionDraft: fromPromise<SupportDraft | null, { subscriberId: string }>(async () => null),
    /** One object's History behind a disclosure (its `history` logic: the wiring's). */
    historyDisclosure: historyDisclosureMachine,
  },
  guards: {
    mayStart: ({ context }, params: { request: ActionRequest }) => params.request.kind === 'revealContact' || context.canAct,
    /** Something was typed into the open action since it opened (issue 38): leaving asks first. */
    isTyped: ({ context }) => supportGuardsLeaving({ context }),
    hasActionError: ({ context }) => context.actionError !== null,
    /**
     * The draft kept before a reload opens its action again (issue 38): the agent may start it and its object
     * is shown at the version it was typed on (an object changed since opens as stored).
     */
    reopensDraft: ({ context }) => {
      const kept = context.keptDraft;
      return kept !== null && (kept.request.kind === 'revealContact' || context.canAct) && targetVersionOf(context.detail, kept.request) === kept.version;
    },
    hasKeptDraft: ({ context }) => context.keptDraft !== null,
    isComplete: ({ context }) => commandOf(context) !== null,
    isConflict: (_, params: { error: unknown }) => errorCodeOf(params.error) === CONFLICT_CODE,
    isNotFound: (_, params: { error: unknown }) => NOT_FOUND_CODES.includes(errorCodeOf(params.error)),
  },
});
