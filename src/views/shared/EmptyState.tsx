/** An honest empty state for a page whose data is not built yet. */
import { OWN_MESSAGES } from '../../../common/messages';
import { emptyState, page, pageTitle } from '../../theme/ui.css';

export function EmptyStatePage({ title, detail }: { title: string; detail?: string }) {
  return (
    <main className={page}>
      <h1 className={pageTitle}>{title}</h1>
      <div className={emptyState} data-testid="empty-state">
        <p>{detail ?? OWN_MESSAGES.notBuiltYet}</p>
      </div>
    </main>
  );
}
