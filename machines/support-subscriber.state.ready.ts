/** The subscriber machine's `ready` state: the page shown, and the support action under way (assembled in ./support-subscriber.machine.ts). */
import type { NotifyParams } from './notify';
import { commandOf } from './support-subscriber.rules';
import { subscriberSetup } from './support-subscriber.actions';

export const readyState = subscriberSetup.createStateConfig({
  description: 'The subscriber page is shown.',
  initial: 'idle',
  on: {
    'contact.hide': { actions: 'hideContact' },
    'undo.done': { target: 'loading', actions: ['forgetUndo', 'tellAllChanged'] },
  },
  states: {
    idle: {
      description: 'No action under way.',
      on: {
        'action.start': {
          guard: { type: 'mayStart', params: ({ event }) => ({ request: event.request }) },
          target: 'confirming',
          actions: { type: 'openDraft', params: ({ event }) => ({ request: event.request }) },
        },
      },
    },
    confirming: {
      description: 'The confirmation is open: the agent gives a reason (and the mode, days or note text).',
      on: {
        'action.reason': { actions: { type: 'editDraft', params: ({ event }) => ({ reason: event.value }) } },
        'action.mode': { actions: { type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) } },
        'action.days': { actions: { type: 'editDraft', params: ({ event }) => ({ days: event.value }) } },
        'action.note': { actions: { type: 'editDraft', params: ({ event }) => ({ note: event.value }) } },
        'action.plan': { actions: { type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) } },
        'action.when': { actions: { type: 'editDraft', params: ({ event }) => ({ when: event.when }) } },
        'action.amount': { actions: { type: 'editDraft', params: ({ event }) => ({ amount: event.value }) } },
        'action.confirm': { guard: 'isComplete', target: 'running' },
        'action.cancel': { target: 'idle', actions: 'closeDraft' },
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
        'action.reason': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ reason: event.value }) } },
        'action.mode': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) } },
        'action.days': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ days: event.value }) } },
        'action.note': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ note: event.value }) } },
        'action.plan': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) } },
        'action.when': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ when: event.when }) } },
        'action.amount': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ amount: event.value }) } },
        'action.confirm': { guard: 'isComplete', target: 'running' },
        'action.cancel': { target: 'idle', actions: 'closeDraft' },
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
