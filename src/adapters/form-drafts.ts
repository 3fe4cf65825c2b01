/**
 * The one draft store of the console's forms (issue 38, "nothing lost"): what a person typed into a form
 * and did not save yet is kept in the tab's session storage, so a reload (or a crash of the tab's page)
 * brings it back into the same form, unsaved. Every editor-based form keeps its draft here (Monetization's
 * plans, offers, groups and coupon batches, Content's item, country groups and licences, the AppCMS
 * editors), and so does Create New (./content-create-draft.ts): the machine says when (`keepDraft` on a
 * change, `forgetDraft` on a save, a Discard or a confirmed Leave); this module only stores, reads and
 * drops. A sign-out drops every draft (`forgetAllFormDrafts`).
 *
 * NEVER a password, a code or a secret: a field whose name says it is one (`SECRET_FIELD`: …password,
 * …secret, …token, …otp, …passcode, …code) is left out of every draft, whatever form it is on, so no
 * such value ever reaches storage. Forms made only of such fields (change password, sign-in codes)
 * keep no draft at all.
 *
 * A draft belongs to one record at one version (`<form>:<id>`, or `<form>:<scope k=v…>:<id>` for a scoped
 * record such as an AppCMS network's; a new record's id is `new`): it comes
 * back only over the version it was typed on, so a record changed since opens as stored; such a draft is
 * dropped once it says nothing the stored record does not (the record moved past it with those values).
 * The editor moves its kept draft along with every save of the record it sees on its page.
 */
import { createActor, fromPromise, toPromise, type AnyActorLogic, type PromiseActorLogic } from 'xstate';
import { changedFields } from '../../machines/editor-leaving';
import type { DraftOwner, EditorLoadInput, EditorRecord, EditorSaveInput, EditorScope, EditorValue, EditorValues } from '../../machines/editor.machine';
import { sessionStore } from './storage';

/** Field names never kept: a password, a (sign-in, reset or verification) code, a token or any other secret. */
export const SECRET_FIELD = /(password|passcode|secret|token|otp|code)$/i;

const PREFIX = 'formDraft:';

export interface FormDraft {
  version: number;
  values: EditorValues;
}

/** The draft's values without any password, code or secret. */
export function withoutSecrets(values: EditorValues): EditorValues {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !SECRET_FIELD.test(field)));
}

function isValue(value: unknown): value is EditorValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
    || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
}

export function keepFormDraft(key: string, draft: FormDraft): void {
  const values = withoutSecrets(draft.values);
  if (Object.keys(values).length === 0) {
    sessionStore.remove(PREFIX + key);
    return;
  }
  sessionStore.set(PREFIX + key, JSON.stringify({ version: draft.version, values }));
}

/** The kept draft of `key`, or null (none, unreadable, or not a draft); secrets are dropped on the way in too. */
export function readFormDraft(key: string): FormDraft | null {
  const stored = sessionStore.get(PREFIX + key);
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { version, values } = parsed as { version?: unknown; values?: unknown };
    if (typeof version !== 'number' || typeof values !== 'object' || values === null || Array.isArray(values)) return null;
    const kept = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, EditorValue] => isValue(entry[1])));
    return { version, values: withoutSecrets(kept) };
  } catch {
    return null;
  }
}

export function forgetFormDraft(key: string): void {
  sessionStore.remove(PREFIX + key);
}

/** Every form's draft goes (a sign-out: the next person in this tab finds none); storage may be unavailable. */
export function forgetAllFormDrafts(): void {
  try {
    const keys = Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i));
    for (const key of keys) if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // No storage (a privacy mode): nothing was kept.
  }
}

function sameAsStored(draft: EditorValues, stored: EditorValues): boolean {
  return Object.keys(changedFields({ values: stored, draft })).length === 0;
}

/**
 * An editor's draft I/O for one form: `load` answers the stored record with the changes kept for it at
 * its version (`keptDraft`), `save` wraps the form's save (the kept draft goes once stored), and the
 * editor's `keepDraft` / `forgetDraft` write and drop them.
 */
export function editorDrafts(form: string, load: AnyActorLogic) {
  // A scoped record (AppCMS: the site, and the network as the id) is kept apart per scope.
  const keyOf = (id: string, scope?: EditorScope) => [form, ...Object.entries(scope ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`), id].join(':');
  return {
    load: fromPromise<EditorRecord, EditorLoadInput>(async ({ input }) => {
      const record = await toPromise(createActor(load, { input }).start()) as EditorRecord;
      const key = keyOf(input.id, input.scope);
      const kept = readFormDraft(key);
      if (!kept || Object.keys(kept.values).length === 0) return record;
      // The draft says only what is stored now (a save stored it, or the same values were saved
      // elsewhere): nothing to keep, at the version it was typed on or past it.
      if (kept.version <= record.version && sameAsStored(kept.values, record.values)) {
        forgetFormDraft(key);
        return record;
      }
      if (kept.version === record.version) return { ...record, keptDraft: kept.values };
      return record;
    }),
    /**
     * The form's save, run apart from the page's actors (issue 38): Back pressed while it runs leaves at
     * once (the editor stops waiting for it, machines/editor.state.saving.ts), yet the write is not
     * cut off, and once the server has stored it the kept draft goes, unless what is kept now differs
     * from what was saved (typed again since).
     */
    save: (save: PromiseActorLogic<EditorRecord, EditorSaveInput>) => fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
      const record = await toPromise(createActor(save, { input }).start());
      const key = keyOf(input.id, input.scope);
      const kept = readFormDraft(key);
      if (kept && sameAsStored(kept.values, input.draft)) forgetFormDraft(key);
      return record;
    }),
    actions: {
      keepDraft: (_: unknown, params: DraftOwner & { version: number; changes: EditorValues }) =>
        keepFormDraft(keyOf(params.id, params.scope), { version: params.version, values: params.changes }),
      forgetDraft: (_: unknown, params: DraftOwner) => forgetFormDraft(keyOf(params.id, params.scope)),
    },
  };
}
