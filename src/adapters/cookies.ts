/**
 * Cookie effects the machines trigger (spec §3, §4.3, §4.5). The only module that touches cookies.
 *
 * Served over https, every cookie we write is Secure and carries the `__Host-` prefix
 * (`__Host-accessToken`): the browser then only accepts it from this exact host over https with
 * Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant or overwrite it
 * (cookie tossing). Over http (local development, the e2e tests) the names stay the spec's
 * (`accessToken`, `xApiKey`, ...), since browsers refuse `__Host-` cookies without Secure.
 */
import Cookies from 'js-cookie';

export const HOST_PREFIX = '__Host-';

function isHttps(): boolean {
  return location.protocol === 'https:';
}

/** The name a cookie has in the browser: the spec's name over http, `__Host-` + it over https. */
export function cookieName(name: string, https: boolean = isHttps()): string {
  return https ? `${HOST_PREFIX}${name}` : name;
}

/** Over https only the `__Host-` cookie counts: an unprefixed one may have been planted by a sibling host. */
export function readCookie(name: string): string | undefined {
  return Cookies.get(cookieName(name));
}

export function writeCookie(name: string, value: string, expires?: Date): void {
  Cookies.set(cookieName(name), value, { expires, sameSite: 'strict', secure: isHttps(), path: '/' });
}

export function removeCookie(name: string): void {
  Cookies.remove(cookieName(name), { path: '/', secure: isHttps() });
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
    // A __Host- cookie is only removed by a Secure, Path=/, Domain-less deletion.
    if (name.startsWith(HOST_PREFIX)) Cookies.remove(name, { path: '/', secure: true });
    Cookies.remove(name);
    for (const path of paths) {
      Cookies.remove(name, { path });
      for (const domain of hosts) Cookies.remove(name, { path, domain });
    }
  }
}
