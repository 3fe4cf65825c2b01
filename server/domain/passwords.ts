/**
 * Password hashing (argon2id via @node-rs/argon2), the complexity rule of spec §5 and the blocklist of
 * the 10,000 most common passwords (ASVS 6.2.4, NIST 800-63B §5.1.1.2; server/data/common-passwords.txt).
 * Unknown usernames are verified against a dummy hash so they take as long as a wrong password.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hash, verify } from '@node-rs/argon2';
import { MESSAGES, ACCOUNT_MESSAGES } from '../../common/messages';
import { isPasswordComplex, passwordRuleFailures } from '../../common/password-rules';
import type { Argon2Params } from '../env';

export { isPasswordComplex, passwordRuleFailures };

export const COMMON_PASSWORDS_FILE = fileURLToPath(new URL('../data/common-passwords.txt', import.meta.url));

let commonPasswords: ReadonlySet<string> | undefined;

/** The blocklist, read once: one lowercase password a line, `#` lines are comments. */
export function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}

/**
 * Whether the password is on the blocklist, ignoring case, or is a listed password with only digits and
 * symbols put before or after it ('Password1!', '!!Dragon2024'): the complexity rule makes people
 * decorate a common word that way, and the decoration adds next to nothing for a guesser.
 */
export function isCommonPassword(password: string): boolean {
  const list = loadCommonPasswords();
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  return list.has(lower) || (core !== '' && list.has(core));
}

/** Why a new password is refused (spec §5 complexity first, then the blocklist), or null when it is acceptable. */
export function newPasswordProblem(password: string): string | null {
  if (!isPasswordComplex(password)) return MESSAGES.passwordComplexity;
  if (isCommonPassword(password)) return ACCOUNT_MESSAGES.passwordCommon;
  return null;
}

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolatedModules cannot import). */
const ARGON2ID = 2;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Verifies against the stored hash, or against a dummy hash when there is none (always false then). */
  verify(storedHash: string | null | undefined, password: string): Promise<boolean>;
}

export function createPasswordHasher(params: Argon2Params): PasswordHasher {
  const options = { algorithm: ARGON2ID, memoryCost: params.memoryCost, timeCost: params.timeCost, parallelism: params.parallelism };
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash(randomBytes(24).toString('base64url'), options));
  return {
    hash: (password) => hash(password, options),
    async verify(storedHash, password) {
      if (!storedHash) {
        await verify(await dummyHash(), password).catch(() => false);
        return false;
      }
      try {
        return await verify(storedHash, password);
      } catch {
        return false;
      }
    },
  };
}
