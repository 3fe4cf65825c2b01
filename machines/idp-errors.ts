/**
 * The words a failed social sign-in shows (spec §8 "Identity provider code mapping"): every code of
 * the table maps to its message verbatim; the two configuration errors have their own messages;
 * any other identity-provider code is 'An error occurred'; a failure without a code (our server's
 * refusal, a transport error) shows its own message.
 */
import { IDP_ERROR_MESSAGES, SIGN_IN_MESSAGES as MESSAGES } from '../common/messages/sign-in';

/** Codes our Firebase adapter raises before the identity provider is even asked. */
export const IDP_CONFIG_ERRORS = {
  missingApiKey: 'config/missing-api-key',
  missingTenant: 'config/missing-tenant-id',
} as const;

/** Firebase's own code for an API key it refuses. */
const INVALID_API_KEY = 'auth/invalid-api-key';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

export function idpErrorMessage(error: unknown): string {
  const code = codeOf(error);
  if (code === IDP_CONFIG_ERRORS.missingApiKey || code === INVALID_API_KEY) return MESSAGES.idpMissingApiKey;
  if (code === IDP_CONFIG_ERRORS.missingTenant) return MESSAGES.idpMissingTenant;
  if (code !== undefined) return IDP_ERROR_MESSAGES[code] ?? MESSAGES.idpGeneric;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return MESSAGES.idpGeneric;
}
