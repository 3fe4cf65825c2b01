import { HEADER_HIDDEN_PREFIXES, HEADER_HIDDEN_ROUTES } from '../../config';

/** Spec §2.9: the header is hidden on these routes (content detail matched by its shape). */
export function isHeaderHidden(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return HEADER_HIDDEN_ROUTES.includes(path) || HEADER_HIDDEN_PREFIXES.some((re) => re.test(path));
}
