/**
 * One video's lifecycle as the machine says it (machines/media-asset.machine.ts): for a writer the file
 * control (Upload / Replace video), the upload's bar with its percent, speed and time left, Cancel (asked
 * first), then Preparing with each rendition's progress, Viewable, Ready, or the error in words with Retry.
 * Readers see the status only. The site without encoding is told so instead of a file control.
 */
import { useSelector } from '@xstate/react';
import { formatBytes, MEDIA_MESSAGES, MEDIA_STATUS_WORDS, MEDIA_UPLOAD_WORDS } from '../../../common/messages/media';
import {
  selectCanChoose, selectIsConfirmingCancel, selectMediaAsset, selectMediaError, selectMediaPhase, selectUploadFigures, type MediaAssetRef,
} from '../../../machines/media-asset.machine';
import * as ui from '../../theme/ui.css';
import * as css from './media.css';

export const LIFECYCLE_TEXT = {
  upload: 'Upload a video',
  replace: 'Replace the video',
  accept: 'video/*,.mp4,.mov,.mkv,.webm',
  progress: 'Upload progress',
  cancel: 'Cancel upload',
  cancelQuestion: 'Cancel this upload? The bytes sent so far are dropped.',
  cancelConfirm: 'Yes, cancel it',
  keepGoing: 'Keep uploading',
  retry: 'Retry',
  loading: 'Loading the video…',
  none: 'No video yet.',
  interrupted: MEDIA_UPLOAD_WORDS.interrupted,
  chooseAgain: MEDIA_UPLOAD_WORDS.chooseAgain,
  cancelled: MEDIA_MESSAGES.cancelled,
  retrying: 'Starting the encoding again…',
} as const;

/** "1.2 MB/s, about 8 s left" (nothing until the speed is known). */
export function speedText(bytesPerSecond: number | null, secondsLeft: number | null): string {
  if (bytesPerSecond === null) return '';
  const left = secondsLeft === null ? '' : secondsLeft >= 120 ? `, about ${Math.ceil(secondsLeft / 60)} min left` : `, about ${secondsLeft} s left`;
  return `${formatBytes(Math.round(bytesPerSecond))}/s${left}`;
}

export function VideoLifecycle({ asset, writable, encodingEnabled }: { asset: MediaAssetRef; writable: boolean; encodingEnabled: boolean }) {
  const phase = useSelector(asset, selectMediaPhase);
  const record = useSelector(asset, selectMediaAsset);
  const error = useSelector(asset, selectMediaError);
  const canChoose = useSelector(asset, selectCanChoose);
  const confirming = useSelector(asset, selectIsConfirmingCancel);
  const figures = useSelector(asset, selectUploadFigures);
  const status = record && phase !== 'uploading' ? MEDIA_STATUS_WORDS[record.status] : null;

  return (
    <div>
      {phase === 'loading' && <p>{LIFECYCLE_TEXT.loading}</p>}
      {phase === 'empty' && <p>{LIFECYCLE_TEXT.none}</p>}
      {status && phase !== 'loading' && <p role="status" data-testid="video-status"><strong>{status}</strong>{record?.progress !== undefined && (phase === 'preparing' || phase === 'viewable') ? ` · ${record.progress} %` : ''}</p>}
      {(phase === 'preparing' || phase === 'viewable') && record && record.renditions.length > 0 && (
        <ul className={css.renditions} aria-label="Renditions">
          {record.renditions.map((r) => <li key={r.name}>{r.name}: {r.done ? 'done' : `${r.progress} %`}</li>)}
        </ul>
      )}
      {phase === 'interrupted' && <p role="status" data-testid="upload-interrupted">{LIFECYCLE_TEXT.interrupted(record?.title ?? '', record?.progress ?? 0)}</p>}
      {phase === 'uploading' && (
        <div role="status">
          <progress className={css.progress} aria-label={LIFECYCLE_TEXT.progress} max={100}
            {...(figures.percent === null ? {} : { value: figures.percent, 'aria-valuenow': figures.percent, 'aria-valuemin': 0, 'aria-valuemax': 100 })} />
          <p>{MEDIA_STATUS_WORDS.uploading}{figures.percent === null ? '' : ` ${figures.percent} %`}{speedText(figures.bytesPerSecond, figures.secondsLeft) ? ` · ${speedText(figures.bytesPerSecond, figures.secondsLeft)}` : ''}</p>
          {writable && !confirming && <button type="button" className={ui.button.ghost} onClick={() => asset.send({ type: 'media.cancel' })}>{LIFECYCLE_TEXT.cancel}</button>}
          {writable && confirming && (
            <div role="group" aria-label={LIFECYCLE_TEXT.cancelQuestion} className={css.row}>
              <span>{LIFECYCLE_TEXT.cancelQuestion}</span>
              <button type="button" className={ui.button.primary} onClick={() => asset.send({ type: 'media.cancelConfirm' })}>{LIFECYCLE_TEXT.cancelConfirm}</button>
              <button type="button" className={ui.button.ghost} onClick={() => asset.send({ type: 'media.cancelDismiss' })}>{LIFECYCLE_TEXT.keepGoing}</button>
            </div>
          )}
        </div>
      )}
      {phase === 'cancelling' && <p role="status">{LIFECYCLE_TEXT.cancelled}</p>}
      {phase === 'cancelled' && <p role="status">{error ?? LIFECYCLE_TEXT.cancelled}</p>}
      {phase === 'retrying' && <p role="status">{LIFECYCLE_TEXT.retrying}</p>}
      {(phase === 'errored' || phase === 'failed') && (
        <div role="alert">
          <p className={ui.errorText}>{error ?? record?.errorMessage ?? ''}</p>
          {(writable || phase === 'failed') && <button type="button" className={ui.button.primary} onClick={() => asset.send({ type: 'media.retry' })}>{LIFECYCLE_TEXT.retry}</button>}
        </div>
      )}
      {writable && !encodingEnabled && <p>{MEDIA_MESSAGES.encodingOff}</p>}
      {writable && encodingEnabled && (
        <label className={ui.field}>
          <span className={ui.label}>{phase === 'interrupted' ? LIFECYCLE_TEXT.chooseAgain : record ? LIFECYCLE_TEXT.replace : LIFECYCLE_TEXT.upload}</span>
          <input type="file" accept={LIFECYCLE_TEXT.accept} disabled={!canChoose}
            onChange={(e) => { const file = e.target.files?.[0]; if (file) asset.send({ type: 'media.choose', file, fileName: file.name }); e.target.value = ''; }} />
        </label>
      )}
    </div>
  );
}
