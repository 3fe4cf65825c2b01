// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isDark, setLanguage, setTheme, usePreferences } from './preferences';

afterEach(() => {
  setTheme('system');
  setLanguage('en');
  localStorage.clear();
});

describe('preferences (issue 20)', () => {
  it('remembers the theme and language, and marks <html> with them', () => {
    const { result } = renderHook(() => usePreferences());
    act(() => setTheme('dark'));
    expect(result.current.theme).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('cmsTools.theme')).toBe('dark');
    act(() => setLanguage('fr'));
    expect(result.current.language).toBe('fr');
    expect(document.documentElement.getAttribute('lang')).toBe('fr');
    expect(localStorage.getItem('cmsTools.language')).toBe('fr');
    act(() => setTheme('system'));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('is dark when chosen, light when chosen, else as the system says', () => {
    expect(isDark('dark')).toBe(true);
    expect(isDark('light')).toBe(false);
    expect(typeof isDark('system')).toBe('boolean');
  });
});
