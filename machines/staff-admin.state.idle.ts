/** The Staff page's `idle` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';
import { memberOf } from './staff-admin.setup';

export const idleState = staffAdminSetup.createStateConfig({
  description: 'The table is shown (or being read); waiting for the operator: open the form, a confirmation or the sessions.',
  on: {
    // A staff draft kept across a reload (issue 38) reopens its dialog once the list says it fits
    // (raised after each list answer and after the draft was read).
    'staff.reopenDraft': { guard: 'reopensDraft', target: 'editor', actions: 'openKeptDraft' },
    'staff.create': { guard: 'canEdit', target: 'editor', actions: { type: 'openDialog', params: { member: null } } },
    'staff.edit': {
      guard: { type: 'canEditListed', params: ({ event }) => ({ id: event.id }) },
      target: 'editor',
      actions: { type: 'openDialog', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
    },
    'staff.confirm': {
      guard: { type: 'canActOnListed', params: ({ event }) => ({ id: event.id, kind: event.kind }) },
      target: 'confirming',
      actions: { type: 'preparePending', params: ({ context, event }) => ({ kind: event.kind, member: memberOf(context, event.id)! }) },
    },
    'site.secondFactor': {
      guard: { type: 'changesSecondFactor', params: ({ event }) => ({ rule: event.rule }) },
      target: 'confirming',
      actions: { type: 'prepareSecondFactor', params: ({ context, event }) => ({ rule: event.rule, state: context.access!.secondFactor }) },
    },
    'staff.sessions': {
      guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
      target: 'sessions',
      actions: { type: 'openSessions', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
    },
    'staff.history': {
      guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
      target: 'history',
      actions: { type: 'openHistory', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
    },
  },
});
