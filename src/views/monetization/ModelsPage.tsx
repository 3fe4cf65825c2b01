/** Monetization › Models: whether monetization is enabled for the site and which models it runs. */
import { MONETIZATION_MODELS } from '../../../common/monetization-rules';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from './EditorPanel';
import { CheckboxField, ChoiceList } from './EditorFields';
import { useCanEditMonetization, useMonetizationEditor } from './use-monetization';

const MODEL_LABELS: Record<string, string> = {
  subscription: 'Subscription (SVOD)', advertising: 'Advertising (AVOD)', transactional: 'Transactional (TVOD)', hybrid: 'Hybrid',
};

export function ModelsPage() {
  const canEdit = useCanEditMonetization();
  const editor = useMonetizationEditor('models', 'settings', '/monetization/models');
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Models</h1>
      <EditorPanel editor={editor} title="Monetization models" canEdit={canEdit}>
        <CheckboxField editor={editor} field="isMonetizationModelEnabled" label="Monetization enabled for this site" disabled={!canEdit} />
        <ChoiceList editor={editor} field="models" label="Models the site runs" disabled={!canEdit}
          options={MONETIZATION_MODELS.map((m) => ({ value: m, label: MODEL_LABELS[m] ?? m }))} />
      </EditorPanel>
    </div>
  );
}
