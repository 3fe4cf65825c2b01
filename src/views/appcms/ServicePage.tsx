/** AppCMS › Service (spec §2.7, §3): the service's fields, and the signing key shown masked with a rotate action behind a confirmation. */
import { useSelector } from '@xstate/react';
import { formatDateTime } from '../../../common/display-format';
import { APPCMS_ACTIONS, APPCMS_MESSAGES, SERVICE_TYPES, serviceTypeLabel } from '../../../common/appcms';
import { selectEditorPageActions, selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { selectEditorData } from '../../../machines/editor.machine';
import { selectActionError, selectActionMessage, selectActionPending, selectActionRunning } from '../../../machines/page-action.machine';
import * as ui from '../../theme/ui.css';
import { EditorPanel } from '../monetization/EditorPanel';
import { CheckboxField, ChoiceList, SelectField, TextField } from '../monetization/EditorFields';
import { Modal } from '../shared/Modal';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import { AppcmsFrame, type AppcmsScope } from './AppcmsFrame';
import * as css from './appcms.css';
import type { AppcmsActionRef, AppcmsEditorRef } from './appcms-page';

interface KeyData { signingKeyMasked: string; signingKeyRotatedAt: string | null }

/** The signing key the Service editor's record carries as its data (null until it is read). */
function keyDataOf(data: unknown): KeyData | null {
  if (typeof data !== 'object' || data === null || !('signingKeyMasked' in data) || typeof data.signingKeyMasked !== 'string') return null;
  const rotatedAt = 'signingKeyRotatedAt' in data && typeof data.signingKeyRotatedAt === 'string' ? data.signingKeyRotatedAt : null;
  return { signingKeyMasked: data.signingKeyMasked, signingKeyRotatedAt: rotatedAt };
}

function ServiceForm({ site, canEdit, editor, rotate }: AppcmsScope & { editor: AppcmsEditorRef; rotate: AppcmsActionRef }) {
  const data = keyDataOf(useSelector(editor, selectEditorData));
  const running = useSelector(rotate, selectActionRunning);
  const message = useSelector(rotate, selectActionMessage);
  const error = useSelector(rotate, selectActionError);
  const zone = useSiteTimeZone();
  const types = SERVICE_TYPES.map((t) => ({ value: t, label: serviceTypeLabel(t) }));
  return (
    <div className={css.editorLayout}>
      <EditorPanel editor={editor} title="Service" canEdit={canEdit} savedMessage={APPCMS_MESSAGES.saved}>
        <TextField editor={editor} field="serviceName" label="Service name" required disabled={!canEdit} />
        <SelectField editor={editor} field="serviceType" label="Main service type" required disabled={!canEdit} options={types} />
        <ChoiceList editor={editor} field="serviceTypes" label="Service types" required disabled={!canEdit} options={types} />
        <TextField editor={editor} field="languageCode" label="Language code (e.g. en, en-GB)" required disabled={!canEdit} />
        <TextField editor={editor} field="domainName" label="Domain name" required disabled={!canEdit} />
        <CheckboxField editor={editor} field="forceLogin" label="Viewers must sign in before watching" disabled={!canEdit} />
        <CheckboxField editor={editor} field="isMonetizationModelEnabled" label="Monetization enabled" disabled={!canEdit} />
      </EditorPanel>
      <section className={css.card} aria-label="Signing key">
        <h2 className={css.cardTitle}>Signing key</h2>
        <div className={css.keyRow}>
          <code data-testid="signing-key">{data?.signingKeyMasked ?? '…'}</code>
          {/* A read level is offered nothing it cannot do (the server refuses the rotation anyway). */}
          {canEdit && (
            <button type="button" className={ui.button.secondary} disabled={running !== null || !data}
              onClick={() => rotate.send({ type: 'action.request', name: APPCMS_ACTIONS.rotate, args: { site }, label: 'signing key' })}>
              {running ? 'Rotating…' : 'Rotate key'}
            </button>
          )}
        </div>
        <p className={css.help}>{data?.signingKeyRotatedAt ? `Last rotated ${formatDateTime(data.signingKeyRotatedAt, zone)}` : 'Never rotated.'}</p>
        {message && <p role="status" className={css.contrastOk}>{message}</p>}
        {error && <p role="alert" className={css.contrastLow}>{error}</p>}
      </section>
    </div>
  );
}

function ServiceEditor(scope: AppcmsScope) {
  // A rotation changes the stored key: the page machine opens its editor afresh on it.
  const page = usePageActor('appcmsService', { input: { id: scope.site, scope: { site: scope.site }, confirm: [APPCMS_ACTIONS.rotate], revisions: { kind: 'service', objectId: 'site' } } });
  const editor = useSelector(page, selectEditorPageEditor);
  const rotate = useSelector(page, selectEditorPageActions);
  const history = useSelector(page, selectEditorPageHistory);
  useEditorLeaveGuard(editor);
  const pending = useSelector(rotate, selectActionPending);
  return (
    <div>
      <ServiceForm {...scope} editor={editor} rotate={rotate} />
      {history && <div style={{ marginTop: '1.5rem' }}><EditorHistoryPanel history={history} editor={editor} /></div>}
      <Modal open={pending !== null} title="Rotate signing key" negativeLabel="Cancel" positiveLabel="Rotate"
        onNegative={() => rotate.send({ type: 'action.cancel' })} onPositive={() => rotate.send({ type: 'action.confirm' })}>
        {APPCMS_MESSAGES.rotateConfirm}
      </Modal>
    </div>
  );
}

export function ServicePage() {
  return (
    <AppcmsFrame title="Service" testId="appcms-service" perNetwork={false}>
      {(scope) => <ServiceEditor key={scope.site} {...scope} />}
    </AppcmsFrame>
  );
}
