/**
 * The content browser's `library` state: the library page, its list, selection and bulk changes
 * (assembled in ./content-browser.machine.ts). The rows are the `list` child's (./list-content.ts, issue
 * 39): it reads, waits for typing to pause, fails and retries; this state keeps the query it shows and
 * writes as the address, the selection and the bulk changes.
 */
import { OWN_MESSAGES } from '../common/messages';
import { bulkDoneText, bulkUndoLabel, CONTENT_PAGE_SIZE } from './content-browser.setup';
import { contentListInputOf } from './list-content';
import { failureMessage } from './notify';
import { contentBrowserSetup } from './content-browser.actions';

export const libraryState = contentBrowserSetup.createStateConfig({
  description: 'The library page is shown with its list (the `list` child) and the lasting Undo of its last bulk change (issue 38) while it is.',
  initial: 'ready',
  // Both live as long as the library is shown: leaving the page forgets the offer; a new address reads afresh.
  invoke: [
    { id: 'lastBulk', src: 'lastBulk' },
    { id: 'list', src: 'list', input: ({ context }) => contentListInputOf(context, CONTENT_PAGE_SIZE) },
  ],
  // The state shown as the address (the bare library, a route change without one): the list's own reports write the later ones.
  entry: 'writeUrl',
  on: {
    'list.tab': {
      guard: { type: 'isValidTab', params: ({ event }) => ({ index: event.index }) },
      target: '.ready',
      actions: ['pushUrl', { type: 'chooseTab', params: ({ event }) => ({ index: event.index }) }, 'queryList'],
    },
    'list.search': { target: '.ready', actions: ['replaceUrl', { type: 'setKeyword', params: ({ event }) => ({ keyword: event.keyword }) }, 'searchList'] },
    'list.status': { target: '.ready', actions: ['pushUrl', { type: 'setStatusFilter', params: ({ event }) => ({ status: event.status }) }, 'queryList'] },
    'list.sort': { target: '.ready', actions: ['pushUrl', { type: 'setSort', params: ({ event }) => ({ sort: event.sort }) }, 'queryList'] },
    'list.page': { target: '.ready', actions: ['pushUrl', { type: 'setStart', params: ({ event }) => ({ start: event.start }) }, 'queryList'] },
    'list.clearFilters': { guard: 'hasFilters', target: '.ready', actions: ['pushUrl', 'clearFilters', 'queryList'] },
    'list.retry': { actions: 'reloadList' },
    'list.queried': { actions: [{ type: 'storeQueried', params: ({ event }) => ({ query: event.query, clamped: event.clamped }) }, 'writeUrl'] },
    'list.loaded': { actions: { type: 'storeList', params: ({ event }) => ({ list: event.page }) } },
    'undo.done': { target: '.ready', actions: ['clearSelection', 'reloadList'] },
  },
  states: {
    ready: {
      description: 'The page of the list is shown (or read by the list); rows may be selected for a bulk status change.',
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
          target: 'ready',
          actions: ['clearSelection', 'reloadList', {
            type: 'notify',
            params: ({ event }) => ({ message: bulkDoneText(event.output), severity: 'success' as const }),
          }],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'ready',
            actions: ['clearSelection', 'reloadList', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.contentBulkConflict), severity: 'warning' as const }) }],
          },
          {
            target: 'ready',
            actions: ['clearPendingBulk', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) }],
          },
        ],
      },
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
          target: 'ready',
          actions: [
            'reloadList',
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
            target: 'ready',
            actions: ['clearSelection', 'reloadList', { type: 'notify', params: { message: OWN_MESSAGES.contentBulkConflict, severity: 'warning' } }],
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
