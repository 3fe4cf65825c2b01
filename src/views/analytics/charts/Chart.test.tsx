import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
