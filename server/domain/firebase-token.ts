/**
 * Verifies Firebase Authentication ID tokens with `jose` (firebase-admin 14 needs Node 22):
 *
 * - production: RS256 signature against Google's public keys (the securetoken JWKS, fetched and cached
 *   by createRemoteJWKSet), `aud` = the project id, `iss` = https://securetoken.google.com/<project>,
 *   `exp` in the future, `iat` and `auth_time` not in the future, a non-empty `sub` (the Firebase uid);
 * - emulator mode (FIREBASE_AUTH_EMULATOR_HOST set, never in production): the Auth emulator issues
 *   unsigned tokens (`alg: none`); they are accepted then and only then, with every claim check above.
 *
 * A token with `alg: none` outside emulator mode, another algorithm, an unknown key id, a bad
 * signature, another project's audience or issuer, or an expired token is refused (IdTokenError).
 */
import {
  createRemoteJWKSet, decodeProtectedHeader, jwtVerify, UnsecuredJWT,
  type JWTPayload, type JWTVerifyGetKey,
} from 'jose';

const GOOGLE_SECURETOKEN_JWKS_URL = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/** Longest token we parse at all (Firebase ID tokens are about 1 KB; claims can grow them a little). */
const MAX_TOKEN_LENGTH = 8192;

type IdTokenRefusal = 'malformed' | 'unsigned' | 'invalid';

export class IdTokenError extends Error {
  constructor(readonly reason: IdTokenRefusal, detail: string) {
    super(`ID token refused (${reason}): ${detail}`);
    this.name = 'IdTokenError';
  }
}

/** What the server may rely on after verification. */
export interface VerifiedIdentity {
  /** The Firebase uid (`sub`). */
  uid: string;
  /** `firebase.sign_in_provider`, e.g. 'google.com', 'microsoft.com', 'password'. */
  signInProvider: string;
  /** The provider's own user id (`firebase.identities[signInProvider][0]`), when present. */
  providerUserId: string | undefined;
  email: string | undefined;
  emailVerified: boolean;
  authTime: number;
}

interface FirebaseTokenVerifierOptions {
  projectId: string;
  /** Accept the Auth emulator's unsigned tokens (development and tests only). */
  emulator: boolean;
  /** The signing keys: Google's JWKS by default; tests give a local JWKS (jose createLocalJWKSet). */
  keys?: JWTVerifyGetKey;
  clockToleranceSeconds?: number;
  now?: () => Date;
}

export type FirebaseTokenVerifier = (token: string) => Promise<VerifiedIdentity>;

function googleKeys(): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(GOOGLE_SECURETOKEN_JWKS_URL), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 6 * 3600_000 });
}

function identityOf(payload: JWTPayload, nowSeconds: number, toleranceSeconds: number): VerifiedIdentity {
  const { sub } = payload;
  if (typeof sub !== 'string' || sub.trim() === '' || sub.length > 128) throw new IdTokenError('invalid', 'sub must be a non-empty string of at most 128 characters');
  const authTime = payload.auth_time;
  if (typeof authTime !== 'number' || !Number.isFinite(authTime) || authTime > nowSeconds + toleranceSeconds) {
    throw new IdTokenError('invalid', 'auth_time missing or in the future');
  }
  if (typeof payload.iat !== 'number' || payload.iat > nowSeconds + toleranceSeconds) throw new IdTokenError('invalid', 'iat missing or in the future');
  const firebase = (typeof payload.firebase === 'object' && payload.firebase !== null ? payload.firebase : {}) as Record<string, unknown>;
  const signInProvider = typeof firebase.sign_in_provider === 'string' ? firebase.sign_in_provider : '';
  const identities = (typeof firebase.identities === 'object' && firebase.identities !== null ? firebase.identities : {}) as Record<string, unknown>;
  const ids = identities[signInProvider];
  const providerUserId = Array.isArray(ids) && typeof ids[0] === 'string' && ids[0] !== '' ? ids[0] : undefined;
  return {
    uid: sub,
    signInProvider,
    providerUserId,
    email: typeof payload.email === 'string' && payload.email !== '' ? payload.email : undefined,
    emailVerified: payload.email_verified === true,
    authTime,
  };
}

export function createFirebaseTokenVerifier(options: FirebaseTokenVerifierOptions): FirebaseTokenVerifier {
  const { projectId, emulator } = options;
  if (!projectId) throw new Error('A Firebase project id is required to verify ID tokens');
  const issuer = `https://securetoken.google.com/${projectId}`;
  const tolerance = options.clockToleranceSeconds ?? 5;
  const now = options.now ?? (() => new Date());
  let keys = options.keys;

  return async function verify(token) {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new IdTokenError('malformed', 'empty or oversized token');
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new IdTokenError('malformed', 'not a JWT');
    }
    const currentDate = now();
    const claims = {
      issuer, audience: projectId, clockTolerance: tolerance, currentDate,
      requiredClaims: ['sub', 'exp', 'iat', 'auth_time'],
    };
    let payload: JWTPayload;
    try {
      if (alg === 'none') {
        if (!emulator) throw new IdTokenError('unsigned', 'alg none is accepted only from the Auth emulator');
        payload = UnsecuredJWT.decode(token, claims).payload;
      } else {
        keys ??= googleKeys();
        payload = (await jwtVerify(token, keys, { ...claims, algorithms: ['RS256'] })).payload;
      }
    } catch (error) {
      if (error instanceof IdTokenError) throw error;
      throw new IdTokenError('invalid', (error as { code?: string }).code ?? (error instanceof Error ? error.message : 'verification failed'));
    }
    return identityOf(payload, Math.floor(currentDate.getTime() / 1000), tolerance);
  };
}
