/** `newPassword` of the password flows: the form holding the reset token, then the reset itself. */
import { ACCOUNT_MESSAGES } from '../common/messages/account';
import { SIGN_IN_MESSAGES } from '../common/messages/sign-in';
import { AFTER_RESET, currentPasswordOf, draftOf, RESET_FAILED, resetInput, resetRefusal } from './forgot-password.actions';
import { forgotPasswordSetup } from './forgot-password.setup';
import { requestState } from './request-state';

export const newPassword = forgotPasswordSetup.createStateConfig({
  description: 'The new-password form, holding the reset token; the rule checklist follows the draft; leaving it with typed input asks first.',
  initial: 'editing',
  on: {
    'reset.edit': { actions: { type: 'setDraft', params: draftOf } },
    'reset.current': { actions: { type: 'setCurrentPassword', params: currentPasswordOf } },
  },
  states: {
    editing: {
      description: 'Typing the new password and its confirmation.',
      on: {
        'reset.submit': [
          { guard: 'arePasswordsDifferent', actions: { type: 'setError', params: { message: SIGN_IN_MESSAGES.passwordMismatch } } },
          { guard: 'isPasswordWeak', actions: { type: 'setError', params: { message: SIGN_IN_MESSAGES.passwordComplexity } } },
          { guard: 'isCurrentPasswordMissing', actions: { type: 'setError', params: { message: ACCOUNT_MESSAGES.currentPasswordRequired } } },
          { target: 'resetting', actions: 'clearError' },
        ],
        'reset.navigate': { guard: 'isTyped', target: 'confirmingLeave' },
      },
    },
    confirmingLeave: {
      description: 'A navigation away with typed passwords (issue 38): the form asks (Stay or Leave); nothing is kept as a draft.',
      on: {
        'reset.stay': 'editing',
        // Leaving gives the change up: the flow and its reset token are forgotten (the account stays).
        'reset.leave': { target: '#forgotPassword.idle', actions: 'forgetFlow' },
      },
    },
    resetting: requestState({
      src: 'resetPassword',
      description: 'The new password is with the server, the reset token in Authorization.',
      input: resetInput,
      retry: 'editing',
      refused: { message: resetRefusal },
      failed: { message: RESET_FAILED },
      succeeded: [
        {
          // Change flow: the server ended every session of the user, this one too, so sign out here as well.
          guard: 'isChangeMode',
          target: '#forgotPassword.idle',
          actions: ['clearSession', 'signalSignedOut', ...AFTER_RESET],
        },
        { target: '#forgotPassword.idle', actions: [...AFTER_RESET] },
      ],
    }),
  },
});
