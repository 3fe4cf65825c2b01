/** The "Two-factor authentication" page's actor (the `twoFactor` page machine), reachable from every part of the page by context. */
import type { TotpEnrolmentMachine } from '../../../machines/totp-enrolment.machine';
import { pageActorContext } from '../shared/page-actor-context';

export const TotpEnrolmentContext = pageActorContext<TotpEnrolmentMachine>('The two-factor page');
