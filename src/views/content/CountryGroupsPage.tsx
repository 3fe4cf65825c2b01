/**
 * Content › Country groups (issue 29; the spec's external "Country Group" entry, built here): the
 * site's named sets of countries, searchable; a writer creates, edits (name and ISO 3166-1 codes, an
 * unknown code named beside the field) and deletes them (asked first; one still in use is refused with
 * the server's message). A read role sees the list and the groups, without the write controls. The
 * `countryGroups` page machine (machines/list-page.machine.ts) with the Content wiring file's I/O, shown
 * by the shared RecordListPage.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AREAS } from '../../../common/constants';
import { AVAILABILITY_MESSAGES as M, type CountryGroup } from '../../../common/content-availability';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { selectEditorId } from '../../../machines/editor.machine';
import { NEW_RECORD_ID } from '../../../machines/list-page.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from '../monetization/EditorPanel';
import { TextField } from '../monetization/EditorFields';
import { listStartOf, useOpenFromAddress, type EditorRef } from '../monetization/page-refs';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { RecordListPage } from './RecordListPage';

const ROUTE = '/content/country-groups';

/** Whether the signed-in role may write Content (create, edit, delete here). */
export function useCanEditContent(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
}

function CountryGroupEditor({ editor, canEdit: writable }: { editor: EditorRef; canEdit: boolean }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  return (
    <EditorPanel editor={editor} title={creating ? 'New country group' : 'Edit country group'} canEdit={writable} savedMessage={M.countryGroupSaved}>
      <TextField editor={editor} field="name" label="Name" required disabled={!writable} />
      <TextField editor={editor} field="countries" label="Countries" required disabled={!writable} multiline />
      <p className={ui.label}>{M.countriesHint}</p>
    </EditorPanel>
  );
}

export function CountryGroupsPage() {
  const address = getRouteApi('/protected/content/country-groups').useSearch();
  const { edit } = address;
  const writable = useCanEditContent();
  const page = usePageActor('countryGroups', { input: { ...listStartOf(address, [], []), confirm: ['delete'], ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  return (
    <RecordListPage<CountryGroup>
      page={page} writable={writable} route={ROUTE} title="Country groups" searchLabel="Search by name or country" newLabel="New country group"
      columns={[
        { title: 'Countries', cell: (g) => g.countries.join(', ') },
        { title: 'Used by', cell: (g) => `${g.usedByItems} ${g.usedByItems === 1 ? 'item' : 'items'}, ${g.usedByLicences} ${g.usedByLicences === 1 ? 'licence' : 'licences'}` },
      ]}
      deleteTitle="Delete country group" deleteQuestion={(pending) => M.countryGroupDeleteConfirm(pending.label)}
      editor={(editor) => <CountryGroupEditor key={editor.sessionId} editor={editor} canEdit={writable} />}
    />
  );
}
