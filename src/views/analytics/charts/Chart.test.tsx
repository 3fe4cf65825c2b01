import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import * as css from '../analytics.css';
import { BarChart, LineChart } from './Chart';
import { linePath, linearScale, niceTicks } from './geometry';

describe('charts', () => {
  it('a line chart is hidden from screen readers (its table speaks) and names its series in a legend', () => {
    render(<LineChart labels={['a', 'b', 'c']} series={[{ label: 'Sessions', values: [1, 5, 2] }, { label: 'Viewers', values: [1, null, 2] }]} />);
    expect(screen.getByTestId('line-chart').getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByText('Sessions')).toBeTruthy();
    expect(screen.getByTestId('line-chart').querySelectorAll('path')).toHaveLength(2);
  });

  it('bars show the first 12 rows and say so', () => {
    const labels = Array.from({ length: 20 }, (_, i) => `row ${i}`);
    render(<BarChart labels={labels} series={[{ label: 'Streams', values: labels.map((_, i) => i) }]} />);
    expect(screen.getByTestId('bar-chart').querySelectorAll('rect')).toHaveLength(12);
    expect(screen.getByText('The chart shows the first 12 rows of the table.')).toBeTruthy();
  });

  it('draws every axis and label text in the theme\'s chart text colour, never a fixed fill (issue 38: dark axes were 1.7:1; src/theme/colors.test.ts holds each theme\'s colour at 4.5:1 or more)', () => {
    const labels = ['Mon', 'Tue', 'Wed'];
    const { container } = render(<><LineChart labels={labels} series={[{ label: 'Sessions', values: [1, 5, 2] }]} /><BarChart labels={labels} series={[{ label: 'Streams', values: [3, 1, 2] }]} /></>);
    for (const id of ['line-chart', 'bar-chart']) {
      const texts = [...container.querySelectorAll(`[data-testid="${id}"] text`)];
      expect(texts.length, id).toBeGreaterThan(labels.length);
      for (const text of texts) {
        expect(text.getAttribute('class'), `${id}: ${text.textContent}`).toBe(css.chartText);
        expect(text.getAttribute('fill'), `${id}: ${text.textContent}`).toBeNull();
      }
    }
  });

  it('geometry: round ticks, gaps for nulls, 10,000 points thinned to the pixels', () => {
    expect(niceTicks(0, 97)).toEqual([0, 20, 40, 60, 80, 100]);
    const x = linearScale([0, 2], [0, 100]);
    const y = linearScale([0, 10], [100, 0]);
    expect(linePath([1, null, 3], x, y)).toBe('M0.0,90.0M100.0,70.0');
    const many = Array.from({ length: 10_000 }, (_, i) => i % 7);
    const path = linePath(many, linearScale([0, 9999], [0, 500]), y);
    expect(path.split(/[ML]/).length - 1).toBeLessThanOrEqual(500 * 4 + 4);
  });
});
