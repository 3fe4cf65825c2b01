/** The list page's `editor` region: the editor of one record beside the list, or none (assembled in ./list-page.machine.ts). */
import { listPageSetup } from './list-page.actions';

export const editorState = listPageSetup.createStateConfig({
  description: 'The editor of one record beside the list, or none.',
  initial: 'closed',
  states: {
    closed: {
      description: 'Only the list is shown; a row or New opens the editor. A page shown with a record (or always having one) opens it at once.',
      always: { guard: 'hasOpenRecord', target: 'open' },
      on: {
        'page.open': { target: 'open', actions: { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) } },
      },
    },
    open: {
      description: 'The editor of one record is beside the list. Another record opens a fresh editor; the one already open is left as it is.',
      tags: ['editing'],
      invoke: { id: 'editor', src: 'editor', input: ({ context }) => ({ id: context.openId! }) },
      on: {
        'page.open': [
          { guard: { type: 'isOpenOn', params: ({ event }) => ({ id: event.id }) } },
          { target: 'open', reenter: true, actions: { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) } },
        ],
        'page.close': [
          { guard: 'keepsEditor' },
          { target: 'closed', actions: { type: 'setOpenId', params: { id: null } } },
        ],
        'editor.saved': { actions: 'reloadList' },
        'history.restored': {
          target: 'open', reenter: true,
          actions: [{ type: 'storeHistoryNotice', params: ({ event }) => ({ restored: event.restored ?? null }) }, 'reloadList'],
        },
        'history.stale': { target: 'open', reenter: true, actions: 'clearHistoryNotice' },
        'editor.created': {
          actions: [
            { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) },
            { type: 'openCreated', params: ({ event }) => ({ id: event.id }) },
          ],
        },
        'editor.left': [
          { guard: 'keepsEditor', target: 'open', reenter: true },
          { target: 'closed', actions: [{ type: 'setOpenId', params: { id: null } }, 'closeEditor'] },
        ],
      },
      initial: 'choosing',
      states: {
        choosing: {
          description: 'Whether the open record shows its History beside the editor.',
          always: [{ guard: 'showsHistory', target: 'withHistory' }, { target: 'withoutHistory' }],
        },
        withHistory: {
          description: 'The record\'s History is beside its editor; a save reads it again.',
          invoke: {
            id: 'history', src: 'history',
            input: ({ context }) => ({ kind: context.history!, objectId: context.openId!, restored: context.historyNotice }),
          },
          on: { 'editor.saved': { actions: ['reloadList', 'reloadHistory'] } },
        },
        withoutHistory: {
          description: 'No History: the page shows none, or the record is a new one (once created, its History starts).',
          on: {
            'editor.created': {
              target: 'choosing',
              actions: [
                { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) },
                { type: 'openCreated', params: ({ event }) => ({ id: event.id }) },
              ],
            },
          },
        },
      },
    },
  },
});
