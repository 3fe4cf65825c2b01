/**
 * Whether the signed-in role reaches an area (read or better), for links into it from another area:
 * the Dashboard's "Paying subscribers" into Users, report titles into Content (issue 27). A role
 * without the area sees plain text, never a link that ends on /forbidden.
 */
import { useSelector } from '@xstate/react';
import type { AreaName } from '../../../common/constants';
import { canContinue } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { useAppActor } from '../../app-actor';

export function useReachesArea(area: AreaName): boolean {
  return canContinue(useSelector(useAppActor('auth'), selectRoles), area);
}
