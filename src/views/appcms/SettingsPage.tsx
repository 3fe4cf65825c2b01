/**
 * AppCMS › Settings (spec §2.7): the current network's settings as a typed form, grouped, with labels
 * and help texts; every save becomes a version. Beside it the versions (who, when, what changed), the
 * diff of a chosen version against the current one, and its restore (itself a new version).
 */
import { useSelector } from '@xstate/react';
import { APPCMS_MESSAGES, SETTINGS_FIELDS, SETTINGS_GROUPS, SETTINGS_LABELS, diffValues } from '../../../common/appcms';
import {
  selectCurrentVersion, selectRestored, selectSelectedVersion, selectVersions, selectVersionsError, selectVersionsPhase,
} from '../../../machines/versions.machine';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from '../monetization/EditorPanel';
import { CheckboxField, NumberField, SelectField, TextField } from '../monetization/EditorFields';
import { Modal } from '../shared/Modal';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import { DefaultComparison } from './DefaultComparison';
import { selectEditorPageComparison, selectEditorPageEditor, selectEditorPageVersions } from '../../../machines/editor-page.machine';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useReloadOnRevision, type AppcmsEditorRef, type VersionsRef } from './appcms-page';

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

const when = (iso: string) => new Date(iso).toLocaleString();

function VersionsPanel({ versions, canEdit }: { versions: VersionsRef; canEdit: boolean }) {
  const phase = useSelector(versions, selectVersionsPhase);
  const list = useSelector(versions, selectVersions);
  const current = useSelector(versions, selectCurrentVersion);
  const selected = useSelector(versions, selectSelectedVersion);
  const error = useSelector(versions, selectVersionsError);
  const restored = useSelector(versions, selectRestored);
  const diff = selected && current ? diffValues(selected.values, current.values, SETTINGS_LABELS) : [];
  return (
    <section className={css.card} aria-label="Versions" data-testid="settings-versions">
      <h2 className={css.cardTitle}>Versions</h2>
      {phase === 'loading' && <p role="status">Loading versions…</p>}
      {phase === 'loadFailed' && (
        <p role="alert" className={css.contrastLow}>{error}{' '}
          <button type="button" className={ui.button.secondary} onClick={() => versions.send({ type: 'versions.reload' })}>Try again</button>
        </p>
      )}
      {restored !== null && <p role="status" className={css.contrastOk}>{APPCMS_MESSAGES.restored(restored)}</p>}
      {list.length === 0 && phase === 'listing' && <p>{APPCMS_MESSAGES.noVersions}</p>}
      <ul className={css.versionList}>
        {list.map((v) => (
          <li key={v.version} className={selected?.version === v.version ? css.versionSelected : css.versionItem} data-testid={`version-${v.version}`}>
            <span>
              <strong>Version {v.version}</strong>{v.version === current?.version ? ' (current)' : ''}
              <br /><span className={css.help}>
                {v.createdBy ?? 'Initial settings'} · {when(v.createdAt)}
                {v.restoredFrom !== null ? ` · restored version ${v.restoredFrom}` : ''}
                {v.changed.length > 0 ? ` · ${v.changed.map((k) => SETTINGS_LABELS[k] ?? k).join(', ')}` : ''}
              </span>
            </span>
            <button type="button" className={ui.button.secondary} onClick={() => versions.send({ type: 'versions.select', version: v.version })}>View</button>
          </li>
        ))}
      </ul>
      {selected && current && (
        <div data-testid="version-diff">
          <h3 className={css.cardTitle}>Version {selected.version} against the current version {current.version}</h3>
          {diff.length === 0 ? <p>Same as the current version.</p> : (
            <div className={css.tableScroll}><table className={css.diffTable}>
              <thead><tr><th className={css.headCell}>Setting</th><th className={css.headCell}>Version {selected.version}</th><th className={css.headCell}>Current</th></tr></thead>
              <tbody>
                {diff.map((d) => <tr key={d.field}><td className={css.cell}>{d.label}</td><td className={css.cell}>{d.from}</td><td className={css.cell}>{d.to}</td></tr>)}
              </tbody>
            </table></div>
          )}
          <div className={css.keyRow} style={{ marginTop: 8 }}>
            {canEdit && selected.version !== current.version && (
              <button type="button" className={ui.button.primary} disabled={phase === 'restoring'} onClick={() => versions.send({ type: 'versions.restore' })}>
                {phase === 'restoring' ? 'Restoring…' : `Restore version ${selected.version}`}
              </button>
            )}
            <button type="button" className={ui.button.secondary} onClick={() => versions.send({ type: 'versions.close' })}>Close</button>
          </div>
          {phase === 'restoreFailed' && (
            <p role="alert" className={css.contrastLow}>{error}{' '}
              <button type="button" className={ui.button.secondary} onClick={() => versions.send({ type: 'versions.dismiss' })}>OK</button>
            </p>
          )}
        </div>
      )}
      <Modal open={phase === 'confirmingRestore'} title="Restore version" negativeLabel="Cancel" positiveLabel="Restore"
        onNegative={() => versions.send({ type: 'versions.cancel' })} onPositive={() => versions.send({ type: 'versions.confirm' })}>
        {`Restore version ${selected?.version ?? ''}? The current settings are kept as a version, and the restore becomes a new version.`}
      </Modal>
    </section>
  );
}

function SettingsEditor({ site, network, canEdit, revision, isDefault }: AppcmsScope) {
  // A save reads the versions and the comparison again; a restore opens the form afresh on the restored settings (the page machine).
  const page = usePageActor('appcmsSettings', { input: { id: network, scope: { site, network }, history: true, comparison: !isDefault } });
  useReloadOnRevision(page, revision);
  const editor = useSelector(page, selectEditorPageEditor);
  const versions = useSelector(page, selectEditorPageVersions)!;
  const comparison = useSelector(page, selectEditorPageComparison);
  useEditorLeaveGuard(editor);
  return (
    <div className={css.editorLayout}>
      <SettingsForm key={editor.sessionId} editor={editor} canEdit={canEdit} />
      <div className={css.sideColumn}>
        <VersionsPanel versions={versions} canEdit={canEdit} />
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
