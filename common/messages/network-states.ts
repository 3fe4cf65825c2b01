/**
 * A network's launch state and its word (the network switcher's mark), as common/status-words.ts
 * words every status (issue 30) and re-exports these. Its own module because the shell's catalogue
 * (src/views/shared/shell-text.ts) is on the sign-in page's first load and needs only these two words
 * of all the status vocabularies (issue 39).
 */

/** A network is launched or not (the network switcher's mark). */
export const NETWORK_STATES = ['launched', 'not_launched'] as const;
export type NetworkState = (typeof NETWORK_STATES)[number];

export const NETWORK_STATE_WORDS: Readonly<Record<NetworkState, string>> = {
  launched: 'Launched', not_launched: 'Not launched',
};
