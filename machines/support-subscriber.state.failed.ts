/** The subscriber machine's `failed` state (assembled in ./support-subscriber.machine.ts). */
import { subscriberSetup } from './support-subscriber.actions';

export const failedState = subscriberSetup.createStateConfig({
  description: 'The subscriber could not be read (not found, or the server failed); Retry reads again.',
  on: { 'subscriber.retry': 'loading' },
});
