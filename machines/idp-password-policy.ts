/**
 * The identity provider's password policy (spec §5): a minimum length (6 unless the server says
 * otherwise) and optional maximum length, lowercase, uppercase, numeric and non-alphanumeric
 * requirements supplied by the server. The shape follows Firebase's password policy
 * (`customStrengthOptions`); unknown or malformed fields are ignored, so a policy never gets
 * stricter than what the server asked for.
 */

export const IDP_DEFAULT_MIN_PASSWORD_LENGTH = 6;

export interface IdpPasswordPolicy {
  minPasswordLength: number;
  maxPasswordLength?: number;
  containsLowercaseLetter?: boolean;
  containsUppercaseLetter?: boolean;
  containsNumericCharacter?: boolean;
  containsNonAlphanumericCharacter?: boolean;
}

export type IdpPasswordRequirement =
  | 'minLength' | 'maxLength' | 'lowercase' | 'uppercase' | 'numeric' | 'nonAlphanumeric';

export interface IdpPasswordCheck {
  isValid: boolean;
  unmet: IdpPasswordRequirement[];
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The policy from what the server sent (Firebase's `customStrengthOptions` or a flat object). */
export function idpPasswordPolicy(fromServer?: unknown): IdpPasswordPolicy {
  const raw = (typeof fromServer === 'object' && fromServer !== null ? fromServer : {}) as Record<string, unknown>;
  const options = (typeof raw.customStrengthOptions === 'object' && raw.customStrengthOptions !== null
    ? raw.customStrengthOptions : raw) as Record<string, unknown>;
  const policy: IdpPasswordPolicy = {
    minPasswordLength: positiveInt(options.minPasswordLength) ?? IDP_DEFAULT_MIN_PASSWORD_LENGTH,
  };
  const max = positiveInt(options.maxPasswordLength);
  if (max !== undefined && max >= policy.minPasswordLength) policy.maxPasswordLength = max;
  for (const key of ['containsLowercaseLetter', 'containsUppercaseLetter', 'containsNumericCharacter', 'containsNonAlphanumericCharacter'] as const) {
    if (options[key] === true) policy[key] = true;
  }
  return policy;
}

export function checkIdpPassword(password: string, policy: IdpPasswordPolicy = idpPasswordPolicy()): IdpPasswordCheck {
  const unmet: IdpPasswordRequirement[] = [];
  const length = [...password].length;
  if (length < policy.minPasswordLength) unmet.push('minLength');
  if (policy.maxPasswordLength !== undefined && length > policy.maxPasswordLength) unmet.push('maxLength');
  if (policy.containsLowercaseLetter && !/\p{Ll}/u.test(password)) unmet.push('lowercase');
  if (policy.containsUppercaseLetter && !/\p{Lu}/u.test(password)) unmet.push('uppercase');
  if (policy.containsNumericCharacter && !/\p{Nd}/u.test(password)) unmet.push('numeric');
  if (policy.containsNonAlphanumericCharacter && !/[^\p{L}\p{Nd}]/u.test(password)) unmet.push('nonAlphanumeric');
  return { isValid: unmet.length === 0, unmet };
}
