import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollBox, overflows } from './ScrollBox';

const box = (scrollWidth: number, clientWidth: number) => ({ scrollWidth, clientWidth, scrollHeight: 100, clientHeight: 100 });

/** jsdom lays nothing out: the box's widths are set by hand. */
function layOut(scrollWidth: number, clientWidth: number): void {
  Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, get: () => scrollWidth });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => clientWidth });
}

afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).scrollWidth;
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientWidth;
});

describe('ScrollBox (issue 38: a scrolling table is reachable by keyboard)', () => {
  it('overflows: wider content than the box, by a single pixel too (the box scrolls by it)', () => {
    expect(overflows(box(640, 350))).toBe(true);
    expect(overflows(box(351, 350))).toBe(true);
    expect(overflows({ scrollWidth: 350, clientWidth: 350, scrollHeight: 101, clientHeight: 100 })).toBe(true);
    expect(overflows(box(350, 350))).toBe(false);
    expect(overflows(box(300, 350))).toBe(false);
  });

  it('while its content is wider, the box takes focus and is named', () => {
    layOut(900, 350);
    render(<ScrollBox className="wrap" label="Audit entries"><table><tbody><tr><td>x</td></tr></tbody></table></ScrollBox>);
    const group = screen.getByRole('group', { name: 'Audit entries (scrolls sideways)' });
    expect(group.getAttribute('tabindex')).toBe('0');
  });

  it('while everything fits, it is a plain box with no extra tab stop', () => {
    layOut(350, 350);
    const { container } = render(<ScrollBox className="wrap" label="Audit entries"><p>fits</p></ScrollBox>);
    expect(screen.queryByRole('group')).toBeNull();
    expect((container.firstChild as HTMLElement).hasAttribute('tabindex')).toBe(false);
  });
});
