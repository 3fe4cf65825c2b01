/**
 * Monetization › Models: whether monetization is enabled for the site and which models it runs. The
 * models are the site's service types (issue 27): the same stored list as AppCMS › Service, so both
 * pages always agree.
 */
import { useSelector } from '@xstate/react';
import { SERVICE_TYPES, serviceTypeLabel } from '../../../common/appcms';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { selectEditorData } from '../../../machines/editor.machine';
import { selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from './EditorPanel';
import { CheckboxField, ChoiceList } from './EditorFields';
import * as css from './monetization.css';
import { useCanEditMonetization } from './page-refs';

const OPTIONS = SERVICE_TYPES.map((t) => ({ value: t, label: serviceTypeLabel(t) }));

export function ModelsPage() {
  const canEdit = useCanEditMonetization();
  const page = usePageActor('models', { input: { id: 'settings', revisions: { kind: 'models', objectId: 'site' } } });
  const editor = useSelector(page, selectEditorPageEditor);
  const history = useSelector(page, selectEditorPageHistory);
  useEditorLeaveGuard(editor);
  const data = useSelector(editor, selectEditorData) as { serviceType: string } | null;
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Models</h1>
      <EditorPanel editor={editor} title="Monetization models" canEdit={canEdit}>
        <CheckboxField editor={editor} field="isMonetizationModelEnabled" label="Monetization enabled for this site" disabled={!canEdit} />
        <ChoiceList editor={editor} field="models" label="Models the site runs" required disabled={!canEdit} options={OPTIONS} />
        {data && <p className={css.muted}>{MONETIZATION_MESSAGES.mainServiceType(serviceTypeLabel(data.serviceType))}</p>}
        <p className={css.muted}>{MONETIZATION_MESSAGES.modelsHelp}</p>
      </EditorPanel>
      {history && <div style={{ marginTop: '1.5rem' }}><EditorHistoryPanel history={history} editor={editor} /></div>}
    </div>
  );
}
