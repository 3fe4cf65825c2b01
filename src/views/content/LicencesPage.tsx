/**
 * Content › Video licences (issue 29; the spec's external "Video License" entry, built here): each
 * item's licence windows (start, end, country groups), searchable by name or item; a writer creates,
 * edits and deletes them (asked first). Start and end are entered and shown in the site's default time
 * zone. Publishing an item outside every window of its licences is refused by the server. The
 * `licences` page machine (machines/list-page.machine.ts) with the Content wiring file's I/O.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AVAILABILITY_MESSAGES as M } from '../../../common/content-availability';
import { selectEditorData, selectEditorId } from '../../../machines/editor.machine';
import { NEW_RECORD_ID, selectPageActions, selectPageEditor, selectPageList } from '../../../machines/list-page.machine';
import { selectActionPending, selectActionRunning } from '../../../machines/page-action.machine';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import { ActionOutcome } from '../monetization/ActionOutcome';
import { EditorPanel } from '../monetization/EditorPanel';
import { ChoiceList, SelectField, TextField } from '../monetization/EditorFields';
import { ListTable } from '../monetization/ListTable';
import * as css from '../monetization/monetization.css';
import { useOpenFromAddress, type EditorRef } from '../monetization/page-refs';
import { Modal } from '../shared/Modal';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useCanEditContent } from './CountryGroupsPage';

const ROUTE = '/content/licences';

/** A licence row as the wiring file answers it: times already in the site's zone, groups by name. */
export interface LicenceListRow {
  id: string; name: string; contentTitle: string; version: number; startsText: string; endsText: string; groupNames: string[];
}
interface LicenceEditorData { items: { id: string; title: string; kind: string }[]; groups: { id: string; name: string }[]; timeZone: string }

function LicenceEditor({ editor, canEdit: writable }: { editor: EditorRef; canEdit: boolean }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  const data = useSelector(editor, (s) => selectEditorData(s) as LicenceEditorData | null);
  const items = data?.items ?? [];
  const zone = data?.timeZone ?? 'UTC';
  return (
    <EditorPanel editor={editor} title={creating ? 'New licence' : 'Edit licence'} canEdit={writable} savedMessage={M.licenceSaved}>
      <SelectField editor={editor} field="contentId" label="Item" required disabled={!writable || !creating}
        options={[{ value: '', label: 'Choose an item…' }, ...items.map((i) => ({ value: i.id, label: `${i.title} (${i.kind})` }))]} />
      <TextField editor={editor} field="name" label="Name" required disabled={!writable} />
      <TextField editor={editor} field="startsAt" label={`Start (${zone})`} type="datetime-local" required disabled={!writable} />
      <TextField editor={editor} field="endsAt" label={`End (${zone})`} type="datetime-local" required disabled={!writable} />
      <ChoiceList editor={editor} field="countryGroupIds" label="Country groups" disabled={!writable}
        options={(data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))} />
    </EditorPanel>
  );
}

export function LicencesPage() {
  const { edit } = getRouteApi('/protected/content/licences').useSearch();
  const writable = useCanEditContent();
  const page = usePageActor('licences', { input: { filters: {}, confirm: ['delete'], ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  const list = useSelector(page, selectPageList);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const pending = useSelector(actions, selectActionPending);
  const running = useSelector(actions, selectActionRunning);
  return (
    <div className={ui.page}>
      <Link to="/content" className={ui.button.ghost}>← Back to library</Link>
      <h1 className={ui.pageTitle}>Video licences</h1>
      <ActionOutcome actions={actions} />
      <div className={editor ? css.layout : css.listOnly}>
        <ListTable<LicenceListRow>
          list={list} label="Video licences" searchLabel="Search by licence or item"
          tools={writable && <Link to={ROUTE} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>New licence</Link>}
          columns={[
            { title: 'Name', cell: (l) => <Link to={ROUTE} search={{ edit: l.id }} className={css.rowLink}>{l.name}</Link> },
            { title: 'Item', cell: (l) => l.contentTitle },
            { title: 'Start', cell: (l) => <span className={css.nowrap}>{l.startsText}</span> },
            { title: 'End', cell: (l) => <span className={css.nowrap}>{l.endsText}</span> },
            { title: 'Country groups', cell: (l) => (l.groupNames.length ? l.groupNames.join(', ') : 'Everywhere') },
            ...(writable ? [{
              title: 'Actions',
              cell: (l: LicenceListRow) => (
                <button type="button" className={ui.button.ghost} disabled={running !== null} aria-label={`Delete ${l.name}`}
                  onClick={() => actions.send({ type: 'action.request', name: 'delete', args: { id: l.id, version: l.version, title: l.contentTitle }, label: l.name })}>
                  Delete
                </button>
              ),
            }] : []),
          ]}
        />
        {editor && <LicenceEditor key={editor.sessionId} editor={editor} canEdit={writable} />}
      </div>
      <Modal
        open={pending !== null} title="Delete licence" negativeLabel="Cancel" positiveLabel="Delete"
        onNegative={() => actions.send({ type: 'action.cancel' })} onPositive={() => actions.send({ type: 'action.confirm' })}
      >
        {pending && M.licenceDeleteConfirm(pending.label, String(pending.args.title ?? ''))}
      </Modal>
    </div>
  );
}
