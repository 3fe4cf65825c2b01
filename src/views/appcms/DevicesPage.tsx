/** AppCMS › Devices (spec §2.7): the device platforms of the current network, each on or off with the minimum app version. */
import { useSelector } from '@xstate/react';
import { APPCMS_MESSAGES, DEVICE_PLATFORMS } from '../../../common/appcms';
import { selectDraft, selectFieldErrors } from '../../../machines/editor.machine';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from '../monetization/EditorPanel';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import { selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useReloadOnRevision, type AppcmsEditorRef } from './appcms-page';
import { ScrollBox } from '../shared/ScrollBox';

function PlatformRow({ editor, platform, name, canEdit }: { editor: AppcmsEditorRef; platform: string; name: string; canEdit: boolean }) {
  const enabled = useSelector(editor, (s) => selectDraft(s)[`${platform}.enabled`] === true);
  const version = useSelector(editor, (s) => String(selectDraft(s)[`${platform}.minAppVersion`] ?? ''));
  const error = useSelector(editor, (s) => selectFieldErrors(s)[`${platform}.minAppVersion`]);
  return (
    <tr data-testid={`device-${platform}`}>
      <td className={css.cell}>
        <label><input type="checkbox" checked={enabled} disabled={!canEdit}
          onChange={(e) => editor.send({ type: 'editor.change', field: `${platform}.enabled`, value: e.target.checked })} /> {name}</label>
      </td>
      <td className={css.cell}>
        {/* No placeholder: a grey "1.0.0" read as a value (issue 30). A platform that is on needs one, checked before Save. */}
        <input className={`${ui.input} ${css.versionInput}`} aria-label={`${name} minimum app version`} value={version} disabled={!canEdit}
          aria-required={enabled} aria-invalid={Boolean(error)}
          onChange={(e) => editor.send({ type: 'editor.change', field: `${platform}.minAppVersion`, value: e.target.value })} />
        {error && <p role="alert" className={css.contrastLow}>{error}</p>}
      </td>
    </tr>
  );
}

function DevicesEditor({ site, network, canEdit, revision }: AppcmsScope) {
  const page = usePageActor('appcmsDevices', { input: { id: network, scope: { site, network }, revisions: { kind: 'devices', objectId: network } } });
  useReloadOnRevision(page, revision);
  const editor = useSelector(page, selectEditorPageEditor);
  const history = useSelector(page, selectEditorPageHistory);
  useEditorLeaveGuard(editor);
  return (
    <>
    <EditorPanel editor={editor} title="Device platforms" canEdit={canEdit} savedMessage={APPCMS_MESSAGES.saved}>
      <ScrollBox className={css.tableScroll} label="Device platforms"><table className={css.table}>
        <thead><tr><th className={css.headCell}>Platform (on / off)</th><th className={css.headCell}>Minimum app version</th></tr></thead>
        <tbody>
          {DEVICE_PLATFORMS.map((p) => <PlatformRow key={p.platform} editor={editor} platform={p.platform} name={p.name} canEdit={canEdit} />)}
        </tbody>
      </table></ScrollBox>
    </EditorPanel>
    {history && <EditorHistoryPanel history={history} editor={editor} />}
    </>
  );
}

export function DevicesPage() {
  return (
    <AppcmsFrame title="Devices" testId="appcms-device" perNetwork dataKind="device">
      {(scope) => <DevicesEditor key={scope.network} {...scope} />}
    </AppcmsFrame>
  );
}
