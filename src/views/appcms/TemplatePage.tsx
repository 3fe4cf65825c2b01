/** AppCMS › Template (spec §2.7): choose the page template of the service from the set the server knows, each with a preview of its layout. */
import { useSelector } from '@xstate/react';
import { APPCMS_MESSAGES, type TemplateOption } from '../../../common/appcms';
import { selectDraft, selectEditorData } from '../../../machines/editor.machine';
import { EditorPanel } from '../monetization/EditorPanel';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import { selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';

const LAYOUTS: Record<TemplateOption['layout'], { rows: string; blocks: number }> = {
  hero: { rows: '2fr 1fr 1fr', blocks: 3 },
  list: { rows: '1fr 1fr 1fr 1fr', blocks: 4 },
  rails: { rows: '1fr 1fr 1fr', blocks: 3 },
  grid: { rows: '1fr 1fr', blocks: 2 },
};

function LayoutPreview({ layout }: { layout: TemplateOption['layout'] }) {
  const { rows, blocks } = LAYOUTS[layout];
  return (
    <div className={css.templatePreview} style={{ gridTemplateRows: rows, gridTemplateColumns: layout === 'grid' ? '1fr 1fr' : '1fr' }} aria-hidden>
      {Array.from({ length: layout === 'grid' ? blocks * 2 : blocks }, (_, i) => <span key={i} className={css.templateBlock} />)}
    </div>
  );
}

/** The templates the Template editor's record carries as its data (none until it is read). */
function templatesOf(data: unknown): TemplateOption[] {
  return typeof data === 'object' && data !== null && 'templates' in data && Array.isArray(data.templates) ? data.templates : [];
}

function TemplateEditor({ site, canEdit }: AppcmsScope) {
  const page = usePageActor('appcmsTemplate', { input: { id: site, scope: { site }, revisions: { kind: 'service', objectId: 'site' } } });
  const editor = useSelector(page, selectEditorPageEditor);
  const history = useSelector(page, selectEditorPageHistory);
  useEditorLeaveGuard(editor);
  const chosen = useSelector(editor, (s) => selectDraft(s).templateName);
  const templates = templatesOf(useSelector(editor, selectEditorData));
  return (
    <>
    <EditorPanel editor={editor} title="Page template" canEdit={canEdit} savedMessage={APPCMS_MESSAGES.saved}>
      <fieldset className={css.templateGrid} aria-label="Templates">
        {templates.map((t) => (
          <label key={t.name} className={chosen === t.name ? css.templateChosen : css.templateCard} data-testid={`template-${t.layout}`}>
            <span>
              <input type="radio" name="templateName" value={t.name} checked={chosen === t.name} disabled={!canEdit}
                onChange={() => editor.send({ type: 'editor.change', field: 'templateName', value: t.name })} />
              {' '}<strong>{t.name}</strong>
            </span>
            <LayoutPreview layout={t.layout} />
            <span className={css.help}>{t.description}</span>
          </label>
        ))}
      </fieldset>
    </EditorPanel>
    {history && <EditorHistoryPanel history={history} editor={editor} />}
    </>
  );
}

export function TemplatePage() {
  return (
    <AppcmsFrame title="Template" testId="appcms-template" perNetwork={false}>
      {(scope) => <TemplateEditor key={scope.site} {...scope} />}
    </AppcmsFrame>
  );
}
