import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { otpStepMachine, selectOtpPanel } from '../../../machines/otp-step.machine';
import { pendingActor } from '../../../machines/test-harness/fakes';
import { MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { OtpFields } from './OtpFields';

function codeStep() {
  const actor = createActor(otpStepMachine.provide({ actors: { verifyOtp: pendingActor(), generateOtp: pendingActor() } }), {
    input: { username: 'ada', isLogin: true, obscureMobileNumber: '+1 *** *** 1234' },
  }).start();
  const sent: string[] = [];
  const send = actor.send.bind(actor);
  actor.send = (event) => { sent.push(event.type); send(event); };
  return { actor, sent };
}

describe('OtpFields', () => {
  it('shows the instruction, the masked tail, the code box, the countdown and the rates note', async () => {
    const { actor } = codeStep();
    await renderView(<OtpFields actor={actor} step={selectOtpPanel(actor.getSnapshot())} />);
    expect(screen.getByText(MESSAGES.otpInstruction, { exact: false })).toBeTruthy();
    expect(screen.getByTestId('otp-phone').textContent).toBe('•••• 1234');
    expect(screen.getByLabelText('Verification code').getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByRole('button', { name: 'Resend in 30s' })).toHaveProperty('disabled', true);
    expect(screen.getByText(MESSAGES.otpRates)).toBeTruthy();
  });

  it('sends what is typed and Resend Code to the code step', async () => {
    const { actor, sent } = codeStep();
    const step = { ...selectOtpPanel(actor.getSnapshot()), canResend: true, error: 'Enter the 6 digits of the code.' };
    const view = await renderView(<OtpFields actor={actor} step={step} />);
    await view.user.type(screen.getByLabelText('Verification code'), '4');
    await view.user.click(screen.getByRole('button', { name: MESSAGES.otpResend }));
    expect(sent).toEqual(['otp.edit', 'otp.resend']);
    expect(screen.getByRole('alert').textContent).toBe('Enter the 6 digits of the code.');
  });

});
