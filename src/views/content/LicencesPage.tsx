/**
 * Content › Video licences (issue 29; the spec's external "Video License" entry, built here): each
 * item's licence windows (start, end, country groups), searchable by name or item; a writer creates,
 * edits and deletes them (asked first). Start and end are entered and shown in the site's default time
 * zone. Publishing an item outside every window of its licences is refused by the server. The
 * `licences` page machine (machines/list-page.machine.ts) with the Content wiring file's I/O.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AVAILABILITY_MESSAGES as M } from '../../../common/content-availability';
import { selectEditorData, selectEditorId } from '../../../machines/editor.machine';
import { NEW_RECORD_ID } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { EditorPanel } from '../monetization/EditorPanel';
import { ChoiceList, SelectField, TextField } from '../monetization/EditorFields';
import * as css from '../monetization/monetization.css';
import { listStartOf, useOpenFromAddress, type EditorRef } from '../monetization/page-refs';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useCanEditContent } from './CountryGroupsPage';
import { RecordListPage } from './RecordListPage';

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
  return (
    <EditorPanel editor={editor} title={creating ? 'New licence' : 'Edit licence'} canEdit={writable} savedMessage={M.licenceSaved}>
      <SelectField editor={editor} field="contentId" label="Item" required disabled={!writable || !creating}
        options={[{ value: '', label: 'Choose an item…' }, ...items.map((i) => ({ value: i.id, label: `${i.title} (${i.kind})` }))]} />
      <TextField editor={editor} field="name" label="Name" required disabled={!writable} />
      <TextField editor={editor} field="startsAt" label="Start" type="datetime-local" required disabled={!writable} />
      <TextField editor={editor} field="endsAt" label="End" type="datetime-local" required disabled={!writable} />
      <ChoiceList editor={editor} field="countryGroupIds" label="Country groups" disabled={!writable}
        options={(data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))} />
    </EditorPanel>
  );
}

export function LicencesPage() {
  const address = getRouteApi('/protected/content/licences').useSearch();
  const { edit } = address;
  const writable = useCanEditContent();
  const page = usePageActor('licences', { input: { ...listStartOf(address, [], []), confirm: ['delete'], ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  return (
    <RecordListPage<LicenceListRow>
      page={page} writable={writable} route={ROUTE} title="Video licences" searchLabel="Search by licence or item" newLabel="New licence"
      columns={[
        { title: 'Item', cell: (l) => l.contentTitle },
        { title: 'Start', cell: (l) => <span className={css.nowrap}>{l.startsText}</span> },
        { title: 'End', cell: (l) => <span className={css.nowrap}>{l.endsText}</span> },
        { title: 'Country groups', cell: (l) => (l.groupNames.length ? l.groupNames.join(', ') : 'Everywhere') },
      ]}
      deleteArgs={(l) => ({ title: l.contentTitle })}
      deleteTitle="Delete licence" deleteQuestion={(pending) => M.licenceDeleteConfirm(pending.label, String(pending.args.title ?? ''))}
      editor={(editor) => <LicenceEditor key={editor.sessionId} editor={editor} canEdit={writable} />}
    />
  );
}
