/**
 * The identity provider (Firebase) is loaded only when a social button is pressed. Sign-out is
 * needed only when it was loaded in this page.
 */
type SignOut = () => Promise<void>;
let loadedSignOut: SignOut | null = null;

export function registerIdentityProviderSignOut(signOut: SignOut): void {
  loadedSignOut = signOut;
}

export function signOutIdentityProvider(): void {
  if (loadedSignOut) void loadedSignOut().catch(() => undefined);
}
