/** The "Two-factor authentication" page's actor, reachable from every part of the page by context. */
import { createActorContext } from '@xstate/react';
import { totpEnrolmentMachine } from '../../../machines/totp-enrolment.machine';

export const TotpEnrolmentContext = createActorContext(totpEnrolmentMachine);
