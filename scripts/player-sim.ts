/**
 * Simulated players (npm run simulate, npm run bench:ingest): each viewer starts a session on a
 * random item of the roster, sends a heartbeat every `heartbeatS` seconds with cumulative counters
 * (and the odd rebuffer), ends after a few minutes, pauses and starts again.
 *
 * Every session.start carries the dimensions of issue 41 with the demo world's spreads
 * (server/demo/player-dimensions.ts): each viewer's devices keep their system and player, the app
 * version follows the platforms' releases as of now, the viewer has a region of their country, live
 * items are 'live'. Some sessions fail (errorCode on their end, after the next heartbeat): 1 % of
 * any, more on the congested ISPs, on the bad release (which also rebuffers more) and on a CDN's
 * bad evening.
 */
import { randomUUID } from 'node:crypto';
import type { IngestRoster, PlayerDeviceType, PlayerEvent } from '../common/ingest-contract';
import { appVersionAt, BAD_RELEASE, playerSetupOf, regionOf, sourceHostOf, troubleOf, weighted, type PlayerSetup } from '../server/demo/player-dimensions';

const CDNS = ['Akamai', 'Akamai', 'Amazon CloudFront', 'Fastly'];
const ISPS: Record<string, string[]> = {
  US: ['Comcast Xfinity', 'Charter Spectrum', 'AT&T Fiber', 'Verizon Fios', 'T-Mobile Home Internet'],
  GB: ['BT', 'Sky Broadband', 'Virgin Media', 'TalkTalk'], CA: ['Rogers', 'Bell Canada'], IN: ['Jio', 'Airtel'],
  DE: ['Deutsche Telekom', 'Vodafone DE'], IE: ['Eir'], FR: ['Orange', 'Free'], MX: ['Telmex Infinitum'], BR: ['Claro', 'Vivo'],
};
/** Rebuffer chance per heartbeat; poorer on mobile and congested networks. */
const REBUFFER_CHANCE: Record<string, number> = { 'T-Mobile Home Internet': 0.12, TalkTalk: 0.1, Jio: 0.15, Airtel: 0.12 };
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
/** Errors any session may meet (its end's errorCode), by weight. */
const ERROR_CODES = [['NETWORK_ERROR', 40], ['MANIFEST_LOAD_TIMEOUT', 25], ['MEDIA_DECODE_ERROR', 15], ['DRM_LICENSE_FAILED', 12], ['SEGMENT_404', 8]] as const;


interface Viewer {
  subscriber: IngestRoster['subscribers'][number];
  session: null | {
    id: string; startedAt: number; watched: number; rebuffers: number; rebufferMs: number; bitrate: number; endsAfter: number; isp: string;
    /** Rebuffer chance per heartbeat; the error its end reports (null: none). */
    rebufferChance: number; error: string | null;
  };
  nextAt: number;
  region: string;
  /** The viewer's devices' systems and players, by device type (drawn once). */
  setups: Map<string, PlayerSetup>;
}

export interface Players {
  /** The events due at time t (ms), in the order the players send them. */
  step(t: number): PlayerEvent[];
  /** A session.end for every open session (when the simulation stops). */
  endAll(t: number): PlayerEvent[];
  playing(): number;
}

/** `site`: the site's name in the video source hosts. */
export function createPlayers(roster: IngestRoster, count: number, heartbeatS: number, start = Date.now(), site = 'viewlift-demo'): Players {
  const viewers: Viewer[] = Array.from({ length: count }, (_, i) => {
    const subscriber = roster.subscribers[i % roster.subscribers.length]!;
    return {
      subscriber,
      session: null,
      // Spread the first starts over one heartbeat interval rather than all at once.
      nextAt: start + Math.random() * heartbeatS * 1000,
      region: regionOf(subscriber.country, Math.random),
      setups: new Map(),
    };
  });

  // The viewers by their next event's time, soonest first: a binary min-heap of their indices, each
  // with its time beside it. A step touches only the viewers due, not all of them (issue 42: the
  // bench steps 21,000 players every 24 ms, and looking at each one was the bench client's largest cost).
  const heapIndex = new Int32Array(count);
  const heapAt = new Float64Array(count);
  let size = 0;
  const push = (i: number) => {
    const at = viewers[i]!.nextAt;
    let k = size;
    size += 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (heapAt[parent]! <= at) break;
      heapIndex[k] = heapIndex[parent]!;
      heapAt[k] = heapAt[parent]!;
      k = parent;
    }
    heapIndex[k] = i;
    heapAt[k] = at;
  };
  /** Takes the soonest off the heap (size > 0). */
  const pop = (): number => {
    const top = heapIndex[0]!;
    size -= 1;
    const i = heapIndex[size]!;
    const at = heapAt[size]!;
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && heapAt[child + 1]! < heapAt[child]!) child += 1;
      if (heapAt[child]! >= at) break;
      heapIndex[k] = heapIndex[child]!;
      heapAt[k] = heapAt[child]!;
      k = child;
    }
    heapIndex[k] = i;
    heapAt[k] = at;
    return top;
  };
  for (let i = 0; i < count; i += 1) push(i);
  /** The indices of the viewers due at t (nextAt ≤ t), taken off the heap, in the viewers' order. */
  const takeDue = (t: number): number[] => {
    const due: number[] = [];
    while (size > 0 && heapAt[0]! <= t) due.push(pop());
    return due.sort((a, b) => a - b);
  };

  /** One due viewer's event at t (`at`: t as RFC 3339, the same for every viewer of the step). */
  function step(viewer: Viewer, t: number, at: string, queue: PlayerEvent[]): void {
    if (!viewer.session) {
      const item = pick(roster.content);
      const country = viewer.subscriber.country;
      const isp = pick(ISPS[country] ?? ISPS.US!);
      const deviceType = (pick(viewer.subscriber.deviceTypes.length > 0 ? viewer.subscriber.deviceTypes : ['web']) as PlayerDeviceType);
      const setup = viewer.setups.get(deviceType) ?? playerSetupOf(deviceType, Math.random);
      viewer.setups.set(deviceType, setup);
      const cdn = pick(CDNS);
      const streamType = item.kind === 'live' ? 'live' : 'vod';
      const appVersion = appVersionAt(deviceType, t, t, Math.random);
      const badRelease = deviceType === BAD_RELEASE.deviceType && appVersion === BAD_RELEASE.appVersion;
      const congested = REBUFFER_CHANCE[isp] !== undefined;
      const error = troubleOf({ deviceType, appVersion, cdn, atMs: t }, t, Math.random)
        ?? (Math.random() < (congested ? 0.025 : 0.01) ? weighted(Math.random, ERROR_CODES) : null);
      viewer.session = {
        id: randomUUID(), startedAt: t, watched: 0, rebuffers: 0, rebufferMs: 0, isp,
        bitrate: deviceType === 'ios' || deviceType === 'android' ? 2500 : 5000,
        endsAfter: Math.min(item.durationSeconds, 60 + Math.floor(Math.random() * 900)),
        rebufferChance: (REBUFFER_CHANCE[isp] ?? 0.03) * (badRelease ? BAD_RELEASE.rebufferFactor : 1), error,
      };
      queue.push({
        type: 'session.start', eventId: randomUUID(), sessionId: viewer.session.id, at, subscriberId: viewer.subscriber.id, contentId: item.id,
        deviceType, country, isp, cdn, startupMs: Math.round(600 + Math.random() * 1500 * (congested ? 2 : 1)),
        ...setup, appVersion, region: viewer.region, streamType, sourceHost: sourceHostOf(cdn, streamType, site),
      });
      viewer.nextAt = t + heartbeatS * 1000;
      return;
    }
    const s = viewer.session;
    s.watched += heartbeatS;
    if (Math.random() < s.rebufferChance) {
      s.rebuffers++;
      s.rebufferMs += Math.round(500 + Math.random() * 3000);
      s.bitrate = Math.max(800, Math.round(s.bitrate * 0.8));
    } else {
      s.bitrate = Math.min(8000, Math.round(s.bitrate * 1.05));
    }
    if (s.watched >= s.endsAfter || s.error) {
      queue.push({
        type: 'session.end', eventId: randomUUID(), sessionId: s.id, at, watchedSeconds: s.watched, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs,
        ...(s.error ? { errorCode: s.error } : {}),
      });
      viewer.session = null;
      viewer.nextAt = t + (5 + Math.random() * 60) * 1000;
      return;
    }
    queue.push({ type: 'heartbeat', eventId: randomUUID(), sessionId: s.id, at, playheadSeconds: s.watched, watchedSeconds: s.watched, bitrateKbps: s.bitrate, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs });
    viewer.nextAt = t + heartbeatS * 1000;
  }

  return {
    step(t) {
      const queue: PlayerEvent[] = [];
      const due = takeDue(t);
      if (due.length === 0) return queue;
      const at = new Date(t).toISOString();
      // In the viewers' order, as when every viewer was looked at in turn (the same draws of
      // Math.random in the same order); each goes back on the heap with its next time once stepped.
      for (const i of due) step(viewers[i]!, t, at, queue);
      for (const i of due) push(i);
      return queue;
    },
    endAll(t) {
      const queue: PlayerEvent[] = [];
      for (const viewer of viewers) {
        if (!viewer.session) continue;
        const s = viewer.session;
        queue.push({ type: 'session.end', eventId: randomUUID(), sessionId: s.id, at: new Date(t).toISOString(), watchedSeconds: s.watched, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs });
        viewer.session = null;
      }
      return queue;
    },
    playing: () => viewers.filter((v) => v.session).length,
  };
}
