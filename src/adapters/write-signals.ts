/**
 * Cross-tab write signals (issue 38): after a write that moves the Dashboard's figures commits (a refund,
 * a cancellation, a plan change, a move of a plan's subscribers to its current price), the tab that made
 * it posts a signal here; every OTHER tab of the console hears it, so a Payments page already open there
 * reads its figures again (the report machine decides: `report.staleFromElsewhere`, machines/report.*).
 *
 * Transport: a BroadcastChannel where the browser has one; else the `storage` event of a local-storage key
 * (fired in the other tabs of the origin only). Either way the signal also stays in local storage as the
 * last write's moment (`lastWriteAt`), so a tab that was on another page when it came reads fresh answers
 * when it comes back to a report (src/adapters/report-actors.ts drops answers cached before it).
 * A tab never hears its own posts (it has already dropped its answers: src/api/report-cache.ts).
 * Storage may be unavailable (privacy modes): nothing here throws.
 */
import { WRITE_KINDS, isWriteKind, type WriteKind } from '../../machines/report-signals';

export { WRITE_KINDS, type WriteKind };

/** The BroadcastChannel's name and the local-storage key of the fallback (and of the last write's moment). */
export const WRITE_SIGNAL_CHANNEL = 'cms-tools:writes';
export const WRITE_SIGNAL_KEY = 'cms-tools:lastWrite';

export interface WriteSignal {
  /** What the write moved: 'payment' (a refund) or 'subscription' (a cancellation, a plan change, a renewal price move). */
  kind: WriteKind;
  /** When it committed (epoch ms). */
  at: number;
}

/** The part of a BroadcastChannel used here (the browser's, Node's, or a test's). */
export interface SignalChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** The part of a `storage` event read here. */
export type StorageChange = Pick<StorageEvent, 'key' | 'newValue'>;

/** What the signals need from the browser; every part may be missing. */
export interface WriteSignalHost {
  openChannel?: (name: string) => SignalChannel;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** The window's `storage` events (the fallback when there is no BroadcastChannel). */
  onStorage?: (listener: (event: StorageChange) => void) => () => void;
  now?: () => number;
}

/** A signal read from the wire or from storage, or null when it is not one. */
export function writeSignalOf(value: unknown): WriteSignal | null {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof data !== 'object' || data === null || !('kind' in data) || !('at' in data)) return null;
  const { kind, at } = data;
  return isWriteKind(kind) && typeof at === 'number' && Number.isFinite(at) ? { kind, at } : null;
}

function attempt<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

export function createWriteSignals(host: WriteSignalHost) {
  const now = host.now ?? Date.now;
  // One channel for the posts and the listeners of this tab, opened on first use: a BroadcastChannel
  // never delivers a message to the object that posted it, so the tab does not hear itself.
  let channel: SignalChannel | null | undefined;
  const channelOf = (): SignalChannel | null => {
    const open = host.openChannel;
    if (channel === undefined) channel = open ? attempt(() => open(WRITE_SIGNAL_CHANNEL), null) : null;
    return channel;
  };
  const listeners = new Set<(signal: WriteSignal) => void>();
  const hear = (signal: WriteSignal | null) => {
    if (signal) for (const listener of [...listeners]) listener(signal);
  };
  const onMessage = (event: { data: unknown }) => hear(writeSignalOf(event.data));
  const onStorage = (event: StorageChange) => {
    if (event.key === WRITE_SIGNAL_KEY) hear(writeSignalOf(event.newValue));
  };
  let stopStorage: (() => void) | null = null;

  return {
    /** Tells the other tabs that a write of this kind committed (and keeps its moment for `lastWriteAt`). */
    post(kind: WriteKind): WriteSignal {
      const signal = { kind, at: now() };
      attempt(() => host.storage?.setItem(WRITE_SIGNAL_KEY, JSON.stringify(signal)), undefined);
      attempt(() => channelOf()?.postMessage(signal), undefined);
      return signal;
    },
    /** The moment of the last write any tab posted (0: none known). */
    lastWriteAt(): number {
      return writeSignalOf(attempt(() => host.storage?.getItem(WRITE_SIGNAL_KEY) ?? null, null))?.at ?? 0;
    },
    /** Calls `listener` with each signal another tab posts, until the returned function is called. */
    subscribe(listener: (signal: WriteSignal) => void): () => void {
      if (listeners.size === 0) {
        const open = channelOf();
        if (open) open.addEventListener('message', onMessage);
        else stopStorage = host.onStorage?.(onStorage) ?? null;
      }
      listeners.add(listener);
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        channel?.removeEventListener('message', onMessage);
        stopStorage?.();
        stopStorage = null;
      };
    },
  };
}

export type WriteSignals = ReturnType<typeof createWriteSignals>;

/** The browser's: its BroadcastChannel when it has one, its local storage and its `storage` events. */
export function browserWriteSignalHost(): WriteSignalHost {
  const hasWindow = typeof window !== 'undefined';
  return {
    ...(typeof BroadcastChannel === 'function' && { openChannel: (name: string) => new BroadcastChannel(name) }),
    ...(hasWindow && attempt(() => window.localStorage, null) && { storage: window.localStorage }),
    ...(hasWindow && {
      onStorage: (listener: (event: StorageChange) => void) => {
        window.addEventListener('storage', listener);
        return () => window.removeEventListener('storage', listener);
      },
    }),
  };
}

let shared: WriteSignals | undefined;

/** This tab's signals, made on first use. */
export function writeSignals(): WriteSignals {
  shared ??= createWriteSignals(browserWriteSignalHost());
  return shared;
}

/** After a write committed: drop nothing here (the writer's own tab drops its answers), tell the other tabs. */
export function postWrite(kind: WriteKind): void {
  writeSignals().post(kind);
}
