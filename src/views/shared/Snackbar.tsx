/**
 * The top snackbar of spec §2.10 on Radix toast. What shows, and for how long, is the notifier
 * machine's state; Radix only renders it. A message that offers Undo (issue 28) has an Undo button
 * (`notify.undo`), which reads "Undoing…" once taken.
 */
import * as Toast from '@radix-ui/react-toast';
import { useSelector } from '@xstate/react';
import { UNDO_MESSAGES } from '../../../common/revisions';
import { selectNotification } from '../../../machines/notifier.machine';
import { useAppActor } from '../../app-actor';
import * as css from './shared.css';

export function Snackbar() {
  const notifier = useAppActor('notifier');
  const notification = useSelector(notifier, selectNotification);
  return (
    <Toast.Provider swipeDirection="up" duration={Number.POSITIVE_INFINITY}>
      {notification && (
        <Toast.Root
          key={notification.id}
          open
          onOpenChange={(open) => { if (!open) notifier.send({ type: 'notify.dismiss' }); }}
          className={css.toast[notification.severity]}
          data-severity={notification.severity}
          data-testid="snackbar"
        >
          <Toast.Description data-testid="snackbar-message">{notification.message}</Toast.Description>
          {notification.undo && (
            <button
              type="button"
              className={css.toastUndo}
              disabled={notification.undoing}
              onClick={() => notifier.send({ type: 'notify.undo' })}
              data-testid="snackbar-undo"
            >
              {notification.undoing ? UNDO_MESSAGES.undoing : UNDO_MESSAGES.action}
            </button>
          )}
          <Toast.Close className={css.toastClose} aria-label="Dismiss">×</Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport className={css.toastViewport} />
    </Toast.Provider>
  );
}
