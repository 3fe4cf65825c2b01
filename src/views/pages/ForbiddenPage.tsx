/**
 * /forbidden (issue 20): names the area the user has no role in (from `?area=`), offers their own
 * landing page when they have a role anywhere, and always a way out: sign out to sign in as someone else.
 * Only an account without any role is told it has no role in any area.
 */
import { Link, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectRoles } from '../../../machines/auth.machine';
import { NAV_TABS, ROUTES, type AreaName } from '../../../common/constants';
import { OWN_MESSAGES } from '../../../common/messages';
import { landingRouteFor } from '../../../common/roles';
import { useAppActor } from '../../app-actor';
import { button, emptyState, page, pageTitle } from '../../theme/ui.css';
import * as css from './ForbiddenPage.css';

export function ForbiddenPage() {
  const auth = useAppActor('auth');
  const roles = useSelector(auth, selectRoles);
  const { area } = useSearch({ strict: false }) as { area?: AreaName };
  const landing = landingRouteFor(roles);
  const hasSomeRole = landing !== ROUTES.forbidden;
  const landingLabel = NAV_TABS.find((t) => t.route === landing)?.label ?? (landing === ROUTES.admin ? 'Admin' : landing);
  return (
    <main className={page} data-testid="forbidden" id="main">
      <h1 className={pageTitle}>No access</h1>
      <div className={emptyState}>
        <p>{area ? OWN_MESSAGES.forbiddenArea(area) : OWN_MESSAGES.forbidden}</p>
        <p>{hasSomeRole ? OWN_MESSAGES.forbiddenAskAdmin : OWN_MESSAGES.forbiddenNoRole}</p>
        <div className={css.actions}>
          {hasSomeRole && <Link to={landing} className={button.primary}>{OWN_MESSAGES.forbiddenGoTo(landingLabel)}</Link>}
          <Link to={ROUTES.logout} className={hasSomeRole ? button.secondary : button.primary}>{OWN_MESSAGES.forbiddenSignOut}</Link>
        </div>
      </div>
    </main>
  );
}
