/** The "My sessions" page's actor, reachable from every part of the page by context. */
import { createActorContext } from '@xstate/react';
import { ownSessionsMachine } from '../../../machines/own-sessions.machine';

export const OwnSessionsContext = createActorContext(ownSessionsMachine);
