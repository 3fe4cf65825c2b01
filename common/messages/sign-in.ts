/**
 * The words of the sign-in page, its second factor, the password flows, the session's end and the
 * crash screen: spec §2.9, §2.10, §5 and §8 (identity provider) verbatim, and our own where the spec
 * says "not shown". The sign-in page's first load reads only this module (issue 39); every message of
 * the product is still reachable from common/messages.ts, which spreads these in.
 */

/** The spec's words (§2.9, §2.10, §5, §8 identity provider). */
export const SIGN_IN_MESSAGES = {
  // §2.9, §2.10
  logoutConfirm: 'Are you sure you want to logout?',
  logoutCancel: 'Cancel',
  logoutConfirmButton: 'Yes, Logout',
  otpTitle: 'Verify OTP',
  otpInstruction: 'Enter the 6-digit code sent to your mobile phone',
  otpRates: 'Messages and data rates may apply.',
  otpWrongNumber: 'Wrong Number?',
  otpResend: 'Resend Code',
  otpConfirm: 'Confirm',
  crashTitle: 'Something went wrong',
  crashReload: 'Reload Page',
  crashSupport: 'If the problem persists, please contact technical support.',

  // §5
  passwordMismatch: 'New Password and Confirm Password must match.',
  passwordComplexity:
    'Password should be of minimum 8 characters, must include 1 special character, 1 lowercase and uppercase character, and 1 number.',
  passwordResetFailed: 'Password reset failed!',
  otpVerifyFailed: 'OTP verification failed!',
  otpSent: 'OTP sent successfully!',
  otpNotSent: 'OTP could not be sent!',

  // §8 identity provider
  idpGeneric: 'An error occurred',
  idpMissingApiKey: 'Missing or invalid API key.',
  idpMissingTenant: 'Missing or invalid tenant ID.',
} as const;

/** Identity-provider error codes and their messages (spec §8), verbatim. */
export const IDP_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  'auth/invalid-email': 'Invalid email address format.',
  'auth/wrong-password': 'Incorrect password.',
  'auth/user-not-found': 'No user exists with the provided credentials.',
  'auth/email-already-in-use': 'Email address is already associated with an account.',
  'auth/weak-password': 'Password is too weak.',
  'auth/credential-already-in-use': 'Credential is already used by another user.',
  'auth/requires-recent-login': 'Recent login required for sensitive operations.',
  'auth/user-disabled': 'User account has been disabled by an administrator.',
  'auth/too-many-requests': 'Requests are being made too quickly.',
  'auth/network-request-failed': 'Network issue or connection failure.',
  'auth/account-exists-with-different-credential': 'Email is already in use with a different credential.',
  'auth/operation-not-allowed': 'Certain operation is not allowed.',
  'auth/cancelled-popup-request': 'User closed the popup before completing authentication.',
  'auth/popup-closed-by-user': 'User closed the popup before completing authentication.',
  'auth/timeout': 'Operation timed out.',
  'auth/invalid-verification-code': 'Invalid verification code.',
  'auth/user-token-expired': "User's ID token has expired.",
  'auth/quota-exceeded': 'Quota for the operation exceeded.',
  'auth/invalid-app-credential': 'Invalid app credential.',
  'auth/invalid-tenant-id': 'Invalid tenant ID.',
};

/** Our own words of the sign-in and password flows and the session's end (where the spec says "not shown"). */
export const SIGN_IN_OWN_MESSAGES = {
  invalidCredentials: 'Invalid username or password.',
  tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
  /** SMS to the owner when an account reaches its cap of consecutive failed sign-in attempts (SECURITY.md C-LOCK-2). */
  failureCapSms: 'CMS Tools: there were many failed attempts to sign in to your account. Sign-in from new devices is paused; sign in from a device you used before, or contact your administrator.',
  otpExpired: 'OTP verification failed!',
  sessionExpired: 'Your session has ended. Please sign in again.',
  forgotPasswordAccepted: 'If the account exists, a verification code has been sent to its registered mobile number.',
  passwordMustDiffer: 'The new password must differ from the current one.',
  passwordResetSuccess: 'Password has been reset. Please sign in with your new password.',
  loggedOut: 'You have been logged out.',
  usernameRequired: 'Please enter your username.',
  passwordRequired: 'Please enter your password.',
  otpFormat: 'Enter the 6 digits of the code.',
  serverUnavailable: 'The server could not be reached. Please try again.',
  socialNotConfigured: 'Social sign-in is not configured for this console.',
  socialAccountNotLinked: 'No staff account is linked to this identity.',
  socialTokenInvalid: 'The sign-in could not be verified. Please try again.',
  loginSuccess: 'Signed in.',
  otpVerified: 'OTP verified.',
  otpRequired: 'Enter the verification code sent to your mobile phone.',
} as const;
