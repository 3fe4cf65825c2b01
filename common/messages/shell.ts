/**
 * Our own words of the console's shell (issue 20): the inactivity dialog, the header's network
 * switcher (its marks and the Launch / Copy dialogs), /forbidden and the not-found page. The shell's
 * catalogue (src/views/shared/shell-text.ts) is on the sign-in page's first load, so it reads this
 * module rather than every message (issue 39); common/messages.ts spreads these in.
 */
export const SHELL_OWN_MESSAGES = {
  forbidden: 'You do not have access to this area.',
  inactivityWarning: 'You will be signed out in one minute because of inactivity.',
  staySignedIn: 'Stay signed in',
  pageNotFound: 'Page not found',
  networkLaunchTitle: 'Launch network',
  networkLaunchConfirm: (name: string) => `Launch ${name}? It goes live for its viewers.`,
  networkCopyTitle: (what: string) => `Copy ${what} from default`,
  networkCopyConfirm: (what: string, from: string, to: string) =>
    `Copy the ${what} of ${from} (the default network) onto ${to}? The ${what} of ${to} will be replaced.`,
  networkCopyComparing: 'Comparing with the default network…',
  networkCopyChanges: (count: number) => (count === 1 ? 'This field will change:' : `These ${count} fields will change:`),
  networkCopyNoChanges: 'Nothing would change: this network already matches the default.',
  networkCopyCompareFailed: 'What would change could not be read. You can still copy, or cancel.',
  networkNone: 'No networks',
  networkLoading: 'Loading networks…',
  forbiddenArea: (area: string) => `You have no role in ${area}.`,
  forbiddenNoRole: 'Your account has no role in any area of CMS Tools. Ask an administrator of your site to grant you access.',
  forbiddenAskAdmin: 'Ask an administrator of your site if you need it.',
  forbiddenGoTo: (page: string) => `Go to ${page}`,
  forbiddenSignOut: 'Sign out and sign in as someone else',
} as const;
