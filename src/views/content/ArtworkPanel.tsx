/**
 * The item page's Artwork panel (issue 38): the item's stored thumbnail ("No artwork" when none; the
 * page's header draws the poster from its title then), and for a Content writer "Upload artwork" / "Replace artwork" with Create New's types and limits.
 * The `contentArtwork` page machine (machines/artwork-upload.machine.ts) with the Content wiring
 * file's I/O decides the flow; this view sends the chosen file and the item's version, and carries
 * the machine's `artwork.saved` to the item's editor (read again) and History, as the linked editors do.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ARTWORK_SPECS, CONTENT_CREATE_MESSAGES as M, type ContentItem } from '../../../common/content';
import { selectArtworkError, selectArtworkPhase } from '../../../machines/artwork-upload.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { useArtworkSavedRelay } from '../shared/use-linked-record-editors';
import * as ui from '../../theme/ui.css';
import { Thumbnail } from './ArtworkImage';
import * as css from './content.css';

export const ARTWORK_PANEL_TEXT = {
  title: 'Artwork',
  upload: 'Upload artwork',
  replace: 'Replace artwork',
  cancel: 'Cancel',
  retry: 'Retry',
  saving: 'Saving…',
  saved: 'Artwork saved.',
} as const;

export function ArtworkPanel({ item, writable, itemEditor, history }: {
  item: Pick<ContentItem, 'id' | 'title' | 'genre' | 'artworkUrl' | 'version'>; writable: boolean;
  itemEditor: ActorRefFrom<EditorMachine>; history?: PageHistoryRef;
}) {
  const panel = usePageActor('contentArtwork', { input: { id: item.id, slot: 'thumbnail' } });
  const phase = useSelector(panel, selectArtworkPhase);
  const error = useSelector(panel, selectArtworkError);
  // The item was saved with its new artwork: its editor reads it again (facts, version), its History too.
  useArtworkSavedRelay(panel, itemEditor, history);
  const spec = ARTWORK_SPECS.thumbnail;
  const busy = phase === 'uploading' || phase === 'saving';
  return (
    <section className={css.section} aria-labelledby="artwork-title">
      <h2 id="artwork-title" className={css.sectionTitle}>{ARTWORK_PANEL_TEXT.title}</h2>
      {/* The stored thumbnail (the page's header shows it large, or the poster drawn from the title). */}
      <Thumbnail url={item.artworkUrl} title={item.title} />
      {writable && (
        <div>
          <label className={ui.field} htmlFor="artwork-file">
            <span className={ui.label}>
              {item.artworkUrl ? ARTWORK_PANEL_TEXT.replace : ARTWORK_PANEL_TEXT.upload} ({spec.ratio.join(':')}, at least {spec.minWidth} × {spec.minHeight} px, PNG or WebP)
            </span>
            <input id="artwork-file" type="file" accept="image/png,image/webp" disabled={busy}
              onChange={(e) => { const file = e.target.files?.[0]; if (file) panel.send({ type: 'artwork.choose', file, version: item.version }); e.target.value = ''; }} />
          </label>
          {phase === 'uploading' && (
            <p role="status">
              {M.uploading} <button type="button" className={ui.button.ghost} onClick={() => panel.send({ type: 'artwork.cancel' })}>{ARTWORK_PANEL_TEXT.cancel}</button>
            </p>
          )}
          {phase === 'saving' && <p role="status">{ARTWORK_PANEL_TEXT.saving}</p>}
          {phase === 'saved' && <p className={css.savedText} role="status">{ARTWORK_PANEL_TEXT.saved}</p>}
          {phase === 'failed' && (
            <div role="alert">
              <p className={ui.errorText}>{error}</p>
              <button type="button" className={ui.button.primary} onClick={() => panel.send({ type: 'artwork.retry', version: item.version })}>{ARTWORK_PANEL_TEXT.retry}</button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
