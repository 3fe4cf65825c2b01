/**
 * The real I/O actors of the content library: `loadList` (the fetch of its `list` child) and `bulkStatus`
 * of the contentBrowser machine, `load` and `save` of the generic editor for one content item. They read the credentials
 * from their cookies, pass the abort signal on, and turn the server's 404 / 409 into the failures
 * the machines branch on. The editor's draft holds form-shaped values (tags as one comma-separated
 * text, the go-live date as a local `datetime-local` value); the conversion both ways lives here.
 */
import { fromPromise } from 'xstate';
import { ROUTES } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import { createUndoActors, rememberRequestId } from './undo-actors';
import { lastingUndoMachine } from '../../machines/lasting-undo.machine';
import { editorDrafts } from './form-drafts';
import { contentCreateDraft } from './content-create-draft';
import {
  CONTENT_BULK_CONFLICT, contentBrowserMachine, contentFetchPage, contentListMachine, type BulkMatchingInput, type BulkOutcome, type BulkStatusInput, type ContentListPage, type LoadListInput,
} from '../../machines/content-browser.machine';
import {
  EDITOR_FAILURE, EditorFailure, editorMachine, type EditorLoadInput, type EditorRecord, type EditorSaveInput,
} from '../../machines/editor.machine';
import { contentRecordOf, contentUpdateOf, type ContentDetailData } from '../../machines/content-record';
import { COOKIE_NAMES } from '../../common/constants';
import { knownTimeZone } from '../../common/zoned-time';
import {
  contentCreateMachine, CreateFailure, type CreateSetup, type UploadArtworkInput, type UploadedArtwork,
} from '../../machines/content-create.machine';
import { type ContentCreateRequest, type ContentItem } from '../../common/content';
import { artworkUploadMachine, type SaveArtworkInput, type UploadArtworkPanelInput } from '../../machines/artwork-upload.machine';
import { uploadArtworkWithProgress } from './artwork-upload-xhr';
import { ApiError } from '../api/client';
import {
  createContentItem, fetchContentFamily, fetchContentItem, fetchContentList, setContentStatus, updateContentItem, uploadContentArtwork,
  type ContentCredentials,
} from '../api/content';
import { readCookie } from './cookies';
import { setStatusOfMatching } from '../api/content-availability';
import { editorPageMachine } from '../../machines/editor-page.machine';
import { pageHistoryMachine } from '../../machines/history.machine';
import { pageActionLogic, pageEditorMachine } from '../../machines/list-page.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { historyActors } from './history-io';
import { navigateTo } from './navigation';
import { readCredentials } from './session-store';
import { contentAvailabilityPanel, contentListPage, countryGroupsIo, licencesIo } from './content-availability-io';

function requireCredentials(read: () => ContentCredentials | null): ContentCredentials {
  const credentials = read();
  if (!credentials) throw new ApiError(MESSAGES.credentialsMissing, 401);
  return credentials;
}

function editorFailureOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === 404) return new EditorFailure(EDITOR_FAILURE.notFound, error.message);
  if (error.status === 409) return new EditorFailure(EDITOR_FAILURE.conflict, error.message);
  return error;
}

/** The detail answer with, for a series or an episode, its family (seasons and episodes, or its series). */
async function detailWithFamily(credentials: ContentCredentials, id: string, signal?: AbortSignal): Promise<ContentDetailData> {
  const detail = await fetchContentItem(credentials, id, signal);
  if (detail.item.kind !== 'series' && detail.item.kind !== 'episode') return detail;
  const family = await fetchContentFamily(credentials, id, signal);
  return { ...detail, family };
}

export function createContentActors(read: () => ContentCredentials | null = readCredentials, timeZone: () => unknown = () => readCookie(COOKIE_NAMES.defaultTimezone)) {
  // "Goes live at" is entered and shown in the site's default time zone (issue 29), as the availability panel's times.
  const zone = () => knownTimeZone(timeZone());
  return {
    /** One page of the library (the content browser's `list` child reads through it, issue 39). */
    loadList: async (input: LoadListInput, signal: AbortSignal): Promise<ContentListPage> => {
      const { status, q, ...rest } = input;
      const answer = await fetchContentList(requireCredentials(read), { ...rest, q, status: status ?? undefined }, signal);
      return { items: answer.items, total: answer.total, start: answer.start };
    },

    bulkStatus: fromPromise<BulkOutcome, BulkStatusInput>(async ({ input, signal }) => {
      try {
        const { requestId: handle, ...body } = input;
        const answer = await setContentStatus(requireCredentials(read), body, signal);
        rememberRequestId(handle, answer.requestId);
        // Issue 37: what the change did besides (a cancelled pending unpublish) goes to the snackbar too.
        return answer.message ? { updated: answer.updated, message: answer.message } : answer.updated;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) throw Object.assign(new Error(error.message), { code: CONTENT_BULK_CONFLICT });
        throw error;
      }
    }),

    /** "All matching" (issue 29): the server applies the status to the filter; 409 when the count changed. */
    bulkMatching: fromPromise<BulkOutcome, BulkMatchingInput>(async ({ input, signal }) => {
      try {
        const { filterStatus, q, ...rest } = input;
        const answer = await setStatusOfMatching(requireCredentials(read), { ...rest, ...(q ? { q } : {}), ...(filterStatus ? { filterStatus } : {}) }, signal);
        return answer.message ? { updated: answer.updated, message: answer.message } : answer.updated;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) throw Object.assign(new Error(error.message), { code: CONTENT_BULK_CONFLICT });
        throw error;
      }
    }),

    loadItem: fromPromise<EditorRecord, EditorLoadInput>(async ({ input, signal }) => {
      try {
        return contentRecordOf(await detailWithFamily(requireCredentials(read), input.id, signal), zone());
      } catch (error) {
        throw editorFailureOf(error);
      }
    }),

    saveItem: fromPromise<EditorRecord, EditorSaveInput>(async ({ input, signal }) => {
      const credentials = requireCredentials(read);
      try {
        const saved = await updateContentItem(credentials, input.id, contentUpdateOf(input.version, input.changes, zone()), signal);
        // Read back the whole detail so plays, QoS and the new version come from one answer; the save's own message (issue 37) goes along.
        const detail = await detailWithFamily(credentials, input.id, signal);
        return contentRecordOf(saved.message ? { ...detail, notice: saved.message } : detail, zone());
      } catch (error) {
        throw editorFailureOf(error);
      }
    }),
  };
}

/** The library's browsing machine with its REST actors (the root spawns it as `contentBrowser`). */
export function contentBrowserLogic(actors: ReturnType<typeof createContentActors> = createContentActors()) {
  return contentBrowserMachine.provide({
    actors: {
      list: contentListMachine.provide({ actors: { fetchPage: contentFetchPage(actors.loadList) } }),
      bulkStatus: actors.bulkStatus, bulkMatching: actors.bulkMatching,
      // Issue 38: the lasting Undo of the last bulk change (the snackbar's undo has the same I/O).
      lastBulk: lastingUndoMachine.provide({ actors: { applyUndo: createUndoActors().applyUndo } }),
    },
    // The library's state as the address (issue 29): the router reports it back as a route change.
    actions: { navigateUrl: (_, params: { to: string; replace: boolean }) => navigateTo(params.to, { replace: params.replace }) },
  });
}

/** The generic editor bound to one content item: REST load and save, and back to the library on leave. */
export function contentEditorLogic(deps: { actors?: ReturnType<typeof createContentActors>; leave?: () => void } = {}) {
  const actors = deps.actors ?? createContentActors();
  return editorMachine.provide({
    actors: { load: actors.loadItem, save: actors.saveItem },
    actions: { leave: deps.leave ?? (() => navigateTo(ROUTES.content)) },
  });
}

/**
 * The content item's page machine (issue 28): its editor (REST load and save), its History (the
 * item's revisions; a restore opens the editor afresh), and back to the library on leave.
 */
export function contentDetailPage(deps: {
  actors?: ReturnType<typeof createContentActors>;
  history?: ReturnType<typeof historyActors>;
  leave?: () => void;
} = {}) {
  const actors = deps.actors ?? createContentActors();
  // Issue 38: the item's typed changes kept across a reload (src/adapters/form-drafts.ts). A re-read
  // after an availability or artwork save keeps typing and moves the kept draft to the version read
  // (machines/editor.state.rereading.ts); a draft the record's version moved past is dropped when it
  // says nothing the stored item does not.
  const drafts = editorDrafts('content.item', actors.loadItem);
  return editorPageMachine.provide({
    actors: {
      editor: pageEditorMachine.provide({ actors: { load: drafts.load, save: drafts.save(actors.saveItem) }, actions: drafts.actions }),
      pageAction: pageActionLogic.provide({
        actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => { throw new Error(`No page action "${input.name}" on this page`); }) },
      }),
      history: pageHistoryMachine.provide({ actors: deps.history ?? historyActors() }),
    },
    actions: { leave: deps.leave ?? (() => navigateTo(ROUTES.content)) },
  });
}

/** The I/O of Create New (issue 29): the site's series and time zone, the artwork upload, the creation. */
export function createContentCreateIo(read: () => ContentCredentials | null = readCredentials, timeZone: () => unknown = () => readCookie(COOKIE_NAMES.defaultTimezone)) {
  return {
    loadSetup: fromPromise<CreateSetup, void>(async ({ signal }) => {
      const answer = await fetchContentList(requireCredentials(read), { mediaType: 'series', start: 0, limit: 100, max: 100, q: '', sort: 'title' }, signal);
      return {
        series: answer.items.map((item) => ({ id: item.id, title: item.title, ...(item.seasonNumbers ? { seasons: item.seasonNumbers } : {}) })),
        timeZone: knownTimeZone(timeZone()),
        draft: contentCreateDraft.read(),
      };
    }),
    uploadArtwork: fromPromise<UploadedArtwork, UploadArtworkInput>(async ({ input, signal }) => {
      const answer = await uploadContentArtwork(requireCredentials(read), input.slot, input.file, signal);
      return { url: answer.url, width: answer.width, height: answer.height };
    }),
    createItem: fromPromise<ContentItem, ContentCreateRequest>(async ({ input, signal }) => {
      try {
        return (await createContentItem(requireCredentials(read), input, signal)).item;
      } catch (error) {
        const fields = (error instanceof ApiError ? (error.body as { fields?: Record<string, string> } | undefined)?.fields : undefined) ?? {};
        // The server names its fields as the API does; the form's duration is in minutes.
        const { durationSeconds, ...rest } = fields;
        throw new CreateFailure(error instanceof Error ? error.message : String(error), durationSeconds ? { ...rest, durationMinutes: durationSeconds } : rest);
      }
    }),
  };
}

/** Create New's page machine: its I/O, the new item's page on success, the library on cancel. */
export function contentCreatePage(io: ReturnType<typeof createContentCreateIo> = createContentCreateIo()) {
  return contentCreateMachine.provide({
    actors: io,
    actions: {
      openCreated: (_, params) => { if (params.item) navigateTo(`/content/${params.item.kind}/${params.item.id}`); },
      leave: () => navigateTo(ROUTES.content),
      // Issue 38: on the one draft store (src/adapters/content-create-draft.ts), cleared on sign-out.
      keepDraft: (_, draft) => contentCreateDraft.keep(draft),
      forgetDraft: () => contentCreateDraft.forget(),
    },
  });
}

/** The item page's Artwork panel (issue 38): the upload of Create New, then the item saved with its address. */
export function contentArtworkPanel(read: () => ContentCredentials | null = readCredentials) {
  return artworkUploadMachine.provide({
    actors: {
      // Issue 38: over XMLHttpRequest, so the panel shows the bytes sent (fetch cannot tell them).
      uploadArtwork: fromPromise<{ url: string }, UploadArtworkPanelInput>(async ({ input, signal }) =>
        uploadArtworkWithProgress(requireCredentials(read), { ...input, signal })),
      saveArtwork: fromPromise<{ version: number }, SaveArtworkInput>(async ({ input, signal }) => {
        const field = input.slot === 'poster' ? 'posterUrl' : 'artworkUrl';
        const answer = await updateContentItem(requireCredentials(read), input.id, { version: input.version, [field]: input.url }, signal);
        return { version: answer.item.version };
      }),
    },
  });
}

type ContentPages = {
  contentDetail: ReturnType<typeof contentDetailPage>;
  contentCreate: ReturnType<typeof contentCreatePage>;
  contentAvailability: ReturnType<typeof contentAvailabilityPanel>;
  contentArtwork: ReturnType<typeof contentArtworkPanel>;
  countryGroups: ReturnType<typeof contentListPage>;
  licences: ReturnType<typeof contentListPage>;
};
let pages: ContentPages | undefined;

/**
 * The Content area's wiring file (issue 26): its page machines with their real I/O, made on first use
 * and read by src/adapters/page-logic.ts when a Content page first renders. (The library is the
 * session-wide `contentBrowser` area actor, src/adapters/area-actors.ts.)
 */
export function contentPages(): ContentPages {
  pages ??= {
    contentDetail: contentDetailPage(),
    contentCreate: contentCreatePage(),
    // Issue 29's browser side (content-availability-io.ts): the item's availability panel, Country groups, Video licences.
    contentAvailability: contentAvailabilityPanel(),
    contentArtwork: contentArtworkPanel(),
    countryGroups: contentListPage('countryGroups', countryGroupsIo()),
    licences: contentListPage('licences', licencesIo()),
  };
  return pages;
}
