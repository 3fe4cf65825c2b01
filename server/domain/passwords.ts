/**
 * Password hashing (argon2id via @node-rs/argon2) and the complexity rule of spec §5.
 * Unknown usernames are verified against a dummy hash so they take as long as a wrong password.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { isPasswordComplex, passwordRuleFailures } from '../../common/password-rules';
import type { Argon2Params } from '../env';

export { isPasswordComplex, passwordRuleFailures };

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
