/**
 * The shell's display preferences (issue 20), remembered in localStorage: the colour scheme (follow the
 * system, or light / dark chosen in the user menu), the language of the shell (English), and whether the
 * Dashboard 360 side navigation is collapsed at desktop width. Pure DOM state with no
 * flow: the choice is written to <html data-theme / lang> when it is made and once when this loads.
 */
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
/** The console is in English only (issue 38: a half-translated language is not offered). */
export type Language = 'en';

const THEME_KEY = 'cmsTools.theme';
const SIDE_NAV_KEY = 'cmsTools.sideNavCollapsed';

function stored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function store(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
}

interface Preferences { theme: ThemeChoice; language: Language; sideNavCollapsed: boolean }

let current: Preferences = {
  theme: (['light', 'dark'] as const).find((t) => t === stored(THEME_KEY)) ?? 'system',
  language: 'en',
  sideNavCollapsed: stored(SIDE_NAV_KEY) === 'true',
};
const listeners = new Set<() => void>();

function apply(): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (current.theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', current.theme);
  root.setAttribute('lang', current.language);
}
apply();

function update(next: Partial<Preferences>): void {
  current = { ...current, ...next };
  apply();
  for (const listener of listeners) listener();
}

export function setTheme(theme: ThemeChoice): void {
  store(THEME_KEY, theme);
  update({ theme });
}

/** Collapse (or expand) the Dashboard 360 side navigation at desktop width; remembered. */
export function setSideNavCollapsed(collapsed: boolean): void {
  store(SIDE_NAV_KEY, String(collapsed));
  update({ sideNavCollapsed: collapsed });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribe, () => current, () => current);
}

/** Whether the page shows dark colours now: the stored choice, else the system's scheme. */
export function isDark(theme: ThemeChoice): boolean {
  if (theme !== 'system') return theme === 'dark';
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
