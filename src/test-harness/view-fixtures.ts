/** Fixtures the view tests share: a signed-in session by roles, a site with networks. */
import type { Session } from '../../machines/auth.types';
import { fakeActor } from '../../machines/test-harness/fakes';
import type { Network, Roles, Service } from '../../common/contract';
import { accessFlagsFor } from '../../common/roles';
import type { ActorOverrides } from './render-view';

export function sessionWith(roles: Roles, username = 'ada@demo.test'): Session {
  return {
    accessToken: 'token-1', apiKey: 'key-1', site: 'demo-site', username, roles, accessFlags: accessFlagsFor(roles),
    encodingEnabled: true, profile: null,
  };
}

/** The `auth` actor restores this session at start: the view opens signed in. */
export function signedInAs(roles: Roles, username?: string): ActorOverrides {
  return { auth: { readStoredSession: fakeActor(() => sessionWith(roles, username)) } };
}

export const MAIN: Network = { name: 'Main Network', identifier: 'main', image: '/main.png', isActive: true, isDefault: true };
export const KIDS: Network = { name: 'Kids', identifier: 'kids', image: '/kids.png', isActive: false, isDefault: false };

export const SERVICE: Service = {
  id: 'site-1', siteInternalName: 'demo-site', isLaunched: true, networks: [MAIN, KIDS],
  serviceName: 'Demo', serviceType: 'SVOD', serviceTypes: ['SVOD'], templateName: 'default', languageCode: 'en',
  forceLogin: false, isMonetizationModelEnabled: true, domainName: 'demo.example', siteBaseUrl: 'https://demo.example',
  backendUrl: 'https://api.demo.example',
};

/** Signed in with an App CMS role: the `network` actor loads SERVICE for the site. */
export function appCmsUser(network: Record<string, import('xstate').AnyActorLogic> = {}): ActorOverrides {
  return {
    ...signedInAs({ 'App CMS': 'write', Content: 'write' }),
    network: { fetchService: fakeActor(() => SERVICE), ...network },
  };
}
