/**
 * AppCMS › Settings (spec §2.7): the current network's settings as a typed form, grouped, with labels
 * and help texts. Beside it the settings' History (issue 28: every save is a revision; who, when, what
 * changed, a revision against now, and its restore, itself a new revision): the versions of old are one
 * case of the revisions.
 */
import { useSelector } from '@xstate/react';
import { APPCMS_MESSAGES, SETTINGS_FIELDS, SETTINGS_GROUPS } from '../../../common/appcms';
import { EditorPanel } from '../monetization/EditorPanel';
import { CheckboxField, NumberField, SelectField, TextField } from '../monetization/EditorFields';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import { DefaultComparison } from './DefaultComparison';
import { selectEditorPageComparison, selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useReloadOnRevision, type AppcmsEditorRef } from './appcms-page';

function SettingsForm({ editor, canEdit }: { editor: AppcmsEditorRef; canEdit: boolean }) {
  return (
    <EditorPanel editor={editor} title="Settings" canEdit={canEdit} savedMessage={APPCMS_MESSAGES.saved}>
      {SETTINGS_GROUPS.map((group) => (
        <fieldset key={group} className={css.group}>
          <legend className={css.legend}>{group}</legend>
          {SETTINGS_FIELDS.filter((f) => f.group === group).map((f) => (
            <div key={f.key}>
              {f.type === 'boolean' && <CheckboxField editor={editor} field={f.key} label={f.label} disabled={!canEdit} />}
              {f.type === 'number' && <NumberField editor={editor} field={f.key} label={f.label} required disabled={!canEdit} />}
              {f.type === 'select' && <SelectField editor={editor} field={f.key} label={f.label} required disabled={!canEdit} options={(f.options ?? []).map((o) => ({ value: o, label: o }))} />}
              {(f.type === 'text' || f.type === 'email') && <TextField editor={editor} field={f.key} label={f.label} required disabled={!canEdit} />}
              <p className={css.help}>{f.help}</p>
            </div>
          ))}
        </fieldset>
      ))}
    </EditorPanel>
  );
}

function SettingsEditor({ site, network, canEdit, revision, isDefault }: AppcmsScope) {
  // A save reads the History and the comparison again; a restore opens the form afresh on the restored settings (the page machine).
  const page = usePageActor('appcmsSettings', { input: { id: network, scope: { site, network }, revisions: { kind: 'settings', objectId: network }, comparison: !isDefault } });
  useReloadOnRevision(page, revision);
  const editor = useSelector(page, selectEditorPageEditor);
  const history = useSelector(page, selectEditorPageHistory);
  const comparison = useSelector(page, selectEditorPageComparison);
  useEditorLeaveGuard(editor);
  return (
    <div className={css.editorLayout}>
      <SettingsForm key={editor.sessionId} editor={editor} canEdit={canEdit} />
      <div className={css.sideColumn}>
        {history && <EditorHistoryPanel history={history} editor={editor} />}
        {comparison && <DefaultComparison list={comparison} part="settings" />}
      </div>
    </div>
  );
}

export function SettingsPage() {
  return (
    <AppcmsFrame title="Settings" testId="appcms-settings" perNetwork dataKind="settings">
      {(scope) => <SettingsEditor key={scope.network} {...scope} />}
    </AppcmsFrame>
  );
}
