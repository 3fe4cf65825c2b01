/**
 * Cookie effects the machines trigger (spec §3, §4.3, §4.5). The only module that touches cookies.
 */
import Cookies from 'js-cookie';

export function readCookie(name: string): string | undefined {
  return Cookies.get(name);
}

export function writeCookie(name: string, value: string, expires?: Date): void {
  Cookies.set(name, value, { expires, sameSite: 'strict', secure: location.protocol === 'https:', path: '/' });
}

export function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
}

/** Host variants a cookie may have been set on: the host, each parent domain, with and without a leading dot. */
export function hostVariants(hostname: string): string[] {
  const parts = hostname.split('.');
  const variants = new Set<string>([hostname]);
  for (let i = 0; i < parts.length - 1; i += 1) {
    const domain = parts.slice(i).join('.');
    variants.add(domain);
    variants.add(`.${domain}`);
  }
  return [...variants];
}

/** Path variants: '/', and every prefix of the current path. */
export function pathVariants(pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  const variants = new Set<string>(['/']);
  for (let i = 1; i <= segments.length; i += 1) variants.add(`/${segments.slice(0, i).join('/')}`);
  return [...variants];
}

/** Deletes every cookie reachable from the host and path variants (spec §4.5). */
export function clearAllCookies(): void {
  const names = Object.keys(Cookies.get());
  const hosts = hostVariants(location.hostname);
  const paths = pathVariants(location.pathname);
  for (const name of names) {
    Cookies.remove(name);
    for (const path of paths) {
      Cookies.remove(name, { path });
      for (const domain of hosts) Cookies.remove(name, { path, domain });
    }
  }
}
