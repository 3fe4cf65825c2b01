/**
 * The arithmetic tests use to recompute figures from raw rows on their own (not the product's
 * common/playback-measures.ts, which they check): rounding, a safe division, fixed-bucket counts and
 * the quantile read from them (linear inside its bucket, from 0 in the first, the last bound in the open one).
 */
export const r = (v: number | null, d: number) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);
export const div = (a: number, b: number) => (b > 0 ? a / b : null);

export function bucketCounts(values: number[], bounds: readonly number[]): number[] {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const v of values) {
    let i = 0;
    while (i < bounds.length && v >= bounds[i]!) i++;
    counts[i]! += 1;
  }
  return counts;
}

export function bucketQuantile(counts: number[], bounds: readonly number[], q: number): number | null {
  const n = counts.reduce((a, c) => a + c, 0);
  if (n === 0) return null;
  const rank = q * n;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c > 0 && below + c >= rank) {
      if (i === bounds.length) return bounds[i - 1]!;
      const lo = i === 0 ? 0 : bounds[i - 1]!;
      return lo + ((rank - below) / c) * (bounds[i]! - lo);
    }
    below += c;
  }
  return bounds[bounds.length - 1]!;
}
