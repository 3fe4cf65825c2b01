/**
 * The editor's rule of "would leaving lose typed input?", apart from its machine (issue 39): the
 * page-unload guard (src/unsaved-edits.ts) is part of the sign-in page's first load (bench/budget.json)
 * and reads this rule without loading the editor's states, actors and actions. The machine's setup
 * (editor.setup.ts) uses the same `changedFields`.
 */
/** A field's value in an editor: text, a number, a yes/no, none, or a list of ids. */
export type EditorValue = string | number | boolean | null | readonly string[];
export type EditorValues = Readonly<Record<string, EditorValue>>;
type StoredAndDraft = { values: EditorValues; draft: EditorValues };

function sameValue(a: EditorValue | undefined, b: EditorValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return (a ?? null) === (b ?? null);
}

/** The draft fields that differ from the stored values. */
export function changedFields(context: StoredAndDraft): EditorValues {
  return Object.fromEntries(Object.entries(context.draft).filter(([field, value]) => !sameValue(value, context.values[field])));
}

/** Whether leaving the page now would lose changes (a page unload is held to ask): running and dirty. */
export function editorGuardsLeaving(snapshot: { status: string; context: StoredAndDraft }): boolean {
  return snapshot.status === 'active' && Object.keys(changedFields(snapshot.context)).length > 0;
}
