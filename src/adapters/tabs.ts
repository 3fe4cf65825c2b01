/**
 * Cross-tab coordination (BroadcastChannel): every tab shares one activity clock and one logout.
 * Activity is announced at most once every few seconds so a moving mouse does not flood other tabs.
 */
const CHANNEL = 'cms-tools-session';
const ACTIVITY_THROTTLE_MS = 5000;

export type TabMessage = { type: 'activity' } | { type: 'logout' };

let channel: BroadcastChannel | null = null;
let lastActivityBroadcast = 0;

function open(): BroadcastChannel | null {
  if (!channel && typeof BroadcastChannel !== 'undefined') channel = new BroadcastChannel(CHANNEL);
  return channel;
}

export function broadcastActivity(now: number = Date.now()): void {
  if (now - lastActivityBroadcast < ACTIVITY_THROTTLE_MS) return;
  lastActivityBroadcast = now;
  open()?.postMessage({ type: 'activity' } satisfies TabMessage);
}

export function broadcastLogout(): void {
  open()?.postMessage({ type: 'logout' } satisfies TabMessage);
}

export function onTabMessage(listener: (message: TabMessage) => void): () => void {
  const ch = open();
  if (!ch) return () => {};
  const handler = (event: MessageEvent<TabMessage>) => listener(event.data);
  ch.addEventListener('message', handler);
  return () => ch.removeEventListener('message', handler);
}
