/**
 * The analytics charts: lines over periods and (grouped or stacked) horizontal bars per key, drawn as
 * SVG from geometry.ts. Charts are decoration for sighted readers (aria-hidden): the table beside each
 * one is its text alternative. Colours from the theme (axis text and grid through the theme's variables, so
 * they follow the dark theme); each series also has its own dash, so print
 * in greyscale stays readable.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { CHART_COLORS } from '../../../theme/colors';
import { DASHES, linePath, linearScale, niceTicks, yDomain } from './geometry';
import * as css from '../analytics.css';
import { ScrollBox } from '../../shared/ScrollBox';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/** Drawing width before the box is measured (and in tests, where nothing has a size). */
const W = 640;
const H = 240;
/** Below this the chart draws at this width and its box scrolls sideways: axis labels need room. */
const MIN_W = 300;

/**
 * The pixel width of the chart's box, so the SVG draws 1:1 and its 11 px labels stay 11 px on a
 * phone instead of shrinking with a fixed viewBox.
 */
function useBoxWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(W);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return undefined;
    const measure = () => setWidth(Math.max(MIN_W, Math.round(box.clientWidth) || W));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
const PAD = { left: 52, right: 12, top: 10, bottom: 28 };
const short = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

function Legend({ series }: { series: ChartSeries[] }) {
  return (
    <ul className={css.legend}>
      {series.map((s, i) => (
        <li key={s.label}>
          <svg width="22" height="10" aria-hidden="true"><line x1="0" x2="22" y1="5" y2="5" stroke={CHART_COLORS[i % CHART_COLORS.length]} strokeWidth="3" strokeDasharray={DASHES[i % DASHES.length]} /></svg>{' '}
          {s.label}
        </li>
      ))}
    </ul>
  );
}

export function LineChart({ labels, series, height = H }: { labels: string[]; series: ChartSeries[]; height?: number }) {
  const [box, W] = useBoxWidth();
  const x = linearScale([0, Math.max(labels.length - 1, 1)], [PAD.left, W - PAD.right]);
  const y = linearScale(yDomain(series.map((s) => s.values)), [height - PAD.bottom, PAD.top]);
  const ticks = niceTicks(...y.domain, height < 150 ? 2 : 4);
  // About one period label per 90 px, so labels never overlap.
  const every = Math.max(1, Math.ceil(labels.length / Math.max(2, Math.floor(W / 90))));
  return (
    <ScrollBox boxRef={box} className={css.chartBox} label="Chart">
      <svg viewBox={`0 0 ${W} ${height}`} width={W} aria-hidden="true" data-testid="line-chart" style={{ display: 'block' }}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className={css.chartGrid} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" className={css.chartText}>{short.format(t)}</text>
          </g>
        ))}
        {labels.map((label, i) => (i % every === 0 ? (
          <text key={label} x={x(i)} y={height - 8} textAnchor="middle" fontSize="11" className={css.chartText}>{label}</text>
        ) : null))}
        {series.map((s, i) => (
          <path key={s.label} d={linePath(s.values, x, y)} fill="none" stroke={CHART_COLORS[i % CHART_COLORS.length]} strokeWidth="2" strokeDasharray={DASHES[i % DASHES.length]} />
        ))}
      </svg>
      {series.length > 1 && <Legend series={series} />}
    </ScrollBox>
  );
}

const BAR_ROWS = 12;

/** Horizontal bars for the first rows (the table holds them all); `stacked` adds the series up per row. */
export function BarChart({ labels, series, stacked = false }: { labels: string[]; series: ChartSeries[]; stacked?: boolean }) {
  const [box, W] = useBoxWidth();
  const rows = labels.slice(0, BAR_ROWS);
  const band = stacked ? 22 : 10 + 9 * series.length;
  const height = PAD.top + rows.length * band + 24;
  const left = Math.min(150, Math.round(W * 0.38));
  const maxLabel = Math.floor(left / 6.5);
  const max = stacked
    ? Math.max(1, ...rows.map((_, r) => series.reduce((a, s) => a + (s.values[r] ?? 0), 0)))
    : yDomain(series.map((s) => s.values.slice(0, BAR_ROWS)))[1];
  const x = linearScale([0, max], [left, W - PAD.right]);
  return (
    <ScrollBox boxRef={box} className={css.chartBox} label="Chart">
      <svg viewBox={`0 0 ${W} ${height}`} width={W} aria-hidden="true" data-testid="bar-chart" style={{ display: 'block' }}>
        {niceTicks(0, max, 4).map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={PAD.top} y2={height - 20} className={css.chartGrid} />
            <text x={x(t)} y={height - 6} textAnchor="middle" fontSize="11" className={css.chartText}>{short.format(t)}</text>
          </g>
        ))}
        {rows.map((label, r) => {
          const top = PAD.top + r * band;
          let acc = 0;
          return (
            <g key={`${label}-${r}`}>
              <text x={left - 6} y={top + band / 2 + 4} textAnchor="end" fontSize="11" className={css.chartText}>{label.length > maxLabel ? `${label.slice(0, maxLabel - 1)}…` : label}</text>
              {series.map((s, i) => {
                const v = s.values[r] ?? 0;
                const color = CHART_COLORS[i % CHART_COLORS.length];
                if (stacked) {
                  const x0 = x(acc);
                  acc += v;
                  return <rect key={s.label} x={x0} y={top + 3} width={Math.max(0, x(acc) - x0)} height={band - 6} fill={color} className={css.chartBarEdge} />;
                }
                return <rect key={s.label} x={left} y={top + 4 + i * 9} width={Math.max(0, x(v) - left)} height={7} fill={color} />;
              })}
            </g>
          );
        })}
      </svg>
      {series.length > 1 && <Legend series={series} />}
      {labels.length > BAR_ROWS && <p className={css.status}>The chart shows the first {BAR_ROWS} rows of the table.</p>}
    </ScrollBox>
  );
}
