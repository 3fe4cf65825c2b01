import { Link } from '@tanstack/react-router';
import { OWN_MESSAGES } from '../../../common/messages';
import { button, page } from '../../theme/ui.css';
import * as css from './pages.css';

export function NotFoundPage() {
  return (
    <main className={`${page} ${css.notFound}`} data-testid="not-found">
      <h1>{OWN_MESSAGES.pageNotFound}</h1>
      <p>The address you followed does not exist in CMS Tools.</p>
      <Link to="/" className={button.primary}>Back to CMS Tools</Link>
    </main>
  );
}
