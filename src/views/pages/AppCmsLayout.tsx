/** AppCMS (spec §2.7): a side navigation of its sub-pages. */
import { Link, Outlet } from '@tanstack/react-router';
import { APPCMS_PAGES } from '../../config';
import * as css from './pages.css';

export function AppCmsLayout() {
  return (
    <div className={css.areaLayout}>
      <nav className={css.sideNav} aria-label="AppCMS">
        <div className={css.sideGroup}>AppCMS</div>
        {APPCMS_PAGES.map((p) => (
          <Link key={p.path} to={p.path} className={css.sideLink}>{p.title}</Link>
        ))}
      </nav>
      <div className={css.areaContent}><Outlet /></div>
    </div>
  );
}
