/** OTP rules (spec §5 and docs/security.md). */
export const OTP_TTL_MINUTES = 5;
export const OTP_MAX_WRONG_ATTEMPTS = 5;
/** A password-verified login attempt can have its code re-sent for this long. */
export const LOGIN_ATTEMPT_TTL_MINUTES = 10;
/** Password-reset tokens handed out after a 'password' OTP. */
export const RESET_TOKEN_TTL_MINUTES = 15;
export type OtpPurpose = 'login' | 'password';
