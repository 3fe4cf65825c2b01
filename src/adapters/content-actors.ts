/**
 * The real I/O actors of the content library: `loadList` and `bulkStatus` of the contentBrowser
 * machine, `load` and `save` of the generic editor for one content item. They read the credentials
 * from their cookies, pass the abort signal on, and turn the server's 404 / 409 into the failures
 * the machines branch on. The editor's draft holds form-shaped values (tags as one comma-separated
 * text, the go-live date as a local `datetime-local` value); the conversion both ways lives here.
 */
import { fromPromise } from 'xstate';
import { ROUTES } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import {
  CONTENT_BULK_CONFLICT, contentBrowserMachine, type BulkStatusInput, type ContentListPage, type LoadListInput,
} from '../../machines/content-browser.machine';
import {
  EDITOR_FAILURE, EditorFailure, editorMachine, type EditorLoadInput, type EditorRecord, type EditorSaveInput,
} from '../../machines/editor.machine';
import { contentRecordOf, contentUpdateOf } from '../../machines/content-record';
import { ApiError } from '../api/client';
import {
  fetchContentItem, fetchContentList, setContentStatus, updateContentItem, type ContentCredentials,
} from '../api/content';
import { navigateTo } from './navigation';
import { readCredentials } from './session-store';

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

export function createContentActors(read: () => ContentCredentials | null = readCredentials) {
  return {
    loadList: fromPromise<ContentListPage, LoadListInput>(async ({ input, signal }) => {
      const { status, q, ...rest } = input;
      const answer = await fetchContentList(requireCredentials(read), { ...rest, q, status: status ?? undefined }, signal);
      return { items: answer.items, total: answer.total, start: answer.start };
    }),

    bulkStatus: fromPromise<number, BulkStatusInput>(async ({ input, signal }) => {
      try {
        return (await setContentStatus(requireCredentials(read), input, signal)).updated;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) throw Object.assign(new Error(error.message), { code: CONTENT_BULK_CONFLICT });
        throw error;
      }
    }),

    loadItem: fromPromise<EditorRecord, EditorLoadInput>(async ({ input, signal }) => {
      try {
        return contentRecordOf(await fetchContentItem(requireCredentials(read), input.id, signal));
      } catch (error) {
        throw editorFailureOf(error);
      }
    }),

    saveItem: fromPromise<EditorRecord, EditorSaveInput>(async ({ input, signal }) => {
      const credentials = requireCredentials(read);
      try {
        await updateContentItem(credentials, input.id, contentUpdateOf(input.version, input.changes), signal);
        // Read back the whole detail so plays, QoS and the new version come from one answer.
        return contentRecordOf(await fetchContentItem(credentials, input.id, signal));
      } catch (error) {
        throw editorFailureOf(error);
      }
    }),
  };
}

/** The library's browsing machine with its REST actors (the root spawns it as `contentBrowser`). */
export function contentBrowserLogic(actors: ReturnType<typeof createContentActors> = createContentActors()) {
  return contentBrowserMachine.provide({ actors: { loadList: actors.loadList, bulkStatus: actors.bulkStatus } });
}

/** The generic editor bound to one content item: REST load and save, and back to the library on leave. */
export function contentEditorLogic(deps: { actors?: ReturnType<typeof createContentActors>; leave?: () => void } = {}) {
  const actors = deps.actors ?? createContentActors();
  return editorMachine.provide({
    actors: { load: actors.loadItem, save: actors.saveItem },
    actions: { leave: deps.leave ?? (() => navigateTo(ROUTES.content)) },
  });
}

let pages: { contentDetail: ReturnType<typeof contentEditorLogic> } | undefined;

/**
 * The Content area's wiring file (issue 26): its page machines with their real I/O, made on first use
 * and read by src/adapters/page-logic.ts when a Content page first renders. (The library is the
 * session-wide `contentBrowser` area actor, src/adapters/area-actors.ts.)
 */
export function contentPages(): { contentDetail: ReturnType<typeof contentEditorLogic> } {
  pages ??= { contentDetail: contentEditorLogic() };
  return pages;
}
