// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isDark, setSideNavCollapsed, setTheme, usePreferences } from './preferences';

afterEach(() => {
  setTheme('system');
  setSideNavCollapsed(false);
  localStorage.clear();
});

describe('preferences (issue 20)', () => {
  it('remembers the theme, and marks <html> with it and the language (English only, issue 38)', () => {
    const { result } = renderHook(() => usePreferences());
    act(() => setTheme('dark'));
    expect(result.current.theme).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('cmsTools.theme')).toBe('dark');
    expect(result.current.language).toBe('en');
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    act(() => setTheme('system'));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('remembers whether the side navigation is collapsed', () => {
    const { result } = renderHook(() => usePreferences());
    expect(result.current.sideNavCollapsed).toBe(false);
    act(() => setSideNavCollapsed(true));
    expect(result.current.sideNavCollapsed).toBe(true);
    expect(localStorage.getItem('cmsTools.sideNavCollapsed')).toBe('true');
    act(() => setSideNavCollapsed(false));
    expect(result.current.sideNavCollapsed).toBe(false);
    expect(localStorage.getItem('cmsTools.sideNavCollapsed')).toBe('false');
  });

  it('is dark when chosen, light when chosen, else as the system says', () => {
    expect(isDark('dark')).toBe(true);
    expect(isDark('light')).toBe(false);
    expect(typeof isDark('system')).toBe('boolean');
  });
});
