/**
 * /forbidden (issue 20): names the area the user has no role in (from `?area=`), offers their own
 * landing page when they have a role anywhere, and always a way out: sign out to sign in as someone else.
 * Only an account without any role is told it has no role in any area.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectRoles, selectSession } from '../../../machines/auth.machine';
import { NAV_TABS, ROUTES } from '../../../common/constants';
import { landingRouteFor } from '../../../common/roles';
import { useAppActor } from '../../app-actor';
import { useShellText } from '../shared/shell-text';
import { button, emptyState, page, pageTitle } from '../../theme/ui.css';
import * as css from './ForbiddenPage.css';

export function ForbiddenPage() {
  const auth = useAppActor('auth');
  const roles = useSelector(auth, selectRoles);
  const username = useSelector(auth, selectSession)?.username ?? null;
  const { area } = getRouteApi('/protected/forbidden').useSearch();
  const text = useShellText();
  const landing = landingRouteFor(roles);
  const hasSomeRole = landing !== ROUTES.forbidden;
  const landingLabel = NAV_TABS.find((t) => t.route === landing)?.label ?? (landing === ROUTES.admin ? text.admin : landing);
  return (
    <main className={page} data-testid="forbidden" id="main">
      <h1 className={pageTitle}>{text.forbiddenTitle}</h1>
      <div className={emptyState}>
        <p>{area ? text.forbiddenArea(area) : text.forbidden}</p>
        <p>{hasSomeRole ? text.forbiddenAskAdmin : text.forbiddenNoRole}</p>
        {username && <p>{text.forbiddenSignedInAs(username)}</p>}
        <div className={css.actions}>
          {hasSomeRole && <Link to={landing} className={button.primary}>{text.forbiddenGoTo(landingLabel)}</Link>}
          <Link to={ROUTES.logout} className={hasSomeRole ? button.secondary : button.primary}>{text.forbiddenSignOut}</Link>
        </div>
      </div>
    </main>
  );
}
