/**
 * Which paths skip session verification and the inactivity timer (spec §2.1, §4.3, §4.5).
 */
import { PUBLIC_ROUTES } from './constants';

function normalise(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare || '/';
}

export function isPublicPath(path: string): boolean {
  return PUBLIC_ROUTES.includes(normalise(path));
}

/**
 * Public routes and the configured excluded paths (each also covers the paths below it, except '/':
 * the sign-in page is in every list, and "below /" would be the whole console).
 */
export function isExcludedPath(path: string, excludedPaths: readonly string[]): boolean {
  const current = normalise(path);
  return isPublicPath(current) || excludedPaths.some((excluded) => {
    const base = normalise(excluded);
    return current === base || (base !== '/' && current.startsWith(`${base}/`));
  });
}
