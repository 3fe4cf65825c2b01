/**
 * The grant cap of the Admin area (issue 25): an Admin editor hands out roles only up to its own,
 * area by area and level by level. Server (server/domain/staff-admin.ts) and client (the staff
 * editor's role grid) use this one rule.
 *
 * Levels rank read < contributor < write (`none` below all). Changing an account's level in an area
 * (adding, raising, lowering or removing it) needs the granter to hold that area at least at the
 * higher of the old and the new level; an area left as it is never needs anything, so roles the
 * granter does not hold stay on the account unchanged (they can be neither added nor removed).
 */
import { AREA_NAMES, type AccessLevel, type AreaName } from './constants';
import type { Roles } from './contract';

const RANK: Record<AccessLevel | 'none', number> = { none: 0, read: 1, contributor: 2, write: 3 };

function rankOf(level: AccessLevel | 'none' | undefined): number {
  return level === undefined ? 0 : RANK[level] ?? 0;
}

/** Whether `granter` may set `area` from `from` (the stored level) to `to`. */
export function canSetLevel(granter: Roles, area: AreaName, from: AccessLevel | 'none' | undefined, to: AccessLevel | 'none' | undefined): boolean {
  if ((from ?? 'none') === (to ?? 'none')) return true;
  return rankOf(granter[area]) >= Math.max(rankOf(from), rankOf(to));
}

/** The areas whose change from `before` to `after` is above what `granter` holds (empty: allowed). */
export function grantsAboveOwn(granter: Roles, before: Roles, after: Roles): AreaName[] {
  return AREA_NAMES.filter((area) => !canSetLevel(granter, area, before[area], after[area]));
}
