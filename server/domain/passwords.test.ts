import { describe, expect, it } from 'vitest';
import { fastestOf } from '../test/timing';
import { createPasswordHasher } from './passwords';

describe('the password hasher', () => {
  // OWASP's minimum argon2id (19 MiB, t=2): each verification costs milliseconds of real work, so
  // the two paths' times differ by what they do, not by scheduling noise.
  const hasher = createPasswordHasher({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash('Right!Pass123');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'Right!Pass123')).toBe(true);
    expect(await hasher.verify(stored, 'Wrong!Pass123')).toBe(false);
    expect(await hasher.verify('not a hash', 'Right!Pass123')).toBe(false);
  });

  it('an unknown username (no stored hash) is refused after the same argon2 work as a wrong password: no user enumeration by time', async () => {
    const stored = await hasher.hash('Right!Pass123');
    expect(await hasher.verify(null, 'Right!Pass123')).toBe(false);
    expect(await hasher.verify(undefined, 'Right!Pass123')).toBe(false);
    const wrong = await fastestOf(5, () => hasher.verify(stored, 'Wrong!Pass123'));
    const unknown = await fastestOf(5, () => hasher.verify(null, 'Wrong!Pass123'));
    // Without the dummy hash an unknown name answers in microseconds (a ratio near 0).
    expect(unknown / wrong).toBeGreaterThan(0.5);
    expect(unknown / wrong).toBeLessThan(2);
  });
});
