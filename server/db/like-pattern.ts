/** `LIKE` / `ILIKE` pattern of a search text typed by a person: contains it, its wildcards (`%`, `_`, `\`) literal. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
