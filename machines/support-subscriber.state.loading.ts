/** The subscriber machine's `loading` state (assembled in ./support-subscriber.machine.ts). */
import { subscriberSetup } from './support-subscriber.actions';

export const loadingState = subscriberSetup.createStateConfig({
  description: 'The subscriber is being read.',
  invoke: {
    id: 'loadSubscriber',
    src: 'loadSubscriber',
    input: ({ context }) => ({ subscriberId: context.subscriberId }),
    onDone: { target: 'ready', actions: [{ type: 'setDetail', params: ({ event }) => ({ detail: event.output }) }, 'spawnDisclosures', 'settleDraft'] },
    onError: [
      { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
      { target: 'failed', actions: { type: 'setLoadError', params: ({ event }) => ({ error: event.error }) } },
    ],
  },
});
