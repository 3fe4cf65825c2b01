/**
 * SQL of a site's networks and their per-network data (brand, settings, devices). Every read is
 * scoped to one site. The rules (roles, the default network, what a copy takes) are in
 * server/domain/networks.ts; multi-step writes run through `transaction`, whose repository commits
 * or rolls back as one, audit record included.
 */
import { and, eq, sql } from 'drizzle-orm';
import { serviceCacheOf, type NetworkBrandRow, type NetworkDevicesRow, type NetworkRow, type NetworkSettingsRow, type NetworkSiteRow } from './service-cache';
import { insertAuditEvent, type AuditEventValues } from './audit-repository';
import type { Db } from './client';
import { insertRevision, type RevisionRow, type RevisionValues } from './revision-repository';
import { networkBrands, networkDevices, networks, networkSettings, sites } from './schema';

export type { NetworkBrandRow, NetworkDevicesRow, NetworkRow, NetworkSettingsRow, NetworkSiteRow };
export type BrandValues = Omit<NetworkBrandRow, 'networkId' | 'version'>;

type Executor = Pick<Db, 'select' | 'insert' | 'update'>;

function repositoryOver(db: Executor) {
  return {
    /** The site with this id, when its internal name is `name` too. */
    async site(siteId: string, name: string): Promise<NetworkSiteRow | undefined> {
      const [row] = await db.select().from(sites).where(and(eq(sites.id, siteId), eq(sites.siteInternalName, name)));
      return row;
    },
    /** The site with all its networks, in one query (serviceGet); undefined when there is no such site. */
    async serviceOf(siteId: string): Promise<{ site: NetworkSiteRow; networks: NetworkRow[] } | undefined> {
      const rows = await db.select({ site: sites, network: networks }).from(sites)
        .leftJoin(networks, eq(networks.siteId, sites.id))
        .where(eq(sites.id, siteId));
      const first = rows[0];
      if (!first) return undefined;
      return { site: first.site, networks: rows.flatMap((r) => (r.network ? [r.network] : [])) };
    },
    async network(siteId: string, identifier: string): Promise<NetworkRow | undefined> {
      const [row] = await db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.identifier, identifier)));
      return row;
    },
    async networksOf(siteId: string): Promise<NetworkRow[]> {
      return db.select().from(networks).where(eq(networks.siteId, siteId));
    },
    async defaultNetwork(siteId: string): Promise<NetworkRow | undefined> {
      const [row] = await db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true)));
      return row;
    },
    async setActive(networkId: string, isActive: boolean): Promise<NetworkRow | undefined> {
      const [row] = await db.update(networks).set({ isActive }).where(eq(networks.id, networkId)).returning();
      return row;
    },
    async brand(networkId: string): Promise<NetworkBrandRow | undefined> {
      const [row] = await db.select().from(networkBrands).where(eq(networkBrands.networkId, networkId));
      return row;
    },
    async saveBrand(networkId: string, values: BrandValues): Promise<void> {
      await db.insert(networkBrands).values({ networkId, ...values }).onConflictDoUpdate({ target: networkBrands.networkId, set: { ...values, version: sql`${networkBrands.version} + 1` } });
    },
    async settings(networkId: string): Promise<NetworkSettingsRow | undefined> {
      const [row] = await db.select().from(networkSettings).where(eq(networkSettings.networkId, networkId));
      return row;
    },
    async saveSettings(networkId: string, values: NetworkSettingsRow['values'], updatedAt: Date): Promise<void> {
      await db.insert(networkSettings).values({ networkId, values, updatedAt })
        .onConflictDoUpdate({ target: networkSettings.networkId, set: { values, updatedAt, version: sql`${networkSettings.version} + 1` } });
    },
    async devices(networkId: string): Promise<NetworkDevicesRow | undefined> {
      const [row] = await db.select().from(networkDevices).where(eq(networkDevices.networkId, networkId));
      return row;
    },
    /** One revision (issue 28), in this repository's transaction (server/domain/revisions.ts decides what it holds). */
    insertRevision(values: RevisionValues): Promise<RevisionRow> {
      return insertRevision(db, values);
    },
    audit(values: Omit<AuditEventValues, 'at'>): Promise<void> {
      return insertAuditEvent(db, values);
    },
  };
}

export type NetworkStore = ReturnType<typeof repositoryOver>;

export function createNetworkRepository(db: Db) {
  return {
    ...repositoryOver(db),
    /** The per-site cache of the service and its networks of this database (server/db/service-cache.ts). */
    cache: serviceCacheOf(db),
    /** Runs `work` in one transaction over a repository bound to it. */
    transaction<T>(work: (tx: NetworkStore) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(repositoryOver(tx)));
    },
  };
}

export type NetworkRepository = ReturnType<typeof createNetworkRepository>;
