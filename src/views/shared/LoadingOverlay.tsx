/** Full-screen loading overlay of spec §2.10. */
import * as css from './shared.css';

export function LoadingOverlay({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={css.loadingOverlay} role="status" aria-live="polite" data-testid="loading-overlay">
      <div className={css.spinner} />
      <span>{label}</span>
    </div>
  );
}
