/** Content area (spec §2.6): the menu entries are external and point at '/'. */
import { CONTENT_MENU } from '../../config';
import { emptyState, page, pageTitle } from '../../theme/ui.css';
import { OWN_MESSAGES } from '../../messages';

export function ContentPage() {
  return (
    <main className={page}>
      <h1 className={pageTitle}>Content</h1>
      <nav aria-label="Content menu" style={{ display: 'flex', gap: '1rem', marginBottom: '1rem' }}>
        {CONTENT_MENU.map((entry) => <a key={entry.label} href={entry.href}>{entry.label}</a>)}
      </nav>
      <div className={emptyState} data-testid="empty-state"><p>{OWN_MESSAGES.notBuiltYet}</p></div>
    </main>
  );
}
