/** The newest modification time (ms) of a file or of any file under a directory (node_modules and dot entries skipped); 0 when missing. */
export function newestMtime(path: string): number;
/** True when `output` is missing or older than any file of `sources` (paths relative to `root`). */
export function isOlderThanSources(output: string, root: string, sources: readonly string[]): boolean;
