/**
 * Dashboard 360 (spec §2.5): the side navigation of its groups on every /analytics page, then (issue 41)
 * the alerts and saved views. It collapses
 * (issue 20): under 900 px it folds above the page behind a Sections button that a chosen report closes
 * again (open / closed is view-only state, like the AppCMS side navigation); at desktop width a button
 * collapses it to a narrow strip and expands it again, remembered (src/views/shared/preferences.ts).
 */
import { Link, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { ANALYTICS_GROUPS, ANALYTICS_TOOL_GROUPS } from '../../config';
import { setSideNavCollapsed, usePreferences } from '../shared/preferences';
import { without, type AnalyticsSearch } from './search';
import * as css from './analytics.css';

function keepFilters(previous: AnalyticsSearch): AnalyticsSearch {
  // The QoS filter set carries over (issue 41); a breakdown, a page of views and a note are the page's own.
  return without(previous, 'sort', 'dir', 'by', 'page', 'fNote', 'compareNote');
}

const LINKS_ID = 'analytics-sections';

export function AnalyticsNav() {
  const [open, setOpen] = useState(false);
  const collapsed = usePreferences().sideNavCollapsed;
  return (
    <nav className={css.sideNav} aria-label="Dashboard 360" data-open={open} data-collapsed={collapsed}>
      {/* Desktop: collapse to a strip, or expand (the name stays, aria-expanded says which). */}
      <button type="button" className={css.sideCollapse} aria-label="Reports menu" aria-expanded={!collapsed} aria-controls={LINKS_ID}
        title={collapsed ? 'Show the reports menu' : 'Hide the reports menu'} onClick={() => setSideNavCollapsed(!collapsed)}>
        <span aria-hidden>{collapsed ? '»' : '«'}</span>
      </button>
      {/* Under 900 px: the reports fold behind this button. */}
      <button type="button" className={css.sideToggle} aria-expanded={open} aria-controls={LINKS_ID} onClick={() => setOpen(!open)}>
        Sections
      </button>
      <div id={LINKS_ID} className={css.sideLinks} onClick={(e) => { if (e.target instanceof Element && e.target.closest('a')) setOpen(false); }}>
        {ANALYTICS_GROUPS.map((group) => (
          <div key={group.group} role="group" aria-labelledby={`nav-${group.group.replace(/\W+/g, '-')}`}>
            <div className={css.sideGroup} id={`nav-${group.group.replace(/\W+/g, '-')}`}>{group.group}</div>
            {group.pages.map((p) => (
              // The range and network carry over, so switching pages keeps the view (and its cached answers).
              <Link key={p.path} to={p.path} search={keepFilters} className={css.sideLink} activeOptions={{ exact: true, includeSearch: false }}>{p.title}</Link>
            ))}
          </div>
        ))}
        {/* Issue 41: the alerts and saved views after the spec's groups (their own addresses: no range or filters carried). */}
        {ANALYTICS_TOOL_GROUPS.map((group) => (
          <div key={group.group} role="group" aria-labelledby={`nav-${group.group.replace(/\W+/g, '-')}`}>
            <div className={css.sideGroup} id={`nav-${group.group.replace(/\W+/g, '-')}`}>{group.group}</div>
            {group.pages.map((p) => (
              <Link key={p.path} to={p.path} className={css.sideLink} activeOptions={{ exact: true, includeSearch: false }}>{p.title}</Link>
            ))}
          </div>
        ))}
      </div>
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
