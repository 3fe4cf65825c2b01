/** The subscriber machine's `notFound` state (assembled in ./support-subscriber.machine.ts). */
import { subscriberSetup } from './support-subscriber.actions';

export const notFoundState = subscriberSetup.createStateConfig({
  description: 'The id names no subscriber of this site (unknown, another site\'s, or not an id): a not-found page with a way back; reading again cannot help.',
  type: 'final',
});
