/**
 * The per-site cache of a site's service and its networks (issue 21): what `serviceGet` and the
 * per-network reads (GET /v4.0/appcms/{site}/{kind}/{network}) answer, held in this process.
 *
 * One cache per database handle (`serviceCacheOf(db)`): every repository and domain function over
 * the same handle shares it, so a write made through any of them invalidates what the reads see.
 *
 * Key: the caller's site id (never the site name of the request, so two sites never share an
 * entry). Value: the site row, its networks (default first, then by name) and, filled lazily, the
 * brand / settings / device rows of its networks. Bound: SERVICE_CACHE_MAX_SITES entries, the least
 * recently used goes first. TTL: `ttlMs` (SERVICE_CACHE_MS, 5 s by default; 0 turns the cache off),
 * which only matters for writes no instance announces (a script on the same database).
 * Invalidation: `invalidateSite(siteId)` after every write that can change what it holds,
 * once the transaction is over (committed or not): launch and copy (server/domain/networks.ts), the
 * AppCMS brand / settings / restore / devices / service / signing-key writes (server/domain/appcms.ts)
 * and the monetization settings (server/domain/monetization.ts, `isMonetizationModelEnabled`).
 * A read that started before an invalidation never stores its (possibly older) answer. Across
 * instances (issue 31): `attachBus` (buildServices, server/composition.ts) publishes each invalidation on the cache bus
 * (PostgreSQL LISTEN/NOTIFY, server/db/cache-bus.ts) and applies the other instances' at once.
 * Cached rows are frozen: callers copy before changing anything.
 */
import type { NetworkDataKind } from '../../common/contract';
import { createLocalCacheBus, type CacheBus } from './cache-bus';
import { underlyingDb } from './ambient-transaction';
import type { networkBrands, networkDevices, networks, networkSettings, sites } from './schema';

/** The rows this cache holds (server/db/network-repository.ts reads them and re-exports these names). */
export type NetworkSiteRow = typeof sites.$inferSelect;
export type NetworkRow = typeof networks.$inferSelect;
export type NetworkBrandRow = typeof networkBrands.$inferSelect;
export type NetworkSettingsRow = typeof networkSettings.$inferSelect;
export type NetworkDevicesRow = typeof networkDevices.$inferSelect;

export interface ServiceSnapshot {
  site: NetworkSiteRow;
  /** Default first, then by name. */
  networks: readonly NetworkRow[];
}

interface NetworkDataRows {
  brand: NetworkBrandRow;
  settings: NetworkSettingsRow;
  device: NetworkDevicesRow;
}

interface ServiceCache {
  /** The site's snapshot, loaded by `load` on a miss (undefined is never cached). */
  snapshot(siteId: string, load: () => Promise<ServiceSnapshot | undefined>): Promise<ServiceSnapshot | undefined>;
  /** One network's brand, settings or devices, kept with its site's snapshot. */
  networkData<K extends NetworkDataKind>(
    siteId: string, kind: K, networkId: string, load: () => Promise<NetworkDataRows[K] | undefined>,
  ): Promise<NetworkDataRows[K] | undefined>;
  /**
   * Drops everything held for the site; the next read goes to the database. With a bus attached,
   * every other instance drops its entry too when the event arrives.
   */
  invalidateSite(siteId: string): void;
  /**
   * Publishes invalidations on the bus and applies the other instances' (issue 31); while the bus's
   * listener is down nothing is answered from or stored in the cache. One bus per cache.
   */
  attachBus(bus: CacheBus): void;
  clear(): void;
  /** 0 turns the cache off (and empties it). */
  setTtl(ms: number): void;
  readonly size: number;
}

/** Bound on cached sites; past it the least recently used site goes. */
const SERVICE_CACHE_MAX_SITES = 1000;
const SERVICE_CACHE_DEFAULT_TTL_MS = 5000;

interface Entry {
  snapshot: ServiceSnapshot;
  at: number;
  data: Map<string, unknown>;
}

function sortNetworks(rows: readonly NetworkRow[]): NetworkRow[] {
  return [...rows].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}

/** Freezes a freshly loaded row and everything in it (jsonb values, arrays), so no caller can change the cache. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function freezeSnapshot(snapshot: ServiceSnapshot): ServiceSnapshot {
  return deepFreeze({ site: snapshot.site, networks: sortNetworks(snapshot.networks) });
}

export function createServiceCache(options: { ttlMs?: number; maxSites?: number; now?: () => number } = {}): ServiceCache {
  let ttlMs = options.ttlMs ?? SERVICE_CACHE_DEFAULT_TTL_MS;
  const maxSites = options.maxSites ?? SERVICE_CACHE_MAX_SITES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // Bumped by every invalidation: a load that started under an older epoch does not store its answer.
  let epoch = 0;
  let bus: CacheBus = createLocalCacheBus();
  let unsubscribe = () => {};
  const on = () => ttlMs > 0 && bus.listening;

  function dropSite(siteId: string): void {
    epoch++;
    entries.delete(siteId);
  }

  function live(siteId: string): Entry | undefined {
    const entry = entries.get(siteId);
    if (!entry) return undefined;
    if (now() - entry.at >= ttlMs) {
      entries.delete(siteId);
      return undefined;
    }
    return entry;
  }

  function clear(): void {
    epoch++;
    entries.clear();
  }

  return {
    async snapshot(siteId, load) {
      const hit = on() ? live(siteId) : undefined;
      if (hit) {
        // Most recently used last, so eviction takes the least recently used first.
        entries.delete(siteId);
        entries.set(siteId, hit);
        return hit.snapshot;
      }
      const started = epoch;
      const at = now();
      const loaded = await load();
      if (!loaded) return undefined;
      const snapshot = freezeSnapshot(loaded);
      if (on() && started === epoch) {
        if (entries.size >= maxSites) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
        entries.set(siteId, { snapshot, at, data: new Map() });
      }
      return snapshot;
    },
    async networkData(siteId, kind, networkId, load) {
      const key = `${kind}:${networkId}`;
      const entry = on() ? live(siteId) : undefined;
      if (entry?.data.has(key)) return entry.data.get(key) as NetworkDataRows[typeof kind];
      const started = epoch;
      const row = await load();
      if (row && entry && on() && started === epoch && entries.get(siteId) === entry) entry.data.set(key, deepFreeze(row));
      return row;
    },
    invalidateSite(siteId) {
      dropSite(siteId);
      bus.publish({ kind: 'service', id: siteId });
    },
    attachBus(next) {
      unsubscribe();
      bus = next;
      clear();
      unsubscribe = next.subscribe({
        event(event) {
          if (event.kind === 'service') dropSite(event.id);
        },
        reset: clear,
      });
    },
    clear,
    setTtl(ms) {
      ttlMs = ms;
      if (ms <= 0) clear();
    },
    get size() {
      return entries.size;
    },
  };
}

const byDatabase = new WeakMap<object, ServiceCache>();

/** The one cache of this database handle (created on first use, with the default TTL). */
export function serviceCacheOf(handle: object): ServiceCache {
  // The services' db is a view of the handle's (server/db/ambient-transaction.ts): one cache for both.
  const db = underlyingDb(handle);
  let cache = byDatabase.get(db);
  if (!cache) {
    cache = createServiceCache();
    byDatabase.set(db, cache);
  }
  return cache;
}
