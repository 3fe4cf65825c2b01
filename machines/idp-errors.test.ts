import { describe, expect, it } from 'vitest';
import { IDP_ERROR_MESSAGES, MESSAGES } from '../common/messages';
import { IDP_CONFIG_ERRORS, idpErrorMessage } from './idp-errors';

/** Spec §8, copied row by row: the table in common/messages.ts must say exactly this. */
const SPEC_TABLE: readonly [string, string][] = [
  ['auth/invalid-email', 'Invalid email address format.'],
  ['auth/wrong-password', 'Incorrect password.'],
  ['auth/user-not-found', 'No user exists with the provided credentials.'],
  ['auth/email-already-in-use', 'Email address is already associated with an account.'],
  ['auth/weak-password', 'Password is too weak.'],
  ['auth/credential-already-in-use', 'Credential is already used by another user.'],
  ['auth/requires-recent-login', 'Recent login required for sensitive operations.'],
  ['auth/user-disabled', 'User account has been disabled by an administrator.'],
  ['auth/too-many-requests', 'Requests are being made too quickly.'],
  ['auth/network-request-failed', 'Network issue or connection failure.'],
  ['auth/account-exists-with-different-credential', 'Email is already in use with a different credential.'],
  ['auth/operation-not-allowed', 'Certain operation is not allowed.'],
  ['auth/cancelled-popup-request', 'User closed the popup before completing authentication.'],
  ['auth/popup-closed-by-user', 'User closed the popup before completing authentication.'],
  ['auth/timeout', 'Operation timed out.'],
  ['auth/invalid-verification-code', 'Invalid verification code.'],
  ['auth/user-token-expired', "User's ID token has expired."],
  ['auth/quota-exceeded', 'Quota for the operation exceeded.'],
  ['auth/invalid-app-credential', 'Invalid app credential.'],
  ['auth/invalid-tenant-id', 'Invalid tenant ID.'],
];

/** What the Firebase SDK throws: a FirebaseError with a code and its own (different) message. */
function firebaseError(code: string): Error & { code: string } {
  return Object.assign(new Error(`Firebase: Error (${code}).`), { name: 'FirebaseError', code });
}

describe('identity-provider error messages (spec §8)', () => {
  it.each(SPEC_TABLE)('%s → %s', (code, message) => {
    expect(idpErrorMessage(firebaseError(code))).toBe(message);
    expect(idpErrorMessage({ code })).toBe(message);
  });

  it('the message table holds exactly the spec rows', () => {
    expect(Object.entries(IDP_ERROR_MESSAGES).sort()).toEqual([...SPEC_TABLE].sort());
  });

  it("any other code is 'An error occurred'", () => {
    for (const code of ['auth/internal-error', 'auth/popup-blocked', 'auth/unknown', 'storage/unknown']) {
      expect(idpErrorMessage(firebaseError(code))).toBe('An error occurred');
    }
    expect(MESSAGES.idpGeneric).toBe('An error occurred');
  });

  it("a missing or refused API key is 'Missing or invalid API key.'", () => {
    expect(idpErrorMessage({ code: IDP_CONFIG_ERRORS.missingApiKey })).toBe('Missing or invalid API key.');
    expect(idpErrorMessage(firebaseError('auth/invalid-api-key'))).toBe('Missing or invalid API key.');
  });

  it("a missing Microsoft tenant is 'Missing or invalid tenant ID.'", () => {
    expect(idpErrorMessage({ code: IDP_CONFIG_ERRORS.missingTenant })).toBe('Missing or invalid tenant ID.');
  });

  it('a failure without a code shows its own message, else the generic one', () => {
    expect(idpErrorMessage(new Error('No staff account is linked to this identity.'))).toBe('No staff account is linked to this identity.');
    expect(idpErrorMessage('plain words')).toBe('plain words');
    expect(idpErrorMessage(new Error(''))).toBe('An error occurred');
    expect(idpErrorMessage(undefined)).toBe('An error occurred');
    expect(idpErrorMessage(null)).toBe('An error occurred');
  });
});
