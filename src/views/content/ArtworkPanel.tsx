/**
 * The item page's Artwork panel (issue 38): the item's stored thumbnail ("No artwork" when none; the
 * page's header draws the poster from its title then), and for a Content writer "Upload artwork" / "Replace artwork" with Create New's types and limits.
 * A series' page shows a second panel for its poster (`slot="poster"`: the item's posterUrl, 2:3).
 * The `contentArtwork` page machine (machines/artwork-upload.machine.ts) with the Content wiring
 * file's I/O decides the flow; this view sends the chosen file and the item's version, shows the bytes
 * sent while uploading (a progress bar with its percent), and carries the machine's `artwork.saved` to
 * the item's editor (read again) and History, as the linked editors do.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ARTWORK_SPECS, CONTENT_CREATE_MESSAGES as M, type ArtworkSlot, type ContentItem } from '../../../common/content';
import { selectArtworkError, selectArtworkPhase, selectUploadPercent } from '../../../machines/artwork-upload.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { useArtworkSavedRelay } from '../shared/use-linked-record-editors';
import * as ui from '../../theme/ui.css';
import { ArtworkImage, Thumbnail } from './ArtworkImage';
import * as css from './content.css';
import * as createCss from './create.css';

export const ARTWORK_PANEL_TEXT = {
  title: 'Artwork',
  upload: 'Upload artwork',
  replace: 'Replace artwork',
  cancel: 'Cancel',
  retry: 'Retry',
  saving: 'Saving…',
  saved: 'Artwork saved.',
  /** The bar's name while uploading. */
  progress: 'Upload progress',
} as const;

/** The poster panel's own words (a series' poster, issue 38). */
export const POSTER_PANEL_TEXT = {
  title: 'Poster',
  upload: 'Upload poster',
  replace: 'Replace poster',
  saved: 'Poster saved.',
} as const;

type PanelItem = Pick<ContentItem, 'id' | 'title' | 'genre' | 'artworkUrl' | 'version'> & { posterUrl?: string };

export function ArtworkPanel({ item, writable, itemEditor, history, slot = 'thumbnail' }: {
  item: PanelItem; writable: boolean; itemEditor: ActorRefFrom<EditorMachine>; history?: PageHistoryRef; slot?: ArtworkSlot;
}) {
  const panel = usePageActor('contentArtwork', { input: { id: item.id, slot } });
  const phase = useSelector(panel, selectArtworkPhase);
  const error = useSelector(panel, selectArtworkError);
  const percent = useSelector(panel, selectUploadPercent);
  // The item was saved with its new artwork: its editor reads it again (facts, version), its History too.
  useArtworkSavedRelay(panel, itemEditor, history);
  const spec = ARTWORK_SPECS[slot];
  const text = slot === 'poster' ? { ...ARTWORK_PANEL_TEXT, ...POSTER_PANEL_TEXT } : ARTWORK_PANEL_TEXT;
  const stored = slot === 'poster' ? item.posterUrl ?? '' : item.artworkUrl;
  const busy = phase === 'uploading' || phase === 'saving';
  const titleId = `${slot}-panel-title`;
  const fileId = `${slot}-panel-file`;
  return (
    <section className={css.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={css.sectionTitle}>{text.title}</h2>
      {/* The stored image (for the thumbnail, the page's header shows it large, or the poster drawn from the title). */}
      {slot === 'poster'
        ? <ArtworkImage url={stored} alt={`Poster of ${item.title}`} className={createCss.poster} boxClassName={createCss.posterBox} />
        : <Thumbnail url={stored} title={item.title} />}
      {writable && (
        <div>
          <label className={ui.field} htmlFor={fileId}>
            <span className={ui.label}>
              {stored ? text.replace : text.upload} ({spec.ratio.join(':')}, at least {spec.minWidth} × {spec.minHeight} px, PNG or WebP)
            </span>
            <input id={fileId} type="file" accept="image/png,image/webp" disabled={busy}
              onChange={(e) => { const file = e.target.files?.[0]; if (file) panel.send({ type: 'artwork.choose', file, version: item.version }); e.target.value = ''; }} />
          </label>
          {phase === 'uploading' && (
            <div role="status">
              <progress aria-label={text.progress} max={100}
                {...(percent === null ? {} : { value: percent, 'aria-valuenow': percent, 'aria-valuemin': 0, 'aria-valuemax': 100 })} />
              {' '}{M.uploading}{percent === null ? '' : ` ${percent}%`}
              {' '}<button type="button" className={ui.button.ghost} onClick={() => panel.send({ type: 'artwork.cancel' })}>{text.cancel}</button>
            </div>
          )}
          {phase === 'saving' && <p role="status">{text.saving}</p>}
          {phase === 'saved' && <p className={css.savedText} role="status">{text.saved}</p>}
          {phase === 'failed' && (
            <div role="alert">
              <p className={ui.errorText}>{error}</p>
              <button type="button" className={ui.button.primary} onClick={() => panel.send({ type: 'artwork.retry', version: item.version })}>{text.retry}</button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
