/**
 * Runtime configuration the server injects into index.html, so one build serves every environment.
 * Falls back to the spec's defaults when absent (e.g. under `vite dev`).
 */
import type { RuntimeConfig } from './contract';
import { INACTIVITY_TIMEOUT_MINUTES_DEFAULT, PUBLIC_ROUTES } from './constants';


export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  inactivityTimeoutMinutes: INACTIVITY_TIMEOUT_MINUTES_DEFAULT,
  inactivityExcludedPaths: [...PUBLIC_ROUTES],
  gaMeasurementId: '',
  analyticsAllowedSites: [],
  encodingDisabledSite: '',
  inspect: false,
  firebase: null,
};

export function readRuntimeConfig(source: Partial<RuntimeConfig> | undefined): RuntimeConfig {
  const merged = { ...DEFAULT_RUNTIME_CONFIG, ...(source ?? {}) };
  const minutes = Number(merged.inactivityTimeoutMinutes);
  return {
    ...merged,
    inactivityTimeoutMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : INACTIVITY_TIMEOUT_MINUTES_DEFAULT,
    inactivityExcludedPaths: Array.from(new Set([...PUBLIC_ROUTES, ...(merged.inactivityExcludedPaths ?? [])])),
  };
}
