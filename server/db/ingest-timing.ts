/** INGEST_TIMING=1: per-step wall times of consumer writes and folds, printed every 5 s to stderr (profiling aid). */
const on = process.env.INGEST_TIMING === '1';
const totals = new Map<string, { ms: number; n: number }>();
let last = Date.now();
export function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!on) return run();
  const began = performance.now();
  return run().finally(() => {
    const t = totals.get(name) ?? { ms: 0, n: 0 };
    t.ms += performance.now() - began;
    t.n += 1;
    totals.set(name, t);
    if (Date.now() - last > 5000) {
      last = Date.now();
      process.stderr.write(`INGEST_TIMING pid ${process.pid} ${[...totals].map(([k, v]) => `${k}=${Math.round(v.ms)}ms/${v.n}`).join(' ')}\n`);
    }
  });
}
