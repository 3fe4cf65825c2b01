/** Reads the 'Verify OTP' panel from a running code step, or null when there is none. */
import { shallowEqual, useSelector } from '@xstate/react';
import { selectOtpPanel, type OtpStepActorRef, type OtpStepSnapshot } from '../../../machines/otp-step.machine';
import type { OtpStep } from '../../../machines/otp';

const selectPanel = (snapshot: OtpStepSnapshot | undefined): OtpStep | null => (snapshot ? selectOtpPanel(snapshot) : null);

export function useOtpPanel(actor: OtpStepActorRef | null): OtpStep | null {
  return useSelector(actor ?? undefined, selectPanel, shallowEqual);
}
