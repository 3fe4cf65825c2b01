/**
 * The signed-in user's own account (issue 19): the password blocklist, the current password, their own
 * sessions. In its own module because the Change Password form's machine reads it (issue 39);
 * common/messages.ts re-exports it.
 */
export const ACCOUNT_MESSAGES = {
  passwordCommon: 'This password is one of the most commonly used passwords. Choose a less predictable one.',
  currentPasswordLabel: 'Current Password',
  currentPasswordRequired: 'Please enter your current password.',
  currentPasswordWrong: 'The current password is not correct.',
  sessionsTitle: 'My sessions',
  sessionsMenuItem: 'My sessions',
  sessionsIntro: 'Where your account is signed in now. End any session you do not recognise: it is signed out at once.',
  sessionsFailed: 'Your sessions could not be loaded.',
  sessionsEmpty: 'No active sessions.',
  sessionThisOne: 'This session',
  sessionEnd: 'End session',
  sessionEnded: 'The session was ended.',
  sessionEndFailed: 'The session could not be ended.',
  sessionNotFound: 'This session does not exist or has already ended.',
  sessionEndThisConfirm: 'This is the session you are using now: ending it signs you out here. Continue?',
  unknownDevice: 'Unknown device',
} as const;
