/**
 * The geometry of the analytics charts: scales, tick values and SVG path data, as pure functions
 * (docs/charts.md explains why our own small SVG renderer rather than a library). Long series are
 * thinned to at most two points (min and max) per horizontal pixel, so 10,000 points draw as fast
 * as 2 × width points and spikes survive.
 */

export interface Scale {
  (value: number): number;
  domain: [number, number];
}

export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return Object.assign((value: number) => r0 + ((value - d0) / span) * (r1 - r0), { domain });
}

/** About `count` round tick values covering [min, max] (1, 2 or 5 × a power of ten apart). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0];
  if (min === max) return [min];
  const raw = (max - min) / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  const last = Math.ceil(max / step - 1e-9) * step;
  for (let v = Math.floor(min / step) * step; v <= last + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

/** The y domain of series: from 0 (counts, percentages) up to a round value above the maximum. */
export function yDomain(series: readonly (readonly (number | null)[])[]): [number, number] {
  let max = 0;
  let min = 0;
  for (const s of series) for (const v of s) if (v !== null) { max = Math.max(max, v); min = Math.min(min, v); }
  const ticks = niceTicks(min, max === min ? min + 1 : max);
  return [Math.min(min, ticks[0] ?? 0), Math.max(max, ticks[ticks.length - 1] ?? 1)];
}

/**
 * Path data of a line through values[i] at x = i; nulls break the line. With more points than
 * pixels, each pixel column keeps its first, min, max and last point.
 */
export function linePath(values: readonly (number | null)[], x: Scale, y: Scale): string {
  const parts: string[] = [];
  let pen = false;
  const n = values.length;
  const width = Math.abs(x(n - 1) - x(0));
  const perPixel = n > 2 * width && width > 0 ? Math.ceil(n / width) : 1;
  for (let start = 0; start < n; start += perPixel) {
    const end = Math.min(n, start + perPixel);
    const keep = perPixel === 1 ? [start] : columnPoints(values, start, end);
    for (const i of keep) {
      const v = values[i];
      if (v === null || v === undefined) { pen = false; continue; }
      parts.push(`${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`);
      pen = true;
    }
  }
  return parts.join('');
}

function columnPoints(values: readonly (number | null)[], start: number, end: number): number[] {
  let lo = -1;
  let hi = -1;
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (lo < 0 || v < (values[lo] ?? Infinity)) lo = i;
    if (hi < 0 || v > (values[hi] ?? -Infinity)) hi = i;
  }
  return [...new Set([start, lo, hi, end - 1].filter((i) => i >= 0))].sort((a, b) => a - b);
}

/** Dash patterns by series index: colour is never the only thing telling series apart (print, colour blindness). */
export const DASHES: readonly string[] = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];
