/**
 * A box that scrolls sideways (a wide table or chart on a phone). While its content is wider or taller
 * than the box, the box takes keyboard focus (tabIndex 0) and is named, so a keyboard user can scroll
 * it with the arrow keys (issue 38, axe's scrollable-region-focusable: a read-only table has no
 * focusable cell to reach it by). While everything fits, it is a plain box with no extra tab stop.
 * Pure DOM state, no flow: measured when the box or its content changes size.
 */
import { useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';

export interface ScrollBoxProps {
  className: string;
  /** What the box holds, for the name it gets while it scrolls ("Audit entries"). */
  label: string;
  children: ReactNode;
  /** The caller's own ref to the box (a chart measures its width with it). */
  boxRef?: Ref<HTMLDivElement>;
}

/** True when `box`'s content overflows it, by a single pixel too (as axe and the browser count it: the box scrolls). */
export function overflows(box: Pick<HTMLElement, 'scrollWidth' | 'clientWidth' | 'scrollHeight' | 'clientHeight'>): boolean {
  return box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
}

export function ScrollBox({ className, label, children, boxRef }: ScrollBoxProps) {
  const ref = useRef<HTMLDivElement | null>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    const measure = () => setScrolls(overflows(box));
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of Array.from(box.children)) observer.observe(child);
    return () => observer.disconnect();
  });
  const setRef = (node: HTMLDivElement | null) => {
    ref.current = node;
    if (typeof boxRef === 'function') boxRef(node);
    else if (boxRef) (boxRef as { current: HTMLDivElement | null }).current = node;
  };
  return (
    <div ref={setRef} className={className} {...(scrolls ? { tabIndex: 0, role: 'group', 'aria-label': `${label} (scrolls sideways)` } : {})}>
      {children}
    </div>
  );
}
