/**
 * Actions that reach another actor of the app system by its systemId, shared by every machine that
 * needs them. Each does nothing when the receiver is not in the system (a machine tested alone).
 *
 *   setup({ actions: { notify, signalSignedOut } })
 */
import { enqueueActions, type ActionFunction, type EventObject } from 'xstate';
import { showNotification, type NotifyParams } from './notify';

/**
 * An action usable in any machine's setup. setup checks each action against that machine's own
 * context, events, actors and delays; these never read them, so they are typed to fit every machine.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SharedAction<TParams> = ActionFunction<any, any, any, TParams, any, any, any, any, any>;

/** Shows a message in the `notifier` snackbar. */
export const notify: SharedAction<NotifyParams> = enqueueActions(({ enqueue, system }, params: NotifyParams) => {
  const notifier = system.get('notifier');
  if (notifier) enqueue.sendTo(notifier, showNotification(params));
});

/** Tells the `auth` actor that nobody is signed in any more (the session ended at the server). */
export const signalSignedOut: SharedAction<undefined> = enqueueActions(({ enqueue, system }) => {
  const auth = system.get('auth');
  if (auth) enqueue.sendTo(auth, { type: 'auth.signedOut' });
});

/** Tells the root `app` actor something it relays to the other concerns (sign-in state, restore). */
export const tellApp: SharedAction<EventObject> = enqueueActions(({ enqueue, system }, params: EventObject) => {
  const app = system.get('app');
  if (app) enqueue.sendTo(app, params);
});

/** Sends an event to the system actor named in the params, when it is there. */
export const tellSystemActor: SharedAction<{ systemId: string; event: EventObject }> = enqueueActions(
  ({ enqueue, system }, params: { systemId: string; event: EventObject }) => {
    const target = system.get(params.systemId);
    if (target) enqueue.sendTo(target, params.event);
  },
);
