/**
 * SQL of the AppCMS editors: versioned writes of a network's brand, settings and devices and of the
 * site's service fields (each write answers nothing when the version read is stale), the signing key,
 * and the append-only settings history (insert and read only: nothing here updates or deletes a
 * version). Rules are in server/domain/appcms.ts; multi-step writes run through `transaction`.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import { insertAuditEvent, type AuditEventValues } from './audit-repository';
import type { Db } from './client';
import { insertRevision, type RevisionRow, type RevisionValues } from './revision-repository';
import { isLegacyFile, recordSiteFile, siteFileHold, siteMayReference } from './upload-files-repository';
import { networkBrands, networkDevices, networkSettings, networkSettingsVersions, sites } from './schema';

export type SettingsVersionRow = typeof networkSettingsVersions.$inferSelect;
export type ServiceRow = typeof sites.$inferSelect;
type SettingsValues = Record<string, string | number | boolean>;

export interface BrandWrite {
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
}

export interface ServiceWrite {
  serviceName?: string;
  serviceType?: string;
  serviceTypes?: string[];
  templateName?: string;
  languageCode?: string;
  forceLogin?: boolean;
  isMonetizationModelEnabled?: boolean;
  domainName?: string;
}

type Executor = Pick<Db, 'select' | 'insert' | 'update'>;

/** Service fields the Monetization › Models editor also writes (server/db/monetization-repository.ts). */
const SHARED_WITH_MODELS: readonly (keyof ServiceWrite)[] = ['serviceType', 'serviceTypes', 'isMonetizationModelEnabled'];

function repositoryOver(db: Executor) {
  return {
    async service(siteId: string): Promise<ServiceRow | undefined> {
      const [row] = await db.select().from(sites).where(eq(sites.id, siteId));
      return row;
    },
    async saveService(siteId: string, version: number, values: ServiceWrite): Promise<ServiceRow | undefined> {
      // The service types and the monetization switch are the Models editor's fields too (issue 27):
      // a write of any of them bumps its version in the same statement, so its stale form gets a 409.
      const shared = SHARED_WITH_MODELS.some((key) => values[key] !== undefined);
      const [row] = await db.update(sites).set({
        ...values, serviceVersion: sql`${sites.serviceVersion} + 1`,
        ...(shared ? { monetizationVersion: sql`${sites.monetizationVersion} + 1` } : {}),
      })
        .where(and(eq(sites.id, siteId), eq(sites.serviceVersion, version))).returning();
      return row;
    },
    async rotateSigningKey(siteId: string, key: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db.update(sites).set({ signingKey: key, signingKeyRotatedAt: at }).where(eq(sites.id, siteId)).returning();
      return row;
    },
    async saveBrand(networkId: string, version: number, values: BrandWrite, at: Date) {
      const [row] = await db.update(networkBrands).set({ ...values, updatedAt: at, version: sql`${networkBrands.version} + 1` })
        .where(and(eq(networkBrands.networkId, networkId), eq(networkBrands.version, version))).returning();
      return row;
    },
    async settings(networkId: string) {
      const [row] = await db.select().from(networkSettings).where(eq(networkSettings.networkId, networkId));
      return row;
    },
    async saveSettings(networkId: string, version: number, values: SettingsValues, at: Date) {
      const [row] = await db.update(networkSettings).set({ values, updatedAt: at, version: sql`${networkSettings.version} + 1` })
        .where(and(eq(networkSettings.networkId, networkId), eq(networkSettings.version, version))).returning();
      return row;
    },
    async devices(networkId: string) {
      const [row] = await db.select().from(networkDevices).where(eq(networkDevices.networkId, networkId));
      return row;
    },
    async saveDevices(networkId: string, version: number, devices: DeviceEntry[], at: Date) {
      const [row] = await db.update(networkDevices).set({ devices, updatedAt: at, version: sql`${networkDevices.version} + 1` })
        .where(and(eq(networkDevices.networkId, networkId), eq(networkDevices.version, version))).returning();
      return row;
    },
    async settingsVersions(networkId: string): Promise<SettingsVersionRow[]> {
      return db.select().from(networkSettingsVersions).where(eq(networkSettingsVersions.networkId, networkId)).orderBy(asc(networkSettingsVersions.version));
    },
    async settingsVersion(networkId: string, version: number): Promise<SettingsVersionRow | undefined> {
      const [row] = await db.select().from(networkSettingsVersions)
        .where(and(eq(networkSettingsVersions.networkId, networkId), eq(networkSettingsVersions.version, version)));
      return row;
    },
    async appendSettingsVersion(values: Omit<typeof networkSettingsVersions.$inferInsert, 'id'>): Promise<void> {
      await db.insert(networkSettingsVersions).values(values);
    },
    /**
     * The first stored settings as a version, unless it is there already. Two writers doing a network's
     * first save at once both get here: the second waits for the first and inserts nothing (no unique
     * violation, issue 25), then its versioned update finds the version gone and answers 409.
     */
    async keepSettingsVersion(values: Omit<typeof networkSettingsVersions.$inferInsert, 'id'>): Promise<void> {
      await db.insert(networkSettingsVersions).values(values).onConflictDoNothing({ target: [networkSettingsVersions.networkId, networkSettingsVersions.version] });
    },
    /** One revision (issue 28), in this repository's transaction (server/domain/revisions.ts decides what it holds). */
    insertRevision(values: RevisionValues): Promise<RevisionRow> {
      return insertRevision(db, values);
    },
    audit(values: Omit<AuditEventValues, 'at'>): Promise<void> {
      return insertAuditEvent(db, values);
    },
    /* Which site holds which stored upload (issue 37, server/db/upload-files-repository.ts). */
    recordFile(siteId: string, key: string): Promise<void> {
      return recordSiteFile(db, siteId, key);
    },
    fileHold(siteId: string, key: string) {
      return siteFileHold(db, siteId, key);
    },
    isLegacyFile(key: string): Promise<boolean> {
      return isLegacyFile(db, key);
    },
    mayReferenceFile(siteId: string, ref: { siteId?: string; key: string }): Promise<boolean> {
      return siteMayReference(db, siteId, ref);
    },
  };
}

export type AppcmsStore = ReturnType<typeof repositoryOver>;

export function createAppcmsRepository(db: Db) {
  return {
    ...repositoryOver(db),
    transaction<T>(work: (tx: AppcmsStore) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(repositoryOver(tx)));
    },
  };
}

export type AppcmsRepository = ReturnType<typeof createAppcmsRepository>;
