import { OWN_MESSAGES } from '../../../common/messages';
import { emptyState, page, pageTitle } from '../../theme/ui.css';

export function ForbiddenPage() {
  return (
    <main className={page} data-testid="forbidden">
      <h1 className={pageTitle}>No access</h1>
      <div className={emptyState}>
        <p>{OWN_MESSAGES.forbidden}</p>
        <p>Your account has no role in any area of CMS Tools. Ask an administrator of your site to grant you access.</p>
      </div>
    </main>
  );
}
