/** The subscriber machine's `ready` state: the page shown, and the support action under way (assembled in ./support-subscriber.machine.ts). */
import type { NotifyParams } from './notify';
import { commandOf, supportDraftOf, type SubscriberContext } from './support-subscriber.rules';
import { subscriberSetup } from './support-subscriber.actions';

/** The draft of the form as it is now (after the edit just assigned), for `keepDraft`. */
const keptNow = ({ context }: { context: SubscriberContext }) => ({ subscriberId: context.subscriberId, draft: supportDraftOf(context) });
const ofSubscriber = ({ context }: { context: SubscriberContext }) => ({ subscriberId: context.subscriberId });

export const readyState = subscriberSetup.createStateConfig({
  description: 'The subscriber page is shown.',
  initial: 'idle',
  on: {
    'contact.hide': { actions: 'hideContact' },
    // An open action's typed input waits for the re-read (reopened over the version it was typed on).
    'undo.done': { target: 'loading', actions: ['forgetUndo', 'tellAllChanged', 'shelveDraft'] },
  },
  states: {
    idle: {
      description: 'No action under way; a draft kept before a reload opens its action again once its object is shown unchanged.',
      on: {
        // Raised once both the subscriber and the kept draft are read (whichever comes last).
        'draft.settle': [
          { guard: 'reopensDraft', target: 'confirming', actions: 'reopenDraft' },
          // Its object changed (or went) since it was typed: it opens as stored, and the draft is dropped.
          { guard: 'hasKeptDraft', actions: ['dropKeptDraft', { type: 'forgetDraft', params: ofSubscriber }] },
        ],
        'action.start': {
          guard: { type: 'mayStart', params: ({ event }) => ({ request: event.request }) },
          target: 'confirming',
          actions: { type: 'openDraft', params: ({ event }) => ({ request: event.request }) },
        },
      },
    },
    confirming: {
      description: 'The confirmation is open: the agent gives a reason (and the mode, days or note text); each edit is kept as the tab\'s draft.',
      on: {
        'action.reason': { actions: [{ type: 'editDraft', params: ({ event }) => ({ reason: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.mode': { actions: [{ type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) }, { type: 'keepDraft', params: keptNow }] },
        'action.days': { actions: [{ type: 'editDraft', params: ({ event }) => ({ days: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.note': { actions: [{ type: 'editDraft', params: ({ event }) => ({ note: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.plan': { actions: [{ type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) }, { type: 'keepDraft', params: keptNow }] },
        'action.when': { actions: [{ type: 'editDraft', params: ({ event }) => ({ when: event.when }) }, { type: 'keepDraft', params: keptNow }] },
        'action.amount': { actions: [{ type: 'editDraft', params: ({ event }) => ({ amount: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.confirm': { guard: 'isComplete', target: 'running' },
        'action.cancel': [
          { guard: 'isTyped', target: 'confirmingLeave' },
          { target: 'idle', actions: ['closeDraft', { type: 'forgetDraft', params: ofSubscriber }] },
        ],
        'action.navigate': { guard: 'isTyped', target: 'confirmingLeave' },
      },
    },
    confirmingLeave: {
      description: 'Typed input would be lost (Go back, Escape or a navigation away): the page asks first (Stay or Leave).',
      on: {
        'action.stay': [{ guard: 'hasActionError', target: 'failed' }, { target: 'confirming' }],
        'action.leave': { target: 'idle', actions: ['closeDraft', { type: 'forgetDraft', params: ofSubscriber }] },
      },
    },
    running: {
      description: 'The action is with the server; the confirmation shows it busy.',
      entry: 'nameChange',
      invoke: {
        id: 'runAction',
        src: 'runAction',
        // isComplete let us in, so the command exists.
        input: ({ context }) => commandOf(context)!,
        onDone: {
          target: 'done',
          // The done message is worded from the command as sent, before the answer changes the detail it reads
          // (after a refund, what is left of the payment is less than the amount that was refunded).
          actions: [
            // Before markDone clears the draft the command is made of.
            'tellChanged',
            'markDone',
            { type: 'forgetDraft', params: ofSubscriber },
            { type: 'applyOutcome', params: ({ event }) => ({ outcome: event.output }) },
            'spawnDisclosures',
            {
              type: 'notify',
              params: ({ context }): NotifyParams => ({ message: context.lastDone ?? '', severity: 'success', ...(context.undoOffer ? { undo: context.undoOffer } : {}) }),
            },
          ],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'refreshing',
            actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'failed', actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    refreshing: {
      description: 'Someone else changed the subscriber: the latest data is read before the agent tries again.',
      invoke: {
        id: 'refreshSubscriber',
        src: 'loadSubscriber',
        input: ({ context }) => ({ subscriberId: context.subscriberId }),
        onDone: { target: 'failed', actions: [{ type: 'setDetail', params: ({ event }) => ({ detail: event.output }) }, 'spawnDisclosures', 'tellAllChanged'] },
        onError: { target: 'failed' },
      },
    },
    failed: {
      description: 'The action failed; the confirmation stays open with the message until the agent edits, retries or cancels.',
      on: {
        'action.reason': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ reason: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.mode': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) }, { type: 'keepDraft', params: keptNow }] },
        'action.days': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ days: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.note': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ note: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.plan': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) }, { type: 'keepDraft', params: keptNow }] },
        'action.when': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ when: event.when }) }, { type: 'keepDraft', params: keptNow }] },
        'action.amount': { target: 'confirming', actions: [{ type: 'editDraft', params: ({ event }) => ({ amount: event.value }) }, { type: 'keepDraft', params: keptNow }] },
        'action.confirm': { guard: 'isComplete', target: 'running' },
        // A failed action always holds typed input (none is complete without it): leaving asks first.
        'action.cancel': { target: 'confirmingLeave' },
        'action.navigate': { target: 'confirmingLeave' },
      },
    },
    done: {
      description: 'The action went through; its outcome is shown on the page.',
      on: {
        'action.start': {
          guard: { type: 'mayStart', params: ({ event }) => ({ request: event.request }) },
          target: 'confirming',
          actions: { type: 'openDraft', params: ({ event }) => ({ request: event.request }) },
        },
      },
    },
  },
});
