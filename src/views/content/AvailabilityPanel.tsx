/**
 * The item page's availability panel (issue 29): publish at / unpublish at, shown and entered in the
 * site's default time zone (the availability answer names it), the country groups the item is
 * limited to, and its licence windows; saved through PUT /v2.0/content/:id/availability. A refusal
 * (outside a licence, a time in the past) shows the server's message. Read roles see it without Save.
 * The `contentAvailability` page machine (machines/editor.machine.ts) with the Content wiring file's I/O.
 */
import { useSelector } from '@xstate/react';
import { AVAILABILITY_MESSAGES as M, type Licence } from '../../../common/content-availability';
import { formatDateTime } from '../../../common/display-format';
import type { ActorRefFrom } from 'xstate';
import {
  selectCanSave, selectEditorData, selectEditorError, selectEditorPhase, selectIsBusy, selectIsConfirmingLeave, type EditorMachine,
} from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import { useLinkedRecordEditors } from '../shared/use-linked-record-editors';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { ChoiceList, TextField } from '../monetization/EditorFields';
import * as css from './content.css';

interface AvailabilityView { timezone: string; status: string; licences: Licence[]; groups: { id: string; name: string }[] }

export function AvailabilityPanel({ id, writable, itemEditor, history }: {
  id: string; writable: boolean; itemEditor: ActorRefFrom<EditorMachine>; history?: PageHistoryRef;
}) {
  const editor = usePageActor('contentAvailability', { input: { id } });
  // The item's edit form saves the same record: each save moves the other's version (or reads it
  // again); the item's History reads the availability's revision.
  useLinkedRecordEditors(editor, itemEditor, history);
  // Issue 38: changed times are not lost to a tab link or the back button either (the one leave guard).
  useEditorLeaveGuard(editor);
  const confirmingLeave = useSelector(editor, selectIsConfirmingLeave);
  const phase = useSelector(editor, selectEditorPhase);
  const error = useSelector(editor, selectEditorError);
  const canSave = useSelector(editor, selectCanSave);
  const busy = useSelector(editor, selectIsBusy);
  const data = useSelector(editor, (s) => selectEditorData(s) as AvailabilityView | null);
  const zone = data?.timezone ?? 'UTC';
  const disabled = !writable || busy || phase === 'conflict';
  return (
    <section className={css.section} aria-labelledby="availability-title">
      <h2 id="availability-title" className={css.sectionTitle}>Availability</h2>
      {phase === 'loading' && !data && <p role="status">Loading…</p>}
      {(phase === 'loadFailed' || phase === 'notFound') && (
        <div className={css.notice} role="alert">
          <p className={ui.errorText}>{error}</p>
          <button type="button" className={ui.button.primary} onClick={() => editor.send({ type: 'editor.reload' })}>Try again</button>
        </div>
      )}
      {data && (
        <form className={css.form} noValidate onSubmit={(e) => { e.preventDefault(); editor.send({ type: 'editor.save' }); }}>
          <TextField editor={editor} field="publishAt" label="Publish at" type="datetime-local" disabled={disabled} />
          <TextField editor={editor} field="unpublishAt" label="Unpublish at" type="datetime-local" disabled={disabled} />
          <div className={css.wide}>
            <ChoiceList editor={editor} field="countryGroupIds" label="Country groups" disabled={disabled}
              options={data.groups.map((g) => ({ value: g.id, label: g.name }))} />
          </div>
          <div className={css.wide}>
            <p className={ui.label}>Licences</p>
            {data.licences.length === 0
              ? <p>No licence: the item may be published at any time.</p>
              : (
                <ul aria-label="Licences">
                  {data.licences.map((l) => <li key={l.id}>{`${l.name}: ${formatDateTime(l.startsAt, zone)} – ${formatDateTime(l.endsAt, zone)}`}</li>)}
                </ul>
              )}
          </div>
          {error && phase !== 'loadFailed' && phase !== 'notFound' && (
            <div className={`${css.notice} ${css.wide}`} role="alert">
              <p className={ui.errorText}>{error}</p>
              {phase === 'conflict' && <button type="button" className={ui.button.primary} onClick={() => editor.send({ type: 'editor.reload' })}>Reload</button>}
            </div>
          )}
          {/* "Update", not "Save": the item's edit form below has the page's Save. */}
          {writable && (
            <div className={css.formActions}>
              <button type="submit" className={ui.button.primary} disabled={!canSave || busy}>{phase === 'saving' ? 'Saving…' : 'Update availability'}</button>
              {phase === 'saved' && <span className={css.savedText} role="status">{M.availabilitySaved}</span>}
            </div>
          )}
        </form>
      )}
      <LeaveQuestion open={confirmingLeave} onStay={() => editor.send({ type: 'editor.leaveCancel' })} onLeave={() => editor.send({ type: 'editor.leaveConfirm' })} />
    </section>
  );
}
