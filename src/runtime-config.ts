/**
 * Runtime configuration injected by the server into index.html (window.__CMS_CONFIG__), so one build
 * serves every environment. Falls back to the spec's defaults when absent (e.g. under `vite dev`).
 */
import type { RuntimeConfig } from './api/contract';
import { INACTIVITY_TIMEOUT_MINUTES_DEFAULT, PUBLIC_ROUTES } from './config';

declare global {
  interface Window {
    __CMS_CONFIG__?: Partial<RuntimeConfig>;
  }
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  inactivityTimeoutMinutes: INACTIVITY_TIMEOUT_MINUTES_DEFAULT,
  inactivityExcludedPaths: [...PUBLIC_ROUTES],
  gaMeasurementId: '',
  analyticsAllowedSites: [],
  encodingDisabledSite: '',
  inspect: false,
  firebase: null,
};

export function readRuntimeConfig(source: Partial<RuntimeConfig> | undefined = globalThis.window?.__CMS_CONFIG__): RuntimeConfig {
  const merged = { ...DEFAULT_RUNTIME_CONFIG, ...(source ?? {}) };
  const minutes = Number(merged.inactivityTimeoutMinutes);
  return {
    ...merged,
    inactivityTimeoutMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : INACTIVITY_TIMEOUT_MINUTES_DEFAULT,
    inactivityExcludedPaths: Array.from(new Set([...PUBLIC_ROUTES, ...(merged.inactivityExcludedPaths ?? [])])),
  };
}
