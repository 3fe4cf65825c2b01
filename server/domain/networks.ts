/**
 * Networks of a site (spec §3, §4.6, §5, §7.1, §7.2): the service with its networks, launching
 * (publishing) a network, copying brand and settings from the default network, and the per-network
 * reads. Rules only: no Fastify and no SQL here (that is server/db/network-repository.ts); refusals
 * are DomainErrors (./errors), which each transport translates in one place.
 *
 * Authorization lives here so both transports enforce the same rules: reading needs a role in
 * App CMS, changing needs write or contributor in App CMS, and the caller only ever sees their own
 * site (a different site answers exactly like a site that does not exist).
 */
import { canContinue, canEdit, parseRoles } from '../../common/roles';
import type { Network, NetworkBrandCopy, NetworkCopyRequest, NetworkDataKind, Service } from '../../common/contract';
import { AREAS } from '../../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../../common/messages';
import type { NetworkRepository } from './ports';
import type { NetworkRow, ServiceSnapshot, SiteRow as NetworkSiteRow } from './rows';

/** What the network rules read and write through (server/db/network-repository.ts; built by server/composition.ts). */
export type { NetworkRepository };
import { conflict, forbidden, invalid, notFound } from './errors';
import { flattenBrand } from '../../common/appcms';
import { auditObject, recordRevision } from './revisions';

/** Who is calling: resolved by the transport from the access token and API key. */
export interface NetworkCaller {
  userId: string;
  siteId: string;
  roles: Record<string, string>;
}

export const NETWORK_DATA_KINDS: readonly NetworkDataKind[] = ['settings', 'brand', 'device'];

export function isNetworkDataKind(value: string): value is NetworkDataKind {
  return (NETWORK_DATA_KINDS as readonly string[]).includes(value);
}

/** Audit actions written by this module. */
export const AUDIT_ACTIONS = {
  publish: 'network.publish',
  withdraw: 'network.withdraw',
  copyFromDefault: 'network.copyFromDefault',
} as const;

/** Steps of a copy, reported to `CopyOptions.afterStep` once each write is done (inside the transaction). */
export type CopyStep = 'brand' | 'settings';

export interface CopyOptions {
  /** Called inside the transaction after each write; a throw rolls the whole copy back. Tests use it. */
  afterStep?: (step: CopyStep) => void | Promise<void>;
}

export function requireRead(caller: NetworkCaller): void {
  if (!canContinue(parseRoles(caller.roles), AREAS.appCms)) throw forbidden();
}

export function requireEdit(caller: NetworkCaller): void {
  if (!canEdit(parseRoles(caller.roles), AREAS.appCms)) throw forbidden();
}

function requireText(param: string, value: unknown, max = 200): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw invalid(param, OWN_MESSAGES.badRequest);
  }
  return value;
}

/**
 * The caller's own site when `site` names it; anything else (another tenant, a site that does not
 * exist) is 'Site not found', so existence never leaks across tenants.
 */
export async function callerSite(store: NetworkRepository, caller: NetworkCaller, site: unknown): Promise<NetworkSiteRow> {
  const row = await store.site(caller.siteId, requireText('site', site));
  if (!row) throw notFound(MESSAGES.siteNotFound);
  return row;
}

export async function siteNetwork(store: NetworkRepository, siteId: string, identifier: unknown): Promise<NetworkRow> {
  const id = requireText('network', identifier);
  const row = await store.network(siteId, id);
  if (!row) throw notFound(MESSAGES.networkNotFound(id));
  return row;
}

function toNetwork(row: NetworkRow): Network {
  return { name: row.name, identifier: row.identifier, image: row.image, isActive: row.isActive, isDefault: row.isDefault };
}

/**
 * The caller's site with its networks, from the per-site cache (server/db/service-cache.ts) or
 * one query. Like callerSite, a `site` that is not the caller's own answers 'Site not found'.
 */
async function callerService(store: NetworkRepository, caller: NetworkCaller, site: unknown): Promise<ServiceSnapshot> {
  const name = requireText('site', site);
  const snapshot = await store.cache.snapshot(caller.siteId, () => store.serviceOf(caller.siteId));
  if (!snapshot || snapshot.site.siteInternalName !== name) throw notFound(MESSAGES.siteNotFound);
  return snapshot;
}

/** Query serviceGet (spec §7.1): the caller's site with its networks, the default first. */
export async function getService(store: NetworkRepository, caller: NetworkCaller, site: unknown): Promise<Service> {
  requireRead(caller);
  const { site: row, networks } = await callerService(store, caller, site);
  return {
    id: row.id,
    siteInternalName: row.siteInternalName,
    isLaunched: row.isLaunched,
    networks: networks.map(toNetwork),
    serviceName: row.serviceName,
    serviceType: row.serviceType,
    serviceTypes: [...row.serviceTypes],
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
export async function publishNetwork(store: NetworkRepository, caller: NetworkCaller, site: unknown, identifier: unknown): Promise<Network> {
  requireEdit(caller);
  const siteRow = await callerSite(store, caller, site);
  const target = await siteNetwork(store, siteRow.id, identifier);
  if (target.isDefault) throw conflict(MESSAGES.isDefaultNetwork(target.name));
  try {
    return await store.transaction(async (tx) => {
      const updated = await tx.setActive(target.id, true);
      const object = { kind: 'network', objectId: target.id, objectName: target.name, networkId: target.id } as const;
      await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, before: { isActive: target.isActive }, after: { isActive: updated?.isActive ?? true } });
      await tx.audit({
        actorUserId: caller.userId,
        action: AUDIT_ACTIONS.publish,
        siteId: siteRow.id,
        networkIdentifier: target.identifier,
        ...auditObject(object),
        detail: { networkName: target.name, wasActive: target.isActive },
      });
      return toNetwork(updated ?? target);
    });
  } finally {
    // After the transaction, committed or not (server/db/service-cache.ts).
    store.cache.invalidateSite(siteRow.id);
  }
}

/**
 * Withdraws a launched network (issue 28): it goes back to not launched, the reverse of
 * networkPublish, audited and recorded as a revision of kind network. The default network is never
 * launched nor withdrawn; a network that is not launched is refused.
 */
export async function withdrawNetwork(store: NetworkRepository, caller: NetworkCaller, site: unknown, identifier: unknown): Promise<Network> {
  requireEdit(caller);
  const siteRow = await callerSite(store, caller, site);
  const target = await siteNetwork(store, siteRow.id, identifier);
  if (target.isDefault) throw conflict(MESSAGES.isDefaultNetwork(target.name));
  if (!target.isActive) throw conflict(OWN_MESSAGES.networkIsNotLaunched(target.name));
  try {
    return await store.transaction(async (tx) => {
      const updated = await tx.setActive(target.id, false);
      const object = { kind: 'network', objectId: target.id, objectName: target.name, networkId: target.id } as const;
      await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, before: { isActive: true }, after: { isActive: updated?.isActive ?? false } });
      await tx.audit({
        actorUserId: caller.userId,
        action: AUDIT_ACTIONS.withdraw,
        siteId: siteRow.id,
        networkIdentifier: target.identifier,
        ...auditObject(object),
        detail: { networkName: target.name, wasActive: true },
      });
      return toNetwork(updated ?? { ...target, isActive: false });
    });
  } finally {
    store.cache.invalidateSite(siteRow.id);
  }
}

function parseBrandCopy(value: unknown): NetworkBrandCopy | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw invalid('networkBrand', OWN_MESSAGES.badRequest);
  const flags = value as Record<string, unknown>;
  const keys: (keyof NetworkBrandCopy)[] = ['logoAndIcons', 'theme', 'themeOtt', 'themeApps'];
  const copy = {} as NetworkBrandCopy;
  for (const key of keys) {
    const flag = flags[key] ?? false;
    if (typeof flag !== 'boolean') throw invalid(`networkBrand.${key}`, OWN_MESSAGES.badRequest);
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
  store: NetworkRepository, caller: NetworkCaller, request: NetworkCopyRequest, options: CopyOptions = {},
): Promise<Network> {
  requireEdit(caller);
  const brand = parseBrandCopy(request.networkBrand);
  if (request.networkSettings !== undefined && request.networkSettings !== null && typeof request.networkSettings !== 'boolean') {
    throw invalid('networkSettings', OWN_MESSAGES.badRequest);
  }
  const settings = request.networkSettings === true;
  if (!brand && !settings) throw invalid('req', OWN_MESSAGES.badRequest);

  const siteRow = await callerSite(store, caller, request.site);
  const target = await siteNetwork(store, siteRow.id, request.network);
  if (target.isDefault) throw conflict(MESSAGES.isDefaultNetwork(target.name));
  const source = await store.defaultNetwork(siteRow.id);
  if (!source) throw notFound(OWN_MESSAGES.notFound);

  try {
    await store.transaction(async (tx) => {
      const now = new Date();
      if (brand) {
        const from = await tx.brand(source.id);
        if (!from) throw notFound(MESSAGES.failedToGet('brand', source.name));
        const to = await tx.brand(target.id);
        const base = to ?? from;
        const next = {
          logoUrl: brand.logoAndIcons ? from.logoUrl : base.logoUrl,
          iconUrl: brand.logoAndIcons ? from.iconUrl : base.iconUrl,
          theme: brand.theme ? from.theme : base.theme,
          themeOtt: brand.themeOtt ? from.themeOtt : base.themeOtt,
          themeApps: brand.themeApps ? from.themeApps : base.themeApps,
          updatedAt: now,
        };
        await tx.saveBrand(target.id, next);
        const saved = await tx.brand(target.id);
        await recordRevision(tx, {
          kind: 'brand', objectId: target.id, objectName: target.name, networkId: target.id, siteId: siteRow.id, actorUserId: caller.userId,
          objectVersion: saved?.version ?? null, before: to ? flattenBrand(to) : null, after: flattenBrand(next), reason: `Copied from ${source.name}`,
        });
        await options.afterStep?.('brand');
      }
      if (settings) {
        const from = await tx.settings(source.id);
        if (!from) throw notFound(MESSAGES.failedToGet('settings', source.name));
        const before = await tx.settings(target.id);
        await tx.saveSettings(target.id, from.values, now);
        const saved = await tx.settings(target.id);
        await recordRevision(tx, {
          kind: 'settings', objectId: target.id, objectName: target.name, networkId: target.id, siteId: siteRow.id, actorUserId: caller.userId,
          objectVersion: saved?.version ?? null, before: before?.values ?? null, after: from.values, snapshot: true, reason: `Copied from ${source.name}`,
        });
        await options.afterStep?.('settings');
      }
      await tx.audit({
        actorUserId: caller.userId,
        action: AUDIT_ACTIONS.copyFromDefault,
        siteId: siteRow.id,
        networkIdentifier: target.identifier,
        objectKind: 'network', objectId: target.id, objectName: target.name,
        detail: { from: source.identifier, networkBrand: brand, networkSettings: settings },
      });
    });
  } finally {
    store.cache.invalidateSite(siteRow.id);
  }
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
  store: NetworkRepository, caller: NetworkCaller, site: unknown, kind: string, identifier: unknown,
): Promise<Record<string, unknown>> {
  if (!isNetworkDataKind(kind)) throw invalid('kind', OWN_MESSAGES.badRequest);
  requireRead(caller);
  const { site: siteRow, networks } = await callerService(store, caller, site);
  const id = requireText('network', identifier);
  let network = networks.find((n) => n.identifier === id);
  if (!network) {
    // Not in the cached list: ask the database (a network added by another process shows at once).
    network = await siteNetwork(store, siteRow.id, id);
    store.cache.invalidateSite(siteRow.id);
  }
  const networkId = network.id;
  const header = { site: siteRow.siteInternalName, network: network.identifier, networkName: network.name };
  if (kind === 'brand') {
    const row = await store.cache.networkData(siteRow.id, 'brand', networkId, () => store.brand(networkId));
    if (!row) throw notFound(MESSAGES.failedToGet(kind, network.name));
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
    const row = await store.cache.networkData(siteRow.id, 'settings', networkId, () => store.settings(networkId));
    if (!row) throw notFound(MESSAGES.failedToGet(kind, network.name));
    return withoutNumericStatus({ ...row.values, ...header, updatedAt: row.updatedAt.toISOString() });
  }
  const row = await store.cache.networkData(siteRow.id, 'device', networkId, () => store.devices(networkId));
  if (!row) throw notFound(MESSAGES.failedToGet(kind, network.name));
  return { ...header, devices: row.devices, updatedAt: row.updatedAt.toISOString() };
}
