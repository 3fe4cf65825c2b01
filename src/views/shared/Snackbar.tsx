/**
 * The top snackbar of spec §2.10 on Radix toast. What shows, and for how long, is the notifier
 * machine's state; Radix only renders it.
 */
import * as Toast from '@radix-ui/react-toast';
import { useSelector } from '@xstate/react';
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
          <Toast.Description>{notification.message}</Toast.Description>
          <Toast.Close className={css.toastClose} aria-label="Dismiss">×</Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport className={css.toastViewport} />
    </Toast.Provider>
  );
}
