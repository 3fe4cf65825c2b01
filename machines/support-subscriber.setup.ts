/**
 * The subscriber machine's setup (machines/support-subscriber.machine.ts assembles it with its states): its
 * types, the `loadSubscriber` and `runAction` actors (src/adapters/support-actors.ts), the History
 * disclosure it spawns per object, and the guards by name. The actions are added in
 * ./support-subscriber.actions.ts.
 */
import { setup } from 'xstate';
import type { SubscriberDetail } from '../common/support';
import { errorCodeOf } from './error-code';
import { historyDisclosureMachine } from './history-disclosure.machine';
import { typed } from './setup-types';
import {
  commandOf,
  type ActionCommand, type ActionOutcome, type ActionRequest, type SubscriberContext, type SubscriberEvent, type SubscriberMachineInput,
} from './support-subscriber.rules';
import { providedLater } from './unprovided';

/** The error code the GraphQL client reports for a stale version. */
const CONFLICT_CODE = 'CONFLICT';
/** Codes of a subscriber id that names nobody: unknown (or another site's), or not an id at all. */
const NOT_FOUND_CODES: readonly unknown[] = ['NOT_FOUND', 'BAD_USER_INPUT'];

export const subscriberBase = setup({
  types: {
    context: typed<SubscriberContext>(),
    events: typed<SubscriberEvent>(),
    input: typed<SubscriberMachineInput>(),
  },
  actors: {
    /** GraphQL subscriber(id). */
    loadSubscriber: providedLater<SubscriberDetail, { subscriberId: string }>('loadSubscriber'),
    /** The GraphQL mutation of the command. */
    runAction: providedLater<ActionOutcome, ActionCommand>('runAction'),
    /** One object's History behind a disclosure (its `history` logic: the wiring's). */
    historyDisclosure: historyDisclosureMachine,
  },
  guards: {
    mayStart: ({ context }, params: { request: ActionRequest }) => params.request.kind === 'revealContact' || context.canAct,
    isComplete: ({ context }) => commandOf(context) !== null,
    isConflict: (_, params: { error: unknown }) => errorCodeOf(params.error) === CONFLICT_CODE,
    isNotFound: (_, params: { error: unknown }) => NOT_FOUND_CODES.includes(errorCodeOf(params.error)),
  },
});
