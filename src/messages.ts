/**
 * Every user-facing message of the product spec, verbatim (spec §2, §5, §8), in one place.
 * Messages with a value are functions; the words around the value are the spec's.
 */

export const MESSAGES = {
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

  // §8
  failedToFetchNetworks: 'Failed to fetch networks',
  siteNotFound: 'Site not found',
  networkNotFound: (id: string) => `Network with identifier ${id} not found`,
  failedToLaunch: (name: string) => `Failed to launch ${name}`,
  launched: (name: string) => `Successfully launched ${name}`,
  copied: (what: string, from: string, to: string) => `Successfully copied ${what} from ${from} to ${to}`,
  credentialsMissing: 'Authorization or API key missing',
  noNetworkSelected: 'No network selected',
  failedToGet: (what: string, network: string) => `${network}: Failed to get ${what} for ${network}`,
  genericGraphqlError: 'Something went wrong!',
  invalidData: 'Invalid data',
  isDefaultNetwork: (name: string) => `${name} is the default network.`,
  requestCancelled: 'Request cancelled',

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

/** Messages of our own (where the spec says "not shown"): kept here so a reader finds all words in one place. */
export const OWN_MESSAGES = {
  invalidCredentials: 'Invalid username or password.',
  tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
  otpExpired: 'OTP verification failed!',
  sessionExpired: 'Your session has ended. Please sign in again.',
  unauthorized: 'Unauthorized',
  forbidden: 'You do not have access to this area.',
  badRequest: 'The request is not valid.',
  notFound: 'Not found',
  forgotPasswordAccepted: 'If the account exists, a verification code has been sent to its registered mobile number.',
  passwordMustDiffer: 'The new password must differ from the current one.',
  passwordResetSuccess: 'Password has been reset. Please sign in with your new password.',
  loggedOut: 'You have been logged out.',
  inactivityWarning: 'You will be signed out in one minute because of inactivity.',
  staySignedIn: 'Stay signed in',
  notBuiltYet: 'This page is not available yet in this console. Its data will appear here once the feature is built.',
  pageNotFound: 'Page not found',
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
  // Networks (issue 6): the switcher's marks, the confirmations and the AppCMS pages' notes.
  networkLaunched: 'Launched',
  networkNotLaunched: 'Not launched',
  networkLaunchTitle: 'Launch network',
  networkLaunchConfirm: (name: string) => `Launch ${name}? It goes live for its viewers.`,
  networkCopyTitle: (what: string) => `Copy ${what} from default`,
  networkCopyConfirm: (what: string, from: string, to: string) =>
    `Copy the ${what} of ${from} (the default network) onto ${to}? The ${what} of ${to} will be replaced.`,
  networkDefaultData: (name: string) =>
    `${name} is the default network: its brand and settings are the source that "Copy from default" copies onto the other networks. Choose another network in the header to see its own data here.`,
  networkLoadingData: 'Loading…',
  networkNone: 'No networks',
} as const;
