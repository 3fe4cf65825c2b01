/** Dashboard 360 (spec §2.5): a side navigation of its 22 sub-pages around the current one. */
import { Link, Outlet } from '@tanstack/react-router';
import { ANALYTICS_GROUPS } from '../../config';
import * as css from './pages.css';

export function AnalyticsLayout() {
  return (
    <div className={css.areaLayout}>
      <nav className={css.sideNav} aria-label="Dashboard 360">
        {ANALYTICS_GROUPS.map((group) => (
          <div key={group.group}>
            <div className={css.sideGroup}>{group.group}</div>
            {group.pages.map((p) => (
              <Link key={p.path} to={p.path} className={css.sideLink} activeOptions={{ exact: true }}>{p.title}</Link>
            ))}
          </div>
        ))}
      </nav>
      <div className={css.areaContent}><Outlet /></div>
    </div>
  );
}
