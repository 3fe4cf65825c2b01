/** The "My sessions" page's actor (the `ownSessions` page machine), reachable from every part of the page by context. */
import type { OwnSessionsMachine } from '../../../machines/own-sessions.machine';
import { pageActorContext } from '../shared/page-actor-context';

export const OwnSessionsContext = pageActorContext<OwnSessionsMachine>('The sessions page');
