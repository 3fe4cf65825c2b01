/**
 * Networks of a site (spec §3, §4.6, §5, §7.1, §7.2): the service with its networks, launching
 * (publishing) a network, copying brand and settings from the default network, and the per-network
 * reads. Pure domain logic over Drizzle: no Fastify here; the GraphQL resolvers and the REST route
 * translate `NetworkError` into their own wire shapes.
 *
 * Authorization lives here so both transports enforce the same rules: reading needs a role in
 * App CMS, changing needs write or contributor in App CMS, and the caller only ever sees their own
 * site (a different site answers exactly like a site that does not exist).
 */
import { and, eq } from 'drizzle-orm';
import { canContinue, canEdit, parseRoles } from '../../machines/roles';
import type { Network, NetworkBrandCopy, NetworkCopyRequest, NetworkDataKind, Service } from '../../src/api/contract';
import { AREAS } from '../../src/config';
import { MESSAGES, OWN_MESSAGES } from '../../src/messages';
import type { Db } from '../db/client';
import * as schema from '../db/schema';

export type NetworksDb = Db;

/** Who is calling: resolved by the transport from the access token and API key. */
export interface NetworkCaller {
  userId: string;
  siteId: string;
  roles: Record<string, string>;
}

export type NetworkErrorCode = 'unauthenticated' | 'forbidden' | 'not-found' | 'default-network' | 'bad-input';

const STATUS_BY_CODE: Record<NetworkErrorCode, number> = {
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'default-network': 409,
  'bad-input': 400,
};

export class NetworkError extends Error {
  readonly statusCode: number;
  constructor(readonly code: NetworkErrorCode, message: string) {
    super(message);
    this.name = 'NetworkError';
    this.statusCode = STATUS_BY_CODE[code];
  }
}

export const NETWORK_DATA_KINDS: readonly NetworkDataKind[] = ['settings', 'brand', 'device'];

export function isNetworkDataKind(value: string): value is NetworkDataKind {
  return (NETWORK_DATA_KINDS as readonly string[]).includes(value);
}

/** Audit actions written by this module. */
export const AUDIT_ACTIONS = {
  publish: 'network.publish',
  copyFromDefault: 'network.copyFromDefault',
} as const;

/** Steps of a copy, reported to `CopyOptions.afterStep` once each write is done (inside the transaction). */
export type CopyStep = 'brand' | 'settings';

export interface CopyOptions {
  /** Called inside the transaction after each write; a throw rolls the whole copy back. Tests use it. */
  afterStep?: (step: CopyStep) => void | Promise<void>;
}

function requireRead(caller: NetworkCaller): void {
  if (!canContinue(parseRoles(caller.roles), AREAS.appCms)) throw new NetworkError('forbidden', OWN_MESSAGES.forbidden);
}

function requireEdit(caller: NetworkCaller): void {
  if (!canEdit(parseRoles(caller.roles), AREAS.appCms)) throw new NetworkError('forbidden', OWN_MESSAGES.forbidden);
}

function requireText(value: unknown, max = 200): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);
  }
  return value;
}

type SiteRow = typeof schema.sites.$inferSelect;
type NetworkRow = typeof schema.networks.$inferSelect;

/**
 * The caller's own site when `site` names it; anything else (another tenant, a site that does not
 * exist) is 'Site not found', so existence never leaks across tenants.
 */
async function callerSite(db: NetworksDb, caller: NetworkCaller, site: unknown): Promise<SiteRow> {
  const name = requireText(site);
  const [row] = await db.select().from(schema.sites)
    .where(and(eq(schema.sites.id, caller.siteId), eq(schema.sites.siteInternalName, name)));
  if (!row) throw new NetworkError('not-found', MESSAGES.siteNotFound);
  return row;
}

async function siteNetwork(db: NetworksDb, siteId: string, identifier: unknown): Promise<NetworkRow> {
  const id = requireText(identifier);
  const [row] = await db.select().from(schema.networks)
    .where(and(eq(schema.networks.siteId, siteId), eq(schema.networks.identifier, id)));
  if (!row) throw new NetworkError('not-found', MESSAGES.networkNotFound(id));
  return row;
}

function toNetwork(row: NetworkRow): Network {
  return { name: row.name, identifier: row.identifier, image: row.image, isActive: row.isActive, isDefault: row.isDefault };
}

/** Query serviceGet (spec §7.1): the caller's site with its networks, the default first. */
export async function getService(db: NetworksDb, caller: NetworkCaller, site: unknown): Promise<Service> {
  requireRead(caller);
  const row = await callerSite(db, caller, site);
  const rows = await db.select().from(schema.networks).where(eq(schema.networks.siteId, row.id));
  const networks = rows
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name))
    .map(toNetwork);
  return {
    id: row.id,
    siteInternalName: row.siteInternalName,
    isLaunched: row.isLaunched,
    networks,
    serviceName: row.serviceName,
    serviceType: row.serviceType,
    serviceTypes: row.serviceTypes,
    templateName: row.templateName,
    languageCode: row.languageCode,
    forceLogin: row.forceLogin,
    isMonetizationModelEnabled: row.isMonetizationModelEnabled,
    domainName: row.domainName,
    siteBaseUrl: row.siteBaseUrl,
    backendUrl: row.backendUrl,
  };
}

/** Mutation networkPublish (spec §7.1, §5): launches a non-default network of the caller's site. */
export async function publishNetwork(db: NetworksDb, caller: NetworkCaller, site: unknown, identifier: unknown): Promise<Network> {
  requireEdit(caller);
  const siteRow = await callerSite(db, caller, site);
  const target = await siteNetwork(db, siteRow.id, identifier);
  if (target.isDefault) throw new NetworkError('default-network', MESSAGES.isDefaultNetwork(target.name));
  return db.transaction(async (tx) => {
    const [updated] = await tx.update(schema.networks).set({ isActive: true })
      .where(eq(schema.networks.id, target.id)).returning();
    await tx.insert(schema.auditEvents).values({
      actorUserId: caller.userId,
      action: AUDIT_ACTIONS.publish,
      siteId: siteRow.id,
      networkIdentifier: target.identifier,
      detail: { networkName: target.name, wasActive: target.isActive },
    });
    return toNetwork(updated ?? target);
  });
}

function parseBrandCopy(value: unknown): NetworkBrandCopy | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);
  const flags = value as Record<string, unknown>;
  const keys: (keyof NetworkBrandCopy)[] = ['logoAndIcons', 'theme', 'themeOtt', 'themeApps'];
  const copy = {} as NetworkBrandCopy;
  for (const key of keys) {
    const flag = flags[key] ?? false;
    if (typeof flag !== 'boolean') throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);
    copy[key] = flag;
  }
  return keys.some((key) => copy[key]) ? copy : null;
}

/**
 * Mutation networkCopyFromDefault (spec §7.1, §5): copies the chosen parts of the default network's
 * brand and/or its settings onto another network of the caller's site, in one transaction with its
 * audit record: either everything is copied or nothing is.
 */
export async function copyFromDefault(
  db: NetworksDb, caller: NetworkCaller, request: NetworkCopyRequest, options: CopyOptions = {},
): Promise<Network> {
  requireEdit(caller);
  const brand = parseBrandCopy(request.networkBrand);
  if (request.networkSettings !== undefined && request.networkSettings !== null && typeof request.networkSettings !== 'boolean') {
    throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);
  }
  const settings = request.networkSettings === true;
  if (!brand && !settings) throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);

  const siteRow = await callerSite(db, caller, request.site);
  const target = await siteNetwork(db, siteRow.id, request.network);
  if (target.isDefault) throw new NetworkError('default-network', MESSAGES.isDefaultNetwork(target.name));
  const [source] = await db.select().from(schema.networks)
    .where(and(eq(schema.networks.siteId, siteRow.id), eq(schema.networks.isDefault, true)));
  if (!source) throw new NetworkError('not-found', OWN_MESSAGES.notFound);

  await db.transaction(async (tx) => {
    const now = new Date();
    if (brand) {
      const [from] = await tx.select().from(schema.networkBrands).where(eq(schema.networkBrands.networkId, source.id));
      if (!from) throw new NetworkError('not-found', MESSAGES.failedToGet('brand', source.name));
      const [to] = await tx.select().from(schema.networkBrands).where(eq(schema.networkBrands.networkId, target.id));
      const base = to ?? from;
      const next = {
        logoUrl: brand.logoAndIcons ? from.logoUrl : base.logoUrl,
        iconUrl: brand.logoAndIcons ? from.iconUrl : base.iconUrl,
        theme: brand.theme ? from.theme : base.theme,
        themeOtt: brand.themeOtt ? from.themeOtt : base.themeOtt,
        themeApps: brand.themeApps ? from.themeApps : base.themeApps,
        updatedAt: now,
      };
      await tx.insert(schema.networkBrands).values({ networkId: target.id, ...next })
        .onConflictDoUpdate({ target: schema.networkBrands.networkId, set: next });
      await options.afterStep?.('brand');
    }
    if (settings) {
      const [from] = await tx.select().from(schema.networkSettings).where(eq(schema.networkSettings.networkId, source.id));
      if (!from) throw new NetworkError('not-found', MESSAGES.failedToGet('settings', source.name));
      await tx.insert(schema.networkSettings).values({ networkId: target.id, values: from.values, updatedAt: now })
        .onConflictDoUpdate({ target: schema.networkSettings.networkId, set: { values: from.values, updatedAt: now } });
      await options.afterStep?.('settings');
    }
    await tx.insert(schema.auditEvents).values({
      actorUserId: caller.userId,
      action: AUDIT_ACTIONS.copyFromDefault,
      siteId: siteRow.id,
      networkIdentifier: target.identifier,
      detail: { from: source.identifier, networkBrand: brand, networkSettings: settings },
    });
  });
  return toNetwork(target);
}

/** Drops a numeric `status` field, as the per-network reads do (spec §7.2). */
export function withoutNumericStatus<T extends Record<string, unknown>>(data: T): Omit<T, 'status'> | T {
  if (typeof data.status !== 'number') return data;
  const { status: _status, ...rest } = data;
  void _status;
  return rest;
}

/**
 * GET /v4.0/appcms/{site}/{kind}/{network} (spec §7.2): the stored brand, settings or device list of
 * one network of the caller's site. The default network has data too (it is the copy source); the
 * client decides not to ask for it (spec §5).
 */
export async function readNetworkData(
  db: NetworksDb, caller: NetworkCaller, site: unknown, kind: string, identifier: unknown,
): Promise<Record<string, unknown>> {
  if (!isNetworkDataKind(kind)) throw new NetworkError('bad-input', OWN_MESSAGES.badRequest);
  requireRead(caller);
  const siteRow = await callerSite(db, caller, site);
  const network = await siteNetwork(db, siteRow.id, identifier);
  const header = { site: siteRow.siteInternalName, network: network.identifier, networkName: network.name };
  if (kind === 'brand') {
    const [row] = await db.select().from(schema.networkBrands).where(eq(schema.networkBrands.networkId, network.id));
    if (!row) throw new NetworkError('not-found', MESSAGES.failedToGet(kind, network.name));
    return {
      ...header,
      logoUrl: row.logoUrl,
      iconUrl: row.iconUrl,
      theme: row.theme,
      themeOtt: row.themeOtt,
      themeApps: row.themeApps,
      updatedAt: row.updatedAt.toISOString(),
    };
  }
  if (kind === 'settings') {
    const [row] = await db.select().from(schema.networkSettings).where(eq(schema.networkSettings.networkId, network.id));
    if (!row) throw new NetworkError('not-found', MESSAGES.failedToGet(kind, network.name));
    return withoutNumericStatus({ ...row.values, ...header, updatedAt: row.updatedAt.toISOString() });
  }
  const [row] = await db.select().from(schema.networkDevices).where(eq(schema.networkDevices.networkId, network.id));
  if (!row) throw new NetworkError('not-found', MESSAGES.failedToGet(kind, network.name));
  return { ...header, devices: row.devices, updatedAt: row.updatedAt.toISOString() };
}
