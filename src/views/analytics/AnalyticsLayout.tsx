/** Dashboard 360 (spec §2.5): the side navigation of its groups on every /analytics page. */
import { Link, Outlet } from '@tanstack/react-router';
import { ANALYTICS_GROUPS } from '../../config';
import { without, type AnalyticsSearch } from './search';
import * as css from './analytics.css';

function keepFilters(previous: AnalyticsSearch): AnalyticsSearch {
  return without(previous, 'sort', 'dir');
}

export function AnalyticsNav() {
  return (
    <nav className={css.sideNav} aria-label="Dashboard 360">
      {ANALYTICS_GROUPS.map((group) => (
        <div key={group.group} role="group" aria-labelledby={`nav-${group.group.replace(/\W+/g, '-')}`}>
          <div className={css.sideGroup} id={`nav-${group.group.replace(/\W+/g, '-')}`}>{group.group}</div>
          {group.pages.map((p) => (
            // The range and network carry over, so switching pages keeps the view (and its cached answers).
            <Link key={p.path} to={p.path} search={keepFilters as never} className={css.sideLink} activeOptions={{ exact: true, includeSearch: false }}>{p.title}</Link>
          ))}
        </div>
      ))}
    </nav>
  );
}

export function AnalyticsLayout() {
  return (
    <div className={css.layout}>
      <AnalyticsNav />
      <div className={css.content}><Outlet /></div>
    </div>
  );
}
