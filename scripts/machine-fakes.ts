/**
 * The fake world `npm run machine` runs machines in: demo users, a demo site with networks, a fixed
 * OTP. Every I/O actor answers from here, every effect is printed, so a developer can step a flow in
 * the terminal with no browser and no server.
 */
import { fromPromise, type AnyActorLogic, type AnyStateMachine } from 'xstate';
import type { Network, Service } from '../common/contract';
import { authMachine } from '../machines/auth.machine';
import { forgotPasswordMachine } from '../machines/forgot-password.machine';
import { inactivityMachine } from '../machines/inactivity.machine';
import { logoutMachine } from '../machines/logout.machine';
import { networkMachine } from '../machines/network.machine';
import { keepaliveMachine } from '../machines/keepalive.machine';
import { notifierMachine } from '../machines/notifier.machine';
import { otpStepMachine } from '../machines/otp-step.machine';
import { authRestoreMachine } from '../machines/auth-restore.machine';
import { routeLoadingMachine } from '../machines/route-loading.machine';
import { sessionMachine } from '../machines/session.machine';
import { jwtWith, loginResponse, siteProfile } from '../machines/test-harness/fixtures';
import { redactForInspector } from '../machines/redact';

export const FAKE_OTP = '123456';
const FAKE_PASSWORD = 'Demo!Pass123';

const USERS: Record<string, { twoFactor: boolean; roles: Record<string, string> }> = {
  'admin@demo.test': { twoFactor: false, roles: { 'Dashboard 360': 'write', Content: 'write', 'App CMS': 'write', Admin: 'write' } },
  'twofa@demo.test': { twoFactor: true, roles: { 'Dashboard 360': 'read', Content: 'write' } },
  'noaccess@demo.test': { twoFactor: false, roles: {} },
};

const NETWORKS: Network[] = [
  { name: 'ViewLift Main', identifier: 'main', image: '/logo.svg', isActive: true, isDefault: true },
  { name: 'Sports Plus', identifier: 'sports', image: '/logo.svg', isActive: true, isDefault: false },
  { name: 'Kids Zone', identifier: 'kids', image: '/logo.svg', isActive: false, isDefault: false },
];

function token(username: string): string {
  const now = Math.floor(Date.now() / 1000);
  return jwtWith({ sub: username, iat: now, exp: now + 12 * 3600 });
}

const answer = <TInput>(fn: (input: TInput) => unknown): AnyActorLogic =>
  fromPromise<unknown, TInput>(async ({ input }) => fn(input));

const printEffect = (name: string) => (_: unknown, params: unknown) => {
  console.log(`  effect: ${name}${params === undefined ? '' : ` ${JSON.stringify(redactForInspector(params))}`}`);
};

const authActors = {
  readStoredSession: answer(() => null),
  readPendingTwoFactor: answer(() => null),
  getDeviceId: answer(() => 'cli-device'),
  login: answer(({ username, password }: { username: string; password: string }) => {
    const user = USERS[username];
    if (!user || password !== FAKE_PASSWORD) return loginResponse({ success: false, message: 'Invalid username or password.', accessToken: '' });
    if (user.twoFactor) return loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '******4321', username, accessToken: '' });
    return loginResponse({ username, accessToken: token(username) });
  }),
  verifyOtp: answer(({ username, otp }: { username: string; otp: string }) => (otp === FAKE_OTP
    ? { success: true, message: '', accessToken: token(username), v2ManagementApiEnabled: true }
    : { success: false, message: 'OTP verification failed!', accessToken: '', v2ManagementApiEnabled: false })),
  generateOtp: answer(() => ({ success: true, message: 'OTP sent successfully!' })),
  fetchProfile: answer(({ accessToken }: { accessToken: string }) => {
    const username = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    return { profile: siteProfile({ username, site: 'viewlift-demo', roles: USERS[username]?.roles ?? {} }), fetchedAt: Date.now() };
  }),
  requestPasswordOtp: answer(() => ({ success: true, message: 'Code sent.', errorMessage: '' })),
  resetPassword: answer(() => ({ success: true, message: 'Password has been reset.' })),
  verifySession: answer(() => ({ valid: true, status: 200 })),
  verifySite: answer(() => ({ provider: 'aws' })),
  logout: answer(() => undefined),
};

const service: Service = {
  id: 'svc-1', siteInternalName: 'viewlift-demo', isLaunched: true, networks: NETWORKS, serviceName: 'ViewLift Demo',
  serviceType: 'vod', serviceTypes: ['vod'], templateName: 'default', languageCode: 'en', forceLogin: false,
  isMonetizationModelEnabled: true, domainName: 'demo.example', siteBaseUrl: 'https://demo.example', backendUrl: 'https://api.demo.example',
};

const networkActors = {
  fetchService: answer(() => service),
  publishNetwork: answer(() => undefined),
  copyFromDefault: answer(({ network }: { network: string }) => NETWORKS.find((n) => n.identifier === network) ?? null),
  fetchNetworkData: answer(({ kind }: { kind: string }) => ({ kind, primaryColor: '#1370B3' })),
};

export interface CliMachine {
  logic: AnyStateMachine;
  input?: unknown;
  help: string;
}

const otpStep = otpStepMachine.provide({ actors: { verifyOtp: authActors.verifyOtp, generateOtp: authActors.generateOtp } });
const restore = authRestoreMachine.provide({ actors: { readStoredSession: authActors.readStoredSession, readPendingTwoFactor: authActors.readPendingTwoFactor } });

export const CLI_MACHINES: Record<string, CliMachine> = {
  auth: {
    logic: authMachine.provide({
      actors: { ...authActors, otpStep, restore },
      actions: { navigate: printEffect('navigate'), storeOtpUsername: printEffect('storeOtpUsername'), storeSession: printEffect('storeSession') },
    }),
    input: { analyticsAllowedSites: [], encodingDisabledSite: '' },
    help: `users: ${Object.keys(USERS).join(', ')} (password ${FAKE_PASSWORD}); OTP ${FAKE_OTP}`,
  },
  forgotPassword: {
    logic: forgotPasswordMachine.provide({
      actors: { ...authActors, otpStep },
      actions: { navigate: printEffect('navigate'), clearSession: printEffect('clearSession') },
    }),
    help: `OTP ${FAKE_OTP}; reset.open {token}, reset.edit {newPassword, confirmPassword}, then reset.submit`,
  },
  otpStep: {
    logic: otpStep,
    input: { username: 'twofa@demo.test', isLogin: true, obscureMobileNumber: '******6789' },
    help: `otp.edit {code} (the OTP is ${FAKE_OTP}), otp.submit, otp.resend after the 30 s countdown`,
  },
  keepalive: {
    logic: keepaliveMachine.provide({ actions: { pingServer: printEffect('pingServer') } }),
    help: 'keepalive.activity; then {"type":"clock.advance","ms":20000}',
  },
  session: {
    logic: sessionMachine.provide({
      actors: { verifySession: authActors.verifySession, verifySite: authActors.verifySite },
      actions: {
        navigate: printEffect('navigate'), clearAllCookies: printEffect('clearAllCookies'),
        saveCloudProvider: printEffect('saveCloudProvider'), removeDefaultTimezone: printEffect('removeDefaultTimezone'),
      },
    }),
    help: 'session.start {path, defaultTimezone}; the fake server says the session is valid',
  },
  inactivity: {
    logic: inactivityMachine.provide({
      actions: {
        navigate: printEffect('navigate'), revokeServerSession: printEffect('revokeServerSession'), deleteAllCookies: printEffect('deleteAllCookies'),
        broadcastActivity: printEffect('broadcastActivity'), broadcastLogout: printEffect('broadcastLogout'),
      },
    }),
    input: { timeoutMinutes: 2, excludedPaths: ['/'] },
    help: 'timeout 2 minutes; try {"type":"path.changed","path":"/content"} then {"type":"clock.advance","ms":60000}',
  },
  logout: {
    logic: logoutMachine.provide({
      actors: { logout: authActors.logout },
      actions: {
        navigate: printEffect('navigate'), clearAllCookies: printEffect('clearAllCookies'),
        broadcastLogout: printEffect('broadcastLogout'), signOutIdentityProvider: printEffect('signOutIdentityProvider'),
      },
    }),
    help: 'logout.request, logout.confirm / logout.cancel, logout.now',
  },
  network: {
    logic: networkMachine.provide({
      actors: networkActors,
      actions: { saveSelectedNetwork: printEffect('saveSelectedNetwork'), forgetSelectedNetwork: printEffect('forgetSelectedNetwork') },
    }),
    input: { site: 'viewlift-demo', savedNetworkId: null },
    help: `networks: ${NETWORKS.map((n) => n.identifier).join(', ')} (main is the default)`,
  },
  notifier: { logic: notifierMachine, help: 'notify.show {message, severity, durationMs?}, notify.dismiss' },
  routeLoading: { logic: routeLoadingMachine, help: 'route.start, route.done, route.error' },
};
