/**
 * AppCMS › Brand (spec §2.7): the current network's colours for web, OTT and the apps (colour
 * pickers with the WCAG contrast ratio of the text against the background and of the background
 * colour on primary buttons, a warning under 4.5:1), fonts, logo and icon uploads with previews at
 * the sizes the apps use, and a live sample screen in each theme.
 */
import { useSelector } from '@xstate/react';
import {
  APPCMS_MESSAGES, COLOUR_KEYS, COLOUR_LABELS, FONT_FAMILIES, HEX_COLOUR, PREVIEW_SIZES, THEME_KEYS, THEME_LABELS, UPLOAD_LIMITS, WCAG_AA, contrastRatio,
  APPCMS_ACTIONS, type ThemeKey, type UploadSlot,
} from '../../../common/appcms';
import { selectDraft, selectFieldErrors } from '../../../machines/editor.machine';
import { selectActionError, selectActionMessage, selectActionRunning } from '../../../machines/page-action.machine';
import { selectEditorPageActions, selectEditorPageComparison, selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from '../monetization/EditorPanel';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import { DefaultComparison } from './DefaultComparison';
import { useReloadOnRevision, type AppcmsActionRef, type AppcmsEditorRef } from './appcms-page';

const valueOf = (field: string) => (s: ReturnType<AppcmsEditorRef['getSnapshot']>) => {
  const value = selectDraft(s)[field];
  return typeof value === 'string' ? value : '';
};

function ColourField({ editor, theme, colour, disabled }: { editor: AppcmsEditorRef; theme: ThemeKey; colour: (typeof COLOUR_KEYS)[number]; disabled: boolean }) {
  const field = `${theme}.${colour}`;
  const value = useSelector(editor, valueOf(field));
  const error = useSelector(editor, (s) => selectFieldErrors(s)[field]);
  const label = `${THEME_LABELS[theme]} ${COLOUR_LABELS[colour].toLowerCase()} colour`;
  const change = (next: string) => editor.send({ type: 'editor.change', field, value: next });
  return (
    <div className={css.colourRow}>
      <input type="color" className={css.colourInput} aria-label={`${label} picker`} disabled={disabled}
        value={HEX_COLOUR.test(value) ? value.toLowerCase() : '#000000'} onChange={(e) => change(e.target.value.toUpperCase())} />
      <input className={`${ui.input} ${css.hexInput}`} aria-label={label} data-testid={`brand-${theme}-${colour}`} value={value} disabled={disabled} onChange={(e) => change(e.target.value)} />
      <span>{COLOUR_LABELS[colour]}</span>
      {error && <span role="alert" className={css.contrastLow}>{error}</span>}
    </div>
  );
}

function Contrast({ label, a, b, testId }: { label: string; a: string; b: string; testId: string }) {
  const ratio = contrastRatio(a, b);
  if (ratio === null) return null;
  const text = ratio.toFixed(2);
  return ratio < WCAG_AA
    ? <p className={css.contrastLow} role="alert" data-testid={testId}>{label}: {text}:1 — {APPCMS_MESSAGES.lowContrast(text)}</p>
    : <p className={css.contrastOk} data-testid={testId}>{label}: {text}:1 (WCAG AA)</p>;
}

function ThemeCard({ editor, theme, disabled }: { editor: AppcmsEditorRef; theme: ThemeKey; disabled: boolean }) {
  const draft = useSelector(editor, selectDraft);
  const get = (k: string) => {
    const value = draft[`${theme}.${k}`];
    return typeof value === 'string' ? value : '';
  };
  return (
    <fieldset className={css.group} data-testid={`theme-${theme}`}>
      <legend className={css.legend}>{THEME_LABELS[theme]}</legend>
      {COLOUR_KEYS.map((c) => <ColourField key={c} editor={editor} theme={theme} colour={c} disabled={disabled} />)}
      <label className={css.colourRow}>
        Font{' '}
        <select className={ui.input} value={get('fontFamily')} disabled={disabled}
          onChange={(e) => editor.send({ type: 'editor.change', field: `${theme}.fontFamily`, value: e.target.value })}>
          {[...new Set([get('fontFamily'), ...FONT_FAMILIES])].filter(Boolean).map((f) => <option key={f} value={f}>{f}</option>)}
        </select>
      </label>
      <Contrast label="Text on background" a={get('textColor')} b={get('backgroundColor')} testId={`contrast-${theme}-text`} />
      <Contrast label="Button label on primary" a={get('backgroundColor')} b={get('primaryColor')} testId={`contrast-${theme}-button`} />
    </fieldset>
  );
}

function Upload({ editor, actions, slot, disabled, site, network }: { editor: AppcmsEditorRef; actions: AppcmsActionRef; slot: UploadSlot; disabled: boolean; site: string; network: string }) {
  const field = slot === 'logo' ? 'logoUrl' : 'iconUrl';
  const url = useSelector(editor, valueOf(field));
  const running = useSelector(actions, selectActionRunning);
  const label = slot === 'logo' ? 'Logo' : 'Icon';
  return (
    <div className={css.group} data-testid={`brand-${slot}`}>
      <strong>{label}</strong>
      <div className={css.sizes}>
        {PREVIEW_SIZES[slot].map((size) => (
          <span key={size} className={css.sizeBox}>
            <img className={css.sizedImage} src={url || undefined} alt={`${label} at ${size} px`} width={size} height={slot === 'logo' ? Math.round(size / 2) : size} />
            {size} px
          </span>
        ))}
      </div>
      <label className={css.colourRow}>
        <span>Upload {label.toLowerCase()} ({APPCMS_MESSAGES.uploadHint(UPLOAD_LIMITS.maxPixels, UPLOAD_LIMITS.maxBytes / 1024)})</span>
        <input type="file" accept="image/png,image/webp,image/svg+xml" disabled={disabled || running !== null} aria-label={`Upload ${label.toLowerCase()}`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) actions.send({ type: 'action.request', name: APPCMS_ACTIONS.upload, args: { slot, file, site, network }, label });
            e.target.value = '';
          }} />
      </label>
      <code className={css.urlBlock}>{url}</code>
    </div>
  );
}

/** The chosen family, quoted (names with spaces: "SF Pro"), then a generic fallback (issue 30: the preview ignored the font). */
function previewFont(family: string): string {
  return family ? `"${family.replace(/["\\]/g, '')}", system-ui, sans-serif` : 'system-ui, sans-serif';
}

function SampleScreen({ editor, theme }: { editor: AppcmsEditorRef; theme: ThemeKey }) {
  const draft = useSelector(editor, selectDraft);
  const get = (k: string) => String(draft[`${theme}.${k}`] ?? '');
  const logo = String(draft.logoUrl ?? '');
  return (
    <figure className={css.sample} style={{ background: get('backgroundColor'), color: get('textColor'), fontFamily: previewFont(get('fontFamily')), margin: 0 }} data-testid={`sample-${theme}`}>
      {/* The theme's name is ours, so it is in the console's colours, not on the brand's primary (which may be low contrast, as warned above). */}
      <figcaption className={css.sampleCaption}>{THEME_LABELS[theme]}</figcaption>
      <div className={css.sampleBar} style={{ background: get('primaryColor'), color: get('backgroundColor') }}>
        <img src={logo || undefined} alt="" height={20} style={{ maxWidth: 80, objectFit: 'contain' }} />
      </div>
      <div className={css.sampleBody}>
        <strong>Featured tonight</strong>
        <span>A sample screen in this theme.</span>
        <div className={css.sampleTiles}>{[0, 1, 2].map((i) => <span key={i} className={css.sampleTile} style={{ background: get('secondaryColor') }} />)}</div>
        {/* A picture of the apps' button, not a control: disabled (an inactive component), so it never takes focus or clicks. */}
        <button type="button" disabled tabIndex={-1} className={css.sampleButton} style={{ background: get('primaryColor'), color: get('backgroundColor') }}>Watch now</button>
      </div>
    </figure>
  );
}

function BrandEditor({ site, network, canEdit, revision, isDefault }: AppcmsScope) {
  const page = usePageActor('appcmsBrand', { input: { id: network, scope: { site, network }, comparison: !isDefault, revisions: { kind: 'brand', objectId: network } } });
  useReloadOnRevision(page, revision);
  const editor = useSelector(page, selectEditorPageEditor);
  const actions = useSelector(page, selectEditorPageActions);
  const comparison = useSelector(page, selectEditorPageComparison);
  const history = useSelector(page, selectEditorPageHistory);
  useEditorLeaveGuard(editor);
  const message = useSelector(actions, selectActionMessage);
  const error = useSelector(actions, selectActionError);
  return (
    <div className={css.editorLayout}>
      <EditorPanel editor={editor} title="Brand" canEdit={canEdit} savedMessage={APPCMS_MESSAGES.saved}>
        {message && <p role="status" className={css.contrastOk}>{message}</p>}
        {error && <p role="alert" className={css.contrastLow} data-testid="upload-error">{error}</p>}
        <Upload editor={editor} actions={actions} slot="logo" disabled={!canEdit} site={site} network={network} />
        <Upload editor={editor} actions={actions} slot="icon" disabled={!canEdit} site={site} network={network} />
        {THEME_KEYS.map((t) => <ThemeCard key={t} editor={editor} theme={t} disabled={!canEdit} />)}
      </EditorPanel>
      <div className={css.sideColumn}>
        <section className={css.card} aria-label="Preview">
          <h2 className={css.cardTitle}>Preview</h2>
          <div className={css.previewRow}>{THEME_KEYS.map((t) => <SampleScreen key={t} editor={editor} theme={t} />)}</div>
        </section>
        {comparison && <DefaultComparison list={comparison} part="brand" />}
        {history && <EditorHistoryPanel history={history} editor={editor} />}
      </div>
    </div>
  );
}

export function BrandPage() {
  return (
    <AppcmsFrame title="Brand" testId="appcms-brand" perNetwork dataKind="brand">
      {(scope) => <BrandEditor key={scope.network} {...scope} />}
    </AppcmsFrame>
  );
}
