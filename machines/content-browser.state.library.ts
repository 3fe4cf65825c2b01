/** The content browser's `library` state: the library page, its list, selection and bulk changes (assembled in ./content-browser.machine.ts). */
import { OWN_MESSAGES } from '../common/messages';
import { bulkDoneText, bulkUndoLabel, CONTENT_PAGE_SIZE } from './content-browser.setup';
import { failureMessage } from './notify';
import { contentBrowserSetup } from './content-browser.actions';

export const libraryState = contentBrowserSetup.createStateConfig({
  description: 'The library page is shown, with the lasting Undo of its last bulk change (issue 38) while it is.',
  initial: 'loading',
  // Lives as long as the library is shown: leaving the page forgets the offer.
  invoke: { id: 'lastBulk', src: 'lastBulk' },
  on: {
    'list.tab': {
      guard: { type: 'isValidTab', params: ({ event }) => ({ index: event.index }) },
      target: '.loading', reenter: true,
      actions: ['pushUrl', { type: 'chooseTab', params: ({ event }) => ({ index: event.index }) }],
    },
    'list.search': { target: '.debouncing', reenter: true, actions: ['replaceUrl', { type: 'setKeyword', params: ({ event }) => ({ keyword: event.keyword }) }] },
    'list.status': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setStatusFilter', params: ({ event }) => ({ status: event.status }) }] },
    'list.sort': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setSort', params: ({ event }) => ({ sort: event.sort }) }] },
    'list.page': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setStart', params: ({ event }) => ({ start: event.start }) }] },
    'list.clearFilters': { guard: 'hasFilters', target: '.loading', reenter: true, actions: ['pushUrl', 'clearFilters'] },
    'undo.done': { target: '.loading', reenter: true, actions: 'clearSelection' },
  },
  states: {
    debouncing: {
      description: 'The keyword is being typed: the list is asked for once typing pauses.',
      after: { searchDebounce: 'loading' },
    },
    loading: {
      description: 'Asking for one page of the list with the current kind, keyword, status, sort and start (written as the address first).',
      entry: 'writeUrl',
      invoke: {
        id: 'loadList',
        src: 'loadList',
        input: ({ context }) => ({
          mediaType: context.kind,
          q: context.keyword.trim(),
          status: context.status,
          sort: context.sort,
          start: context.start,
          limit: CONTENT_PAGE_SIZE,
        }),
        onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => ({ list: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.contentLoadFailed) }) } },
      },
    },
    ready: {
      description: 'The page of the list is shown; rows may be selected for a bulk status change.',
      on: {
        'list.select': { actions: { type: 'toggleRow', params: ({ event }) => ({ id: event.id, selected: event.selected }) } },
        'list.selectPage': { actions: { type: 'togglePage', params: ({ event }) => ({ selected: event.selected }) } },
        'list.selectAllMatching': { guard: 'canSelectAllMatching', actions: 'selectAllMatching' },
        'list.bulk': { guard: 'hasSelection', target: 'confirming', actions: { type: 'setPendingBulk', params: ({ event }) => ({ status: event.status }) } },
      },
    },
    confirming: {
      description: 'The bulk action waits for the operator: the dialog names what it will do and to how many items.',
      on: {
        'list.confirm': [
          { guard: 'isAllMatching', target: 'bulkMatching' },
          { target: 'bulkSaving' },
        ],
        'list.cancel': { target: 'ready', actions: 'clearPendingBulk' },
      },
    },
    bulkMatching: {
      description: 'Setting one status on every item the filters match (the server applies it to the filter, refusing if the count changed).',
      invoke: {
        id: 'bulkMatching',
        src: 'bulkMatching',
        input: ({ context }) => ({
          status: context.pendingBulk ?? 'unpublished',
          expected: context.list?.total ?? 0,
          mediaType: context.kind,
          q: context.keyword.trim(),
          filterStatus: context.status,
        }),
        onDone: {
          target: 'loading',
          actions: ['clearSelection', {
            type: 'notify',
            params: ({ event }) => ({ message: bulkDoneText(event.output), severity: 'success' as const }),
          }],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: ['clearSelection', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.contentBulkConflict), severity: 'warning' as const }) }],
          },
          {
            target: 'ready',
            actions: ['clearPendingBulk', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) }],
          },
        ],
      },
    },
    failed: {
      description: 'The list could not be loaded; the message is shown with a way to try again.',
      on: { 'list.retry': { target: 'loading', actions: 'clearError' } },
    },
    bulkSaving: {
      description: 'Setting one status on every selected row (each with the version it was listed at), as one request the snackbar can Undo.',
      entry: 'nameBulkRequest',
      invoke: {
        id: 'bulkStatus',
        src: 'bulkStatus',
        input: ({ context }) => ({
          status: context.pendingBulk ?? 'unpublished',
          items: (context.list?.items ?? []).filter((item) => context.selected.includes(item.id)).map((item) => ({ id: item.id, version: item.version })),
          ...(context.bulkRequestId ? { requestId: context.bulkRequestId } : {}),
        }),
        onDone: {
          target: 'loading',
          actions: [
            // The snackbar keeps its message; the Undo lasts on the page (issue 38), not 8 s in the message.
            {
              type: 'keepLastBulk',
              params: ({ context, event }) => ({
                change: { requestId: context.bulkRequestId ?? '', label: bulkUndoLabel(context.pendingBulk ?? 'unpublished', event.output), replyTo: 'contentBrowser' },
              }),
            },
            'clearSelection',
            { type: 'notify', params: ({ event }) => ({ message: bulkDoneText(event.output), severity: 'success' as const }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: ['clearSelection', { type: 'notify', params: { message: OWN_MESSAGES.contentBulkConflict, severity: 'warning' } }],
          },
          {
            target: 'ready',
            actions: ['clearPendingBulk', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) }],
          },
        ],
      },
    },
  },
});
