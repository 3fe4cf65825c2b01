/** The runtime configuration the server injected into index.html (window.__CMS_CONFIG__). */
import type { RuntimeConfig } from '../common/contract';
import { readRuntimeConfig } from '../common/runtime-config';

declare global {
  interface Window {
    __CMS_CONFIG__?: Partial<RuntimeConfig>;
  }
}

export function readInjectedRuntimeConfig(): RuntimeConfig {
  return readRuntimeConfig(globalThis.window?.__CMS_CONFIG__);
}
