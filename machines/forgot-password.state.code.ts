/**
 * The code of the password flows: asking the server for it (`requesting` in the forgot flow,
 * `generating` in the header's change flow), then the 'Verify OTP' step (`code`, the otpStep child).
 */
import { ROUTES } from '../common/constants';
import {
  codeSentTo, forgotAccepted, forgotRefusal, generateInput, newPasswordPage, otpStepInput, requestInput, resetTokenOf, unreachable,
} from './forgot-password.actions';
import { forgotPasswordSetup } from './forgot-password.setup';
import { OTP_NOT_SENT, OTP_SENT } from './otp';
import { requestState } from './request-state';

export const requesting = forgotPasswordSetup.createStateConfig(requestState({
  src: 'requestPasswordOtp',
  description: 'Forgot flow: the username is with the server, which texts a code to a known account.',
  input: requestInput,
  retry: 'idle',
  refused: { message: forgotRefusal },
  failed: { message: unreachable },
  succeeded: [{
    target: 'code',
    actions: [{ type: 'navigate', params: { to: `${ROUTES.verifyNumber}?forgot=true` } }, { type: 'notify', params: forgotAccepted }],
  }],
}));

export const generating = forgotPasswordSetup.createStateConfig(requestState({
  src: 'generateOtp',
  description: 'Change flow: a code is being sent to the signed-in user (isLogin false, with their token and key).',
  input: generateInput,
  retry: 'idle',
  refused: { message: OTP_NOT_SENT, to: ['notify'] },
  failed: { message: OTP_NOT_SENT, to: ['notify'] },
  succeeded: [{ target: 'code', actions: [{ type: 'setObscureMobileNumber', params: codeSentTo }, { type: 'notify', params: OTP_SENT }] }],
}));

export const code = forgotPasswordSetup.createStateConfig({
  description: "The 'Verify OTP' step (the otpStep child, isLogin false): the /verify-number?forgot=true page, or the header flow's modal.",
  on: {
    // Sent by the code step when it is closed with nothing typed or left after its question (issue 38),
    // or by the modal while no step runs yet.
    'otp.cancel': { target: 'idle', actions: 'forgetFlow' },
  },
  invoke: {
    id: 'otpStep',
    src: 'otpStep',
    input: otpStepInput,
    onDone: {
      target: 'newPassword',
      actions: [{ type: 'setResetToken', params: resetTokenOf }, { type: 'navigate', params: newPasswordPage }],
    },
  },
});

