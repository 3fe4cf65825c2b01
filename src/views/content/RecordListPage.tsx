/**
 * The shared page of Content's record lists (Country groups, Video licences; issue 29): back link,
 * title, the action outcome, the server-paged list with a "New …" link for writers, the open record's
 * editor beside it, and a Delete per row that asks first (the `delete` action of the page's
 * machine, machines/list-page.machine.ts). A read role sees the list and the records without the write
 * controls. Each page says its words, its columns, what a delete carries and its editor.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ListRow } from '../../../machines/list.machine';
import { NEW_RECORD_ID, selectPageActions, selectPageEditor, selectPageList } from '../../../machines/list-page.machine';
import { selectActionPending, selectActionRunning, type PageActionArgs, type PageActionRequest } from '../../../machines/page-action.machine';
import * as ui from '../../theme/ui.css';
import { ActionOutcome } from '../monetization/ActionOutcome';
import { ListTable, type Column } from '../monetization/ListTable';
import * as css from '../monetization/monetization.css';
import type { EditorRef, ListPageRef } from '../monetization/page-refs';
import { Modal } from '../shared/Modal';

export interface RecordListPageProps<Row extends ListRow & { name: string; version: number }> {
  page: ListPageRef;
  writable: boolean;
  /** The page's route (its `?edit=` opens a record). */
  route: '/content/country-groups' | '/content/licences';
  title: string;
  searchLabel: string;
  newLabel: string;
  /** Columns after the Name column (which links to the record). */
  columns: readonly Column<Row>[];
  /** What the delete action carries besides id and version. */
  deleteArgs?: (row: Row) => PageActionArgs;
  deleteTitle: string;
  deleteQuestion: (pending: PageActionRequest) => string;
  editor: (editor: EditorRef) => ReactNode;
}

export function RecordListPage<Row extends ListRow & { name: string; version: number }>(props: RecordListPageProps<Row>) {
  const { page, writable, route, title } = props;
  const list = useSelector(page, selectPageList);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const pending = useSelector(actions, selectActionPending);
  const running = useSelector(actions, selectActionRunning);
  const deleteColumn: Column<Row> = {
    title: 'Actions',
    cell: (row) => (
      <button type="button" className={ui.button.ghost} disabled={running !== null} aria-label={`Delete ${row.name}`}
        onClick={() => actions.send({ type: 'action.request', name: 'delete', args: { id: row.id, version: row.version, ...props.deleteArgs?.(row) }, label: row.name })}>
        Delete
      </button>
    ),
  };
  // The page's one main landmark (issue 38: the list and its editor sat outside any landmark).
  return (
    <main className={ui.page}>
      <Link to="/content" className={ui.button.ghost}>← Back to library</Link>
      <h1 className={ui.pageTitle}>{title}</h1>
      <ActionOutcome actions={actions} />
      <div className={editor ? css.layout : css.listOnly}>
        <ListTable<Row>
          list={list} label={title} searchLabel={props.searchLabel}
          tools={writable && <Link to={route} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>{props.newLabel}</Link>}
          columns={[
            { title: 'Name', cell: (row) => <Link to={route} search={{ edit: row.id }} className={css.rowLink}>{row.name}</Link> },
            ...props.columns,
            ...(writable ? [deleteColumn] : []),
          ]}
        />
        {editor && props.editor(editor)}
      </div>
      <Modal
        open={pending !== null} title={props.deleteTitle} negativeLabel="Cancel" positiveLabel="Delete"
        onNegative={() => actions.send({ type: 'action.cancel' })} onPositive={() => actions.send({ type: 'action.confirm' })}
      >
        {pending && props.deleteQuestion(pending)}
      </Modal>
    </main>
  );
}
