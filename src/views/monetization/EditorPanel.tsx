/**
 * The frame of every Monetization editor: title, what the editor is doing (loading, saving, saved,
 * a refused save, a conflict with the choice to reload), Save and Close, and the question before
 * leaving unsaved changes (by Close, a tab, back or another row). Fields go inside; read levels see them disabled and no Save.
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { OWN_MESSAGES } from '../../../common/messages';
import { selectCanSave, selectEditorError, selectEditorPhase, selectIsBusy, selectIsConfirmingLeave } from '../../../machines/editor.machine';
import * as ui from '../../theme/ui.css';
import { Modal } from '../shared/Modal';
import * as css from './monetization.css';
import type { EditorRef } from './page-refs';

export interface EditorPanelProps {
  editor: EditorRef;
  title: string;
  canEdit: boolean;
  saveLabel?: string;
  savedMessage?: string;
  children: ReactNode;
}

export function EditorPanel({ editor, title, canEdit, saveLabel = 'Save', savedMessage = MONETIZATION_MESSAGES.saved, children }: EditorPanelProps) {
  const phase = useSelector(editor, selectEditorPhase);
  const error = useSelector(editor, selectEditorError);
  const canSave = useSelector(editor, selectCanSave);
  const busy = useSelector(editor, selectIsBusy);
  const confirmingLeave = useSelector(editor, selectIsConfirmingLeave);
  const send = editor.send;
  const loaded = !['loading', 'notFound', 'loadFailed', 'left'].includes(phase);
  return (
    <section className={css.panel} aria-label={title}>
      <h2 className={css.panelTitle}>{title}</h2>
      {phase === 'loading' && <p role="status">{OWN_MESSAGES.networkLoadingData}</p>}
      {phase === 'notFound' && <p className={css.bannerError} role="alert">{MONETIZATION_MESSAGES.notFound}</p>}
      {(phase === 'loadFailed' || phase === 'failed') && error && <p className={css.bannerError} role="alert">{error}</p>}
      {phase === 'editing' && error && <p className={css.bannerError} role="alert">{error}</p>}
      {phase === 'saved' && <p className={css.banner} role="status">{savedMessage}</p>}
      {phase === 'conflict' && (
        <div className={css.bannerError} role="alert">
          <p style={{ margin: 0 }}>{error}</p>
          <button type="button" className={ui.button.primary} onClick={() => send({ type: 'editor.reload' })}>Reload</button>
        </div>
      )}
      {loaded && (
        <form noValidate onSubmit={(e) => { e.preventDefault(); send({ type: 'editor.save' }); }}>
          <fieldset disabled={!canEdit || busy || phase === 'conflict'} style={{ border: 0, padding: 0, margin: 0 }}>{children}</fieldset>
          <div className={css.actions}>
            {canEdit && <button type="submit" className={ui.button.primary} disabled={!canSave || busy}>{phase === 'saving' ? 'Saving…' : saveLabel}</button>}
            <button type="button" className={ui.button.secondary} onClick={() => send({ type: 'editor.leave' })}>Close</button>
          </div>
        </form>
      )}
      {(phase === 'loadFailed') && (
        <div className={css.actions}>
          <button type="button" className={ui.button.primary} onClick={() => send({ type: 'editor.reload' })}>Try again</button>
        </div>
      )}
      <Modal
        open={confirmingLeave} title="Unsaved changes" negativeLabel="Stay" positiveLabel="Leave"
        onNegative={() => send({ type: 'editor.leaveCancel' })} onPositive={() => send({ type: 'editor.leaveConfirm' })}
      >
        {MONETIZATION_MESSAGES.leaveConfirm}
      </Modal>
    </section>
  );
}
