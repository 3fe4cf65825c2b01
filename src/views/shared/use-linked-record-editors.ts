/**
 * Two editors of ONE record on one page (the content item's fields and its availability share the
 * item's version, issue 29): each one's save (`editor.versionMoved`) is passed to the other as
 * `editor.recordMoved`. The editor machine decides what follows (read again when it has no changes,
 * else move its version so its next Save is not refused for a save made on this same page); this
 * only carries the event, like the router's reports in src/main.tsx. The record's History, when the
 * page shows one, is told to read its revisions again after a save of `a` (the page machine already
 * reads it after its own editor's save).
 */
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { EditorEmitted, EditorMachine } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import type { ArtworkUploadRef } from '../../../machines/artwork-upload.machine';

type EditorRef = ActorRefFrom<EditorMachine>;

export function useLinkedRecordEditors(a: EditorRef, b: EditorRef, history?: PageHistoryRef): void {
  useEffect(() => {
    const relay = (to: EditorRef) => (event: EditorEmitted) => to.send({ type: 'editor.recordMoved', from: event.from, to: event.to });
    const subscriptions = [
      a.on('editor.versionMoved', (event) => {
        relay(b)(event);
        history?.send({ type: 'history.reload' });
      }),
      b.on('editor.versionMoved', relay(a)),
    ];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [a, b, history]);
}

/**
 * The item's artwork saved from its panel (issue 38, `artwork.saved`): the item's editor reads the
 * record again at its new version (`editor.recordMoved`), and its History its revisions. Carried like
 * the editors' own saves above; the machines decide what follows.
 */
export function useArtworkSavedRelay(panel: ArtworkUploadRef, itemEditor: EditorRef, history?: PageHistoryRef): void {
  useEffect(() => {
    const subscription = panel.on('artwork.saved', (event) => {
      itemEditor.send({ type: 'editor.recordMoved', from: event.from, to: event.to });
      history?.send({ type: 'history.reload' });
    });
    return () => subscription.unsubscribe();
  }, [panel, itemEditor, history]);
}
