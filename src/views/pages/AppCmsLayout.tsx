/**
 * AppCMS (spec §2.7): a side navigation of its sub-pages. Under 900 px it folds above the page behind
 * a Sections button (issue 20); choosing a section closes it again. Open / closed is view-only state.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { APPCMS_PAGES } from '../../config';
import * as css from './pages.css';

export function AppCmsLayout() {
  const [open, setOpen] = useState(false);
  return (
    <div className={css.areaLayout}>
      <nav className={css.sideNav} aria-label="AppCMS" data-open={open}>
        <div className={css.sideGroup}>AppCMS</div>
        <button type="button" className={css.sideToggle} aria-expanded={open} aria-controls="appcms-sections" onClick={() => setOpen(!open)}>
          Sections
        </button>
        <div id="appcms-sections" className={css.sideLinks} onClick={() => setOpen(false)}>
          {APPCMS_PAGES.map((p) => (
            <Link key={p.path} to={p.path} className={css.sideLink}>{p.title}</Link>
          ))}
        </div>
      </nav>
      <div className={css.areaContent}><Outlet /></div>
    </div>
  );
}
