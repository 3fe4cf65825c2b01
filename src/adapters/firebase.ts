/**
 * Firebase Authentication (firebase 12, modular API), loaded with a dynamic import() only when a
 * social button is pressed: the sign-in page's first load carries none of it (e2e/bundle.test.ts).
 *
 * - google: GoogleAuthProvider with the account-selection prompt (spec §9);
 * - microsoft: OAuthProvider('microsoft.com') with the configured tenant and the consent prompt.
 *
 * Firebase keeps its own session in memory only: the console's session is the one our server issues
 * for the ID token, so nothing of Firebase's outlives the page. With `emulatorUrl` set (development
 * and tests) the SDK talks to the Firebase Auth emulator.
 */
import type { Auth, AuthProvider } from 'firebase/auth';
import type { SocialProvider } from '../../machines/auth.types';
import { IDP_CONFIG_ERRORS } from '../../machines/idp-errors';
import type { RuntimeConfig } from '../../common/contract';
import { registerIdentityProviderSignOut } from './identity-provider';

export type FirebaseConfig = NonNullable<RuntimeConfig['firebase']>;

/** A configuration problem found before the identity provider is asked (see machines/idp-errors.ts). */
export class IdentityProviderConfigError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'IdentityProviderConfigError';
  }
}

/** Throws the configuration error a sign-in with `provider` would meet, if any. */
export function assertConfigured(provider: SocialProvider, config: FirebaseConfig): void {
  if (!config.apiKey.trim()) throw new IdentityProviderConfigError(IDP_CONFIG_ERRORS.missingApiKey);
  if (provider === 'microsoft' && !config.microsoftTenant.trim()) throw new IdentityProviderConfigError(IDP_CONFIG_ERRORS.missingTenant);
}

let loaded: Promise<{ auth: Auth; sdk: typeof import('firebase/auth') }> | null = null;

function loadAuth(config: FirebaseConfig) {
  loaded ??= (async () => {
    const [{ initializeApp }, sdk] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId }, 'cms-tools');
    const auth = sdk.initializeAuth(app, {
      persistence: sdk.inMemoryPersistence,
      popupRedirectResolver: sdk.browserPopupRedirectResolver,
    });
    if (config.emulatorUrl) sdk.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    registerIdentityProviderSignOut(() => sdk.signOut(auth));
    return { auth, sdk };
  })().catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

function providerFor(provider: SocialProvider, config: FirebaseConfig, sdk: typeof import('firebase/auth')): AuthProvider {
  if (provider === 'google') {
    const google = new sdk.GoogleAuthProvider();
    google.setCustomParameters({ prompt: 'select_account' });
    return google;
  }
  const microsoft = new sdk.OAuthProvider('microsoft.com');
  microsoft.setCustomParameters({ prompt: 'consent', tenant: config.microsoftTenant });
  return microsoft;
}

/** Opens the provider's popup and answers the Firebase ID token of the signed-in person. */
export async function signInWithProvider(provider: SocialProvider, config: FirebaseConfig): Promise<string> {
  assertConfigured(provider, config);
  const { auth, sdk } = await loadAuth(config);
  const credential = await sdk.signInWithPopup(auth, providerFor(provider, config, sdk));
  return credential.user.getIdToken();
}
