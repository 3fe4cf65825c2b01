/** The list page's `rowHistory` region: the History of one row without an editor, or none (assembled in ./list-page.machine.ts). */
import { listPageSetup } from './list-page.actions';

export const rowHistoryState = listPageSetup.createStateConfig({
  description: 'The History of one row without an editor (a page naming its revision kind), beside the list, or none.',
  initial: 'hidden',
  states: {
    hidden: {
      description: 'No row\'s History is shown. A page shown with one (the address\'s ?history=) shows it at once.',
      always: { guard: 'showsRowHistory', target: 'shown' },
      on: {
        'page.history': { guard: 'hasHistoryKind', target: 'shown', actions: { type: 'setHistoryOf', params: ({ event }) => ({ id: event.id }) } },
      },
    },
    shown: {
      description: 'One row\'s History is beside the list. Another row shows its own afresh; a row action reads it again (a Disable is a revision); a restore reloads the rows and shows it afresh.',
      tags: ['rowHistory'],
      invoke: {
        id: 'rowHistory', src: 'rowHistory',
        input: ({ context }) => ({ kind: context.history!, objectId: context.historyOf!, restored: context.rowHistoryNotice }),
      },
      on: {
        'page.history': [
          { guard: { type: 'isHistoryOf', params: ({ event }) => ({ id: event.id }) } },
          { target: 'shown', reenter: true, actions: { type: 'setHistoryOf', params: ({ event }) => ({ id: event.id }) } },
        ],
        'page.closeHistory': { target: 'hidden', actions: { type: 'setHistoryOf', params: { id: null } } },
        // Taken instead of the page's own (one reload of the rows, not two).
        'action.performed': { actions: ['reloadList', 'reloadRowHistory'] },
        'rowHistory.restored': {
          target: 'shown', reenter: true,
          actions: [{ type: 'storeRowHistoryNotice', params: ({ event }) => ({ restored: event.restored ?? null }) }, 'reloadList'],
        },
        'rowHistory.stale': { target: 'shown', reenter: true, actions: ['clearRowHistoryNotice', 'reloadList'] },
      },
    },
  },
});
