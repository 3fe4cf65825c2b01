/**
 * The list page machine's actions by name, on its setup (./list-page.setup.ts): `listPageSetup` is what
 * the states (./list-page.state.*.ts) and the machine (./list-page.machine.ts) are built from.
 * `openCreated`, `closeEditor` and `writeQuery` are provided by the area's wiring file.
 */
import { assign, sendTo } from 'xstate';
import type { HistoryRestored } from './history.machine';
import type { ListQuery } from './list.machine';
import { listPageBase } from './list-page.setup';

export const listPageSetup = listPageBase.extend({
  actions: {
    setOpenId: assign((_, params: { id: string | null }) => ({ openId: params.id, historyNotice: null })),
    storeHistoryNotice: assign((_, params: { restored: HistoryRestored | null }) => ({ historyNotice: params.restored })),
    clearHistoryNotice: assign({ historyNotice: null }),
    reloadList: sendTo('list', { type: 'list.reload' }),
    reloadHistory: sendTo('history', { type: 'history.reload' }),
    setHistoryOf: assign((_, params: { id: string | null }) => ({ historyOf: params.id, rowHistoryNotice: null })),
    storeRowHistoryNotice: assign((_, params: { restored: HistoryRestored | null }) => ({ rowHistoryNotice: params.restored })),
    clearRowHistoryNotice: assign({ rowHistoryNotice: null }),
    reloadRowHistory: sendTo('rowHistory', { type: 'history.reload' }),
    /** Provided by the wiring file: show the created record at its own address (replacing `?edit=new`). */
    openCreated: (_, params: { id: string }) => { void params; },
    /** Provided by the wiring file: the page's address without an open record. */
    closeEditor: () => {},
    /** Provided by the wiring file: the list's query as the page's address, replacing it (issue 38). */
    writeQuery: (_, params: { query: ListQuery }) => { void params; },
  },
});
