/**
 * The content item's Video panel (issue 40): the item's video (status, preview, facts, captions) and for
 * a Content writer: upload (new or replacing, resumable), Choose from Media, captions per language (WebVTT
 * or SRT), and on the site without encoding the "attach an HLS address" form. Readers see the player and
 * the status, no control. The `mediaItemVideo` page machine (machines/media-item-video.machine.ts) decides
 * the flow; a video attached moves the item's version: its editor reads it again, its History too.
 */
import { useSelector } from '@xstate/react';
import { useEffect, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import type { ContentKind } from '../../../common/content';
import { OWN_MESSAGES } from '../../../common/messages';
import { MEDIA_MESSAGES, MEDIA_STATUS_WORDS, MEDIA_UPLOAD_WORDS } from '../../../common/messages/media';
import { canEdit } from '../../../common/roles';
import { selectRoles, selectSession } from '../../../machines/auth.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import { selectMediaAsset, type MediaAssetRef } from '../../../machines/media-asset.machine';
import {
  selectIsChoosing, selectItemVideoAsset, selectItemVideoBusy, selectItemVideoForms, selectItemVideoChoices, selectItemVideoError, selectItemVideoNotice, selectItemVideoPhase,
} from '../../../machines/media-item-video.machine';
import {
  selectHasLeftVideo, selectIsConfirmingVideoLeave, selectVideoFormValues, selectVideoLeaveReason, type VideoFormField, type VideoFormsRef,
} from '../../../machines/media-video-forms.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import * as css from '../content/content.css';
import { Modal } from '../shared/Modal';
import { useLeaveGuard } from '../shared/use-editor-leave-guard';
import { VideoFacts } from './MediaAssetPage';
import { VideoLifecycle } from './VideoLifecycle';
import { VideoPlayer } from './VideoPlayer';
import * as own from './media.css';

export const ITEM_VIDEO_TEXT = {
  title: 'Video',
  choose: 'Choose from Media',
  attach: (title: string) => `Attach "${title}"`,
  noChoices: 'No ready video in Media yet.',
  cancel: 'Cancel',
  externalTitle: 'Title',
  externalUrl: 'HLS address (.m3u8)',
  externalSubmit: 'Attach the address',
  captions: 'Captions',
  captionsLanguage: 'Language code (en, fr, pt-BR)',
  captionsLabel: 'Label',
  captionsFile: 'Captions file (WebVTT or SRT)',
  noCaptions: 'No captions yet.',
  publishNeeds: 'Publishing this item needs a ready video.',
  tryAgain: 'Try again',
  loading: 'Loading the video…',
  leaveUploadTitle: 'The upload is still running',
} as const;

const VIDEO_KINDS: readonly ContentKind[] = ['video', 'episode', 'live'];

function useField(forms: VideoFormsRef, field: VideoFormField) {
  const value = useSelector(forms, (s) => selectVideoFormValues(s)[field]);
  return { value, onChange: (e: { target: { value: string } }) => forms.send({ type: 'forms.field', field, value: e.target.value }) };
}

function ExternalForm({ forms, disabled }: { forms: VideoFormsRef; disabled: boolean }) {
  const title = useField(forms, 'externalTitle');
  const hlsUrl = useField(forms, 'externalUrl');
  const submit = (e: FormEvent) => { e.preventDefault(); forms.send({ type: 'forms.submitExternal' }); };
  return (
    <form onSubmit={submit} aria-label={ITEM_VIDEO_TEXT.externalSubmit}>
      <label className={ui.field}><span className={ui.label}>{ITEM_VIDEO_TEXT.externalTitle}</span>
        <input className={ui.input} {...title} maxLength={200} /></label>
      <label className={ui.field}><span className={ui.label}>{ITEM_VIDEO_TEXT.externalUrl}</span>
        <input className={ui.input} type="url" {...hlsUrl} maxLength={2000} /></label>
      <button type="submit" className={ui.button.primary} disabled={disabled}>{ITEM_VIDEO_TEXT.externalSubmit}</button>
    </form>
  );
}

function CaptionsForm({ forms, disabled }: { forms: VideoFormsRef; disabled: boolean }) {
  const language = useField(forms, 'captionsLanguage');
  const label = useField(forms, 'captionsLabel');
  return (
    <div className={own.row}>
      <label className={ui.field}><span className={ui.label}>{ITEM_VIDEO_TEXT.captionsLanguage}</span>
        <input className={ui.input} {...language} maxLength={20} /></label>
      <label className={ui.field}><span className={ui.label}>{ITEM_VIDEO_TEXT.captionsLabel}</span>
        <input className={ui.input} {...label} maxLength={60} /></label>
      <label className={ui.field}><span className={ui.label}>{ITEM_VIDEO_TEXT.captionsFile}</span>
        <input type="file" accept=".vtt,.srt,text/vtt" disabled={disabled} onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void file.text().then((text) => forms.send({ type: 'forms.submitCaptions', format: /\.srt$/i.test(file.name) ? 'srt' : 'vtt', text }));
        }} /></label>
    </div>
  );
}

/** Asked before a navigation would stop the upload or lose typed text (the forms machine decides). */
function VideoLeaveQuestion({ forms }: { forms: VideoFormsRef }) {
  useLeaveGuard(forms, { navigate: { type: 'forms.navigate' }, isConfirming: selectIsConfirmingVideoLeave, hasLeft: selectHasLeftVideo });
  const open = useSelector(forms, selectIsConfirmingVideoLeave);
  const reason = useSelector(forms, selectVideoLeaveReason);
  return (
    <Modal open={open} title={reason === 'upload' ? ITEM_VIDEO_TEXT.leaveUploadTitle : 'Unsaved changes'} negativeLabel="Stay" positiveLabel="Leave"
      onNegative={() => forms.send({ type: 'forms.stay' })} onPositive={() => forms.send({ type: 'forms.leave' })}>
      <p>{reason === 'upload' ? MEDIA_UPLOAD_WORDS.leaveStopsUpload : OWN_MESSAGES.editorLeaveConfirm}</p>
    </Modal>
  );
}

function AttachedVideo({ asset, title, writable, encodingEnabled }: { asset: MediaAssetRef; title: string; writable: boolean; encodingEnabled: boolean }) {
  const record = useSelector(asset, selectMediaAsset);
  const playable = record !== null && (record.status === 'viewable' || record.status === 'ready');
  return (
    <>
      {/* Keyed by the status too: a viewable video's player starts again once it is ready (the whole ladder, the storyboard). */}
      {playable && <VideoPlayer key={`${record.id}:${record.status}`} assetId={record.id} title={title} />}
      <VideoLifecycle asset={asset} writable={writable} encodingEnabled={encodingEnabled} />
      <VideoFacts asset={asset} />
      {record?.encrypted && <p>{MEDIA_MESSAGES.drmNotice}</p>}
      {record && record.status !== 'ready' && <p data-testid="publish-needs">{ITEM_VIDEO_TEXT.publishNeeds} ({MEDIA_STATUS_WORDS[record.status]})</p>}
      {record && (
        <>
          <h3>{ITEM_VIDEO_TEXT.captions}</h3>
          {record.captions.length === 0 ? <p>{ITEM_VIDEO_TEXT.noCaptions}</p>
            : <ul>{record.captions.map((c) => <li key={c.language}>{c.label || c.language} ({c.language})</li>)}</ul>}
        </>
      )}
    </>
  );
}

export function ItemVideoPanel({ item, writable: canWrite, itemEditor, history }: {
  item: { id: string; kind: ContentKind; title: string; version: number }; writable?: boolean; itemEditor?: ActorRefFrom<EditorMachine>; history?: PageHistoryRef;
}) {
  const panel = usePageActor('mediaItemVideo', { input: { contentItemId: item.id } });
  const auth = useAppActor('auth');
  const roleWritable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
  const writable = canWrite ?? roleWritable;
  const encodingEnabled = useSelector(auth, (s) => selectSession(s)?.encodingEnabled ?? true);
  const phase = useSelector(panel, selectItemVideoPhase);
  const asset = useSelector(panel, selectItemVideoAsset);
  const error = useSelector(panel, selectItemVideoError);
  const notice = useSelector(panel, selectItemVideoNotice);
  const busy = useSelector(panel, selectItemVideoBusy);
  const choosing = useSelector(panel, selectIsChoosing);
  const choices = useSelector(panel, selectItemVideoChoices);
  const hasVideo = useSelector(panel, (s) => s.context.assetId !== null);
  const forms = useSelector(panel, selectItemVideoForms);
  // A video attached (here, or by the server once an upload's last byte arrived): the item's editor and History read again.
  useEffect(() => {
    const attached = panel.on('video.attached', (event) => {
      if (event.version !== null) itemEditor?.send({ type: 'editor.recordMoved', from: item.version, to: event.version });
      history?.send({ type: 'history.reload' });
    });
    return () => attached.unsubscribe();
  }, [panel, itemEditor, history, item.version]);
  useEffect(() => {
    if (!asset) return undefined;
    const prepared = asset.on('media.status', (event) => { if (event.status === 'preparing') history?.send({ type: 'history.reload' }); });
    return () => prepared.unsubscribe();
  }, [asset, history]);

  if (!VIDEO_KINDS.includes(item.kind)) return null;
  return (
    <section className={css.section} aria-labelledby="item-video-title">
      <h2 id="item-video-title" className={css.sectionTitle}>{ITEM_VIDEO_TEXT.title}</h2>
      {phase === 'loading' && <p>{ITEM_VIDEO_TEXT.loading}</p>}
      {phase === 'failed' && (
        <div role="alert">
          <p className={ui.errorText}>{error}</p>
          <button type="button" className={ui.button.primary} onClick={() => panel.send({ type: 'video.reload' })}>{ITEM_VIDEO_TEXT.tryAgain}</button>
        </div>
      )}
      {forms && writable && <VideoLeaveQuestion forms={forms} />}
      {asset && <AttachedVideo asset={asset} title={item.title} writable={writable} encodingEnabled={encodingEnabled} />}
      {phase === 'showing' && error && <p className={ui.errorText} role="alert">{error}</p>}
      {phase === 'showing' && notice && <p className={css.savedText} role="status">{notice}</p>}
      {phase === 'showing' && writable && (
        <div className={css.editArea}>
          {!choosing && <button type="button" className={ui.button.ghost} disabled={busy} onClick={() => panel.send({ type: 'video.pick' })}>{ITEM_VIDEO_TEXT.choose}</button>}
          {choosing && (
            <div role="group" aria-label={ITEM_VIDEO_TEXT.choose}>
              {choices.length === 0 && <p>{ITEM_VIDEO_TEXT.noChoices}</p>}
              <ul>
                {choices.map((c) => (
                  <li key={c.id}><button type="button" className={ui.button.ghost} onClick={() => panel.send({ type: 'video.attach', assetId: c.id })}>{ITEM_VIDEO_TEXT.attach(c.title)}</button></li>
                ))}
              </ul>
              <button type="button" className={ui.button.ghost} onClick={() => panel.send({ type: 'video.pickCancel' })}>{ITEM_VIDEO_TEXT.cancel}</button>
            </div>
          )}
          {!encodingEnabled && forms && <ExternalForm forms={forms} disabled={busy} />}
          {hasVideo && forms && <CaptionsForm forms={forms} disabled={busy} />}
        </div>
      )}
    </section>
  );
}
