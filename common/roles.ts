/**
 * Role rules of spec §6 and the landing route of spec §2.3, as pure functions.
 */
import {
  ACCESS_LEVELS, AREA_NAMES, AREAS, CONTINUE_LEVELS, EDIT_LEVELS, LANDING_ORDER, NAV_TABS, ROUTES,
  type AreaName,
} from './constants';
import type { Roles } from './contract';
import { isOneOf, isRecord } from './one-of';

export function canContinue(roles: Roles, area: AreaName): boolean {
  const level = roles[area];
  return isOneOf(CONTINUE_LEVELS, level);
}

/**
 * The one rule for offering a write control (Launch, Copy, Save, New, support actions...) in any area:
 * a control the role cannot use is not shown. The server checks the same rule again.
 */
export function canEdit(roles: Roles, area: AreaName): boolean {
  const level = roles[area];
  return isOneOf(EDIT_LEVELS, level);
}

/** The first area the user may access, in the spec's order; none gives /forbidden. */
export function landingRouteFor(roles: Roles): string {
  return LANDING_ORDER.find(({ area }) => canContinue(roles, area))?.route ?? ROUTES.forbidden;
}

/**
 * Where sign-in leads (issue 20): the page asked for by a deep link opened while signed out, when it is
 * an internal path the user may see; else the landing route.
 */
export function routeAfterSignIn(roles: Roles, requested: string | null): string {
  const landing = landingRouteFor(roles);
  if (!requested || !requested.startsWith('/') || requested.startsWith('//') || requested.startsWith('/\\')) return landing;
  const pathname = requested.split(/[?#]/)[0] ?? '';
  if (pathname === ROUTES.login || pathname === ROUTES.forbidden) return landing;
  const area = areaForPath(pathname);
  return area === undefined || canContinue(roles, area) ? requested : landing;
}

export interface AccessFlags {
  adminAccess: boolean;
  contentAccess: boolean;
  subOfferAccess: boolean;
  custAccess: boolean;
}

/** The four flags of spec §3. */
export function accessFlagsFor(roles: Roles): AccessFlags {
  return {
    adminAccess: canContinue(roles, AREAS.admin),
    contentAccess: canContinue(roles, AREAS.content),
    subOfferAccess: canContinue(roles, AREAS.subscriptionsOffers),
    custAccess: canContinue(roles, AREAS.customerSupport),
  };
}

/** Tabs of spec §2.4 the user may see. */
export function visibleTabsFor(roles: Roles): typeof NAV_TABS[number][] {
  return NAV_TABS.filter((tab) => canContinue(roles, tab.area));
}

/** Spec §4.1 step 5: Dashboard 360 is dropped when the site is not in a non-empty allowed list. */
export function applyAllowedSites(roles: Roles, site: string, allowedSites: readonly string[]): Roles {
  if (allowedSites.length === 0 || allowedSites.includes(site)) return roles;
  const { [AREAS.dashboard360]: _dropped, ...rest } = roles;
  void _dropped;
  return rest;
}

/** Parses an untrusted roles value (cookie, storage, server) into a Roles map, dropping junk. */
export function parseRoles(value: unknown): Roles {
  if (!isRecord(value)) return {};
  const roles: Roles = {};
  for (const [area, level] of Object.entries(value)) {
    if (isOneOf(AREA_NAMES, area) && isOneOf(ACCESS_LEVELS, level)) {
      roles[area] = level;
    }
  }
  return roles;
}

/** The area that guards a path, for route guards (undefined: no area needed). */
export function areaForPath(path: string): AreaName | undefined {
  if (path.startsWith('/analytics')) return AREAS.dashboard360;
  if (path.startsWith('/content')) return AREAS.content;
  if (path.startsWith('/monetization')) return AREAS.subscriptionsOffers;
  if (path.startsWith('/users')) return AREAS.customerSupport;
  if (path.startsWith('/appcms')) return AREAS.appCms;
  if (path.startsWith('/admin')) return AREAS.admin;
  return undefined;
}
