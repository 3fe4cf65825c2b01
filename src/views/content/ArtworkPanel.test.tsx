import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Roles } from '../../../common/contract';
import { CONTENT_CREATE_MESSAGES as M } from '../../../common/content';
import { artworkUploadMachine, type SaveArtworkInput, type UploadArtworkPanelInput } from '../../../machines/artwork-upload.machine';
import { editorMachine, type EditorRecord, type EditorSaveInput } from '../../../machines/editor.machine';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { signedInAs } from '../../test-harness/content-fixtures';
import { renderView } from '../../test-harness/render-view';
import { ARTWORK_PANEL_TEXT, ArtworkPanel, POSTER_PANEL_TEXT } from './ArtworkPanel';

const ID = '55555555-5555-4555-8555-555555555555';
const URL_A = `/v2.0/appcms/files/11111111-2222-4333-8444-555555555555/${'a'.repeat(64)}.png`;
const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });
const item = (artworkUrl = '') => ({ id: ID, title: 'Storm Coast', genre: 'Drama', artworkUrl, version: 3 });

/** The item's editor: counts its reads (the panel's save makes it read the item again). */
function itemEditor() {
  const reads = { count: 0 };
  const record: EditorRecord = { id: ID, values: { title: 'Storm Coast' }, version: 3, data: null };
  const actor = createActor(editorMachine.provide({
    actors: {
      load: fromPromise(async () => { reads.count += 1; return { ...record, version: 3 + reads.count - 1 }; }),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ ...record, values: input.draft, version: input.version + 1 })),
    },
  }), { input: { id: ID } }).start();
  return { actor, reads };
}

function panelLogic(upload: () => unknown, save: (input: SaveArtworkInput) => unknown) {
  const saves: SaveArtworkInput[] = [];
  const logic = artworkUploadMachine.provide({
    actors: { uploadArtwork: fakeActor(upload), saveArtwork: fakeActor((input: SaveArtworkInput) => { saves.push(input); return save(input); }) },
  });
  return { logic, saves };
}

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'storm.png', { type: 'image/png' });

describe('ArtworkPanel (issue 38)', () => {
  it('uploads and saves the chosen artwork with the item\'s version, then the item reads again', async () => {
    const { logic, saves } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    const editor = itemEditor();
    await waitFor(() => expect(editor.actor.getSnapshot().matches('editing')).toBe(true));
    await renderView(<ArtworkPanel item={item()} writable itemEditor={editor.actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    expect(screen.getByRole('img', { name: 'Thumbnail of Storm Coast: no artwork' }).textContent).toBe('No artwork');
    const input = screen.getByLabelText(/^Upload artwork \(16:9, at least 320 × 180 px, PNG or WebP\)/);
    expect(input.getAttribute('accept')).toBe('image/png,image/webp');
    await userEvent.upload(input, png());
    await screen.findByText(ARTWORK_PANEL_TEXT.saved);
    expect(saves).toEqual([{ id: ID, slot: 'thumbnail', url: URL_A, version: 3 }]);
    await waitFor(() => expect(editor.reads.count).toBe(2));
  });

  it('names the control "Replace artwork" when the item has artwork', async () => {
    const { logic } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    await renderView(<ArtworkPanel item={item(URL_A)} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    expect(screen.getByLabelText(/^Replace artwork/).getAttribute('type')).toBe('file');
    expect(screen.getByRole('img', { name: 'Thumbnail of Storm Coast' }).getAttribute('src')).toBe(URL_A);
    expect(screen.queryByLabelText(/^Upload artwork/)).toBeNull();
  });

  it('shows the server\'s refusal and retries', async () => {
    let refuse = true;
    const { logic, saves } = panelLogic(() => {
      if (refuse) throw Object.assign(new Error(M.artworkRatio('Thumbnail', 16, 9, 400, 600)), { status: 400 });
      return { url: URL_A };
    }, () => ({ version: 4 }));
    await renderView(<ArtworkPanel item={item()} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    await userEvent.upload(screen.getByLabelText(/^Upload artwork/), png());
    expect((await screen.findByRole('alert')).textContent).toContain(M.artworkRatio('Thumbnail', 16, 9, 400, 600));
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: ARTWORK_PANEL_TEXT.retry }));
    await screen.findByText(ARTWORK_PANEL_TEXT.saved);
    expect(saves).toHaveLength(1);
  });

  it('Cancel while uploading keeps the artwork as it was', async () => {
    const logic = artworkUploadMachine.provide({ actors: { uploadArtwork: pendingActor(), saveArtwork: pendingActor() } });
    await renderView(<ArtworkPanel item={item()} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    await userEvent.upload(screen.getByLabelText(/^Upload artwork/), png());
    expect(screen.getByRole('status').textContent).toContain(M.uploading);
    expect((screen.getByLabelText(/^Upload artwork/) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: ARTWORK_PANEL_TEXT.cancel }));
    expect(screen.queryByRole('status')).toBeNull();
    expect((screen.getByLabelText(/^Upload artwork/) as HTMLInputElement).disabled).toBe(false);
  });

  it('a Content reader sees the artwork but no upload control', async () => {
    const { logic } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    await renderView(<ArtworkPanel item={item()} writable={false} itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('read') });
    expect(screen.getByRole('heading', { name: 'Artwork' }).tagName).toBe('H2');
    expect(screen.getByRole('img', { name: 'Thumbnail of Storm Coast: no artwork' }).textContent).toBe('No artwork');
    expect(screen.queryByLabelText(/artwork \(16:9/)).toBeNull();
  });

  it('shows the bytes sent as a progress bar with its percent while uploading; Cancel still stops it', async () => {
    let report: UploadArtworkPanelInput['progress'] | undefined;
    let aborted = false;
    const logic = artworkUploadMachine.provide({
      actors: {
        uploadArtwork: fromPromise<{ url: string }, UploadArtworkPanelInput>(({ input, signal }) => new Promise((_, reject) => {
          report = input.progress;
          signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
        })),
        saveArtwork: pendingActor(),
      },
    });
    await renderView(<ArtworkPanel item={item()} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    await userEvent.upload(screen.getByLabelText(/^Upload artwork/), png());
    const bar = screen.getByRole('progressbar', { name: ARTWORK_PANEL_TEXT.progress });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    await waitFor(() => expect(report).toBeDefined());
    act(() => report?.send({ type: 'upload.progressed', loaded: 3 * 1024, total: 4 * 1024 }));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('75');
    expect(screen.getByRole('status').textContent).toContain(`${M.uploading} 75%`);
    // The browser cannot tell the total: the bar shows no value and no percent is claimed.
    act(() => report?.send({ type: 'upload.progressed', loaded: 10, total: 0 }));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    expect(screen.getByRole('status').textContent).not.toContain('%');
    await userEvent.click(screen.getByRole('button', { name: ARTWORK_PANEL_TEXT.cancel }));
    expect(aborted).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('the poster variant uploads and saves the item\'s poster (2:3), in its own words', async () => {
    const { logic, saves } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    await renderView(<ArtworkPanel slot="poster" item={{ ...item(), posterUrl: '' }} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    const section = screen.getByRole('region', { name: POSTER_PANEL_TEXT.title });
    expect(within(section).getByRole('img', { name: 'Poster of Storm Coast: no artwork' })).toBeTruthy();
    await userEvent.upload(within(section).getByLabelText(/^Upload poster \(2:3, at least 240 × 360 px, PNG or WebP\)/), png());
    await screen.findByText(POSTER_PANEL_TEXT.saved);
    expect(saves).toEqual([{ id: ID, slot: 'poster', url: URL_A, version: 3 }]);
  });

  it('the poster variant shows the stored poster with "Replace poster"; a reader gets no control', async () => {
    const { logic } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    await renderView(<ArtworkPanel slot="poster" item={{ ...item(), posterUrl: URL_A }} writable itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('write') });
    expect(screen.getByRole('img', { name: 'Poster of Storm Coast' }).getAttribute('src')).toBe(URL_A);
    expect(screen.getByLabelText(/^Replace poster/).getAttribute('type')).toBe('file');
  });

  it('a reader sees the series\' poster but no control', async () => {
    const { logic } = panelLogic(() => ({ url: URL_A }), () => ({ version: 4 }));
    await renderView(<ArtworkPanel slot="poster" item={{ ...item(), posterUrl: URL_A }} writable={false} itemEditor={itemEditor().actor} />, { pages: { contentArtwork: logic }, actors: as('read') });
    expect(screen.getByRole('img', { name: 'Poster of Storm Coast' })).toBeTruthy();
    expect(screen.queryByLabelText(/poster \(2:3/)).toBeNull();
  });
});
