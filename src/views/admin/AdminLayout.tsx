/** The Admin area: Staff and Audit log as two sub-pages. */
import { Link, Outlet } from '@tanstack/react-router';
import { ROUTES } from '../../../common/constants';
import { page, pageTitle } from '../../theme/ui.css';
import * as css from './admin.css';

export function AdminLayout() {
  return (
    <main className={page}>
      <h1 className={pageTitle}>Admin</h1>
      <nav className={css.subNav} aria-label="Admin">
        <Link to={ROUTES.admin} className={css.subLink} activeOptions={{ exact: true }}>Staff</Link>
        <Link to={ROUTES.adminAudit} className={css.subLink}>Audit log</Link>
      </nav>
      <Outlet />
    </main>
  );
}
