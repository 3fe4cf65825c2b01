/**
 * The fastest of `n` runs of `run`, in ms: the run the machine's other work delayed least. Timing
 * tests compare these rather than sums, which on a loaded machine measure mostly scheduling.
 */
export async function fastestOf(n: number, run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}
