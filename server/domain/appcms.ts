/**
 * AppCMS editors (spec §2.7, §3, §7.5): brand, settings (append-only versions, restore), devices,
 * service fields and template, the signing key, uploads and the copy-from-default preview. Rules
 * only: SQL is in server/db/appcms-repository.ts (and network-repository.ts for sites and
 * networks), files behind server/storage. Reading needs a role in App CMS, writing needs write or
 * contributor; only the caller's own site and its networks are reachable. Every write is versioned
 * (a stale version is a conflict, never an overwrite) and audit-logged in the same transaction.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  APPCMS_MESSAGES, BRAND_LABELS, DEVICE_PLATFORMS, SETTINGS_FIELDS, SETTINGS_LABELS, TEMPLATES,
  UPLOAD_SLOTS, diffValues, flattenBrand, validateBrand, validateDevices, validateService, validateSettings,
  type AppcmsBrand, type AppcmsDevices, type AppcmsService, type AppcmsSettings, type CopyPreview, type FieldErrors,
  type ServiceFields, type SettingValue, type SettingsVersion,
} from '../../common/appcms';
import { MAX_VERSION, type DeviceEntry, type ThemeColors } from '../../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../../common/messages';
import type { AppcmsRepository, NetworkRepository } from './ports';
import type { ServiceWrite, SettingsVersionRow, SiteRow as ServiceRow } from './rows';
import { parseFileUrl, siteFileUrl, type UploadStorage } from '../storage/upload-storage';
import { checkImage } from '../storage/image-check';
import { conflict, invalid, notFound } from './errors';
import { auditObject, recordRevision, type RevisionInput } from './revisions';
import { callerSite, requireEdit, requireRead, siteNetwork, type NetworkCaller } from './networks';

export interface AppcmsCaller extends NetworkCaller {
  username: string;
}

export interface AppcmsDeps {
  networks: NetworkRepository;
  store: AppcmsRepository;
  storage: UploadStorage;
}

export const APPCMS_AUDIT = {
  brand: 'appcms.brand.save',
  settings: 'appcms.settings.save',
  restore: 'appcms.settings.restore',
  devices: 'appcms.devices.save',
  service: 'appcms.service.save',
  rotate: 'appcms.signingKey.rotate',
  upload: 'appcms.upload',
} as const;

export interface RestoreOptions {
  /** Called inside the restore's transaction after the settings are written; a throw rolls it all back. Tests use it. */
  afterWrite?: () => void | Promise<void>;
}

type Body = Record<string, unknown>;

function bodyOf(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('body', OWN_MESSAGES.badRequest);
  return value as Body;
}

function versionOf(body: Body, key = 'version'): number {
  const version = body[key];
  // Issue 25: a PostgreSQL integer column; above MAX_VERSION (common/contract.ts) a 400, never a 500.
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0 || version > MAX_VERSION) throw invalid(key, OWN_MESSAGES.badRequest);
  return version;
}

function refuseFields(errors: FieldErrors): void {
  const keys = Object.keys(errors);
  if (keys.length > 0) throw invalid(keys[0] ?? 'body', errors[keys[0] ?? ''] ?? APPCMS_MESSAGES.invalidForm, errors);
}

const staleVersion = () => conflict(APPCMS_MESSAGES.conflict);

/**
 * Runs a write, then drops the site's cached service and networks (server/db/service-cache.ts)
 * once its transaction is over, committed or not, so the next serviceGet / per-network read sees it.
 */
async function invalidatingAfter<T>(deps: AppcmsDeps, siteId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    deps.networks.cache.invalidateSite(siteId);
  }
}

/** The revision fields of a network's brand, settings or devices: the object is the network's, named by the network. */
export function networkObject(kind: 'brand' | 'settings' | 'devices' | 'network', network: { id: string; name: string }): Pick<RevisionInput, 'kind' | 'objectId' | 'objectName' | 'networkId'> {
  return { kind, objectId: network.id, objectName: network.name, networkId: network.id };
}

async function target(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown) {
  const siteRow = await callerSite(deps.networks, caller, site);
  const networkRow = await siteNetwork(deps.networks, siteRow.id, network);
  return { siteRow, networkRow };
}

/* ------------------------------- Brand ------------------------------- */

function themeOf(value: unknown): ThemeColors {
  const t = value as Record<string, string>;
  return { primaryColor: t.primaryColor!, secondaryColor: t.secondaryColor!, backgroundColor: t.backgroundColor!, textColor: t.textColor!, fontFamily: t.fontFamily!.trim() };
}

export async function getBrand(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown): Promise<AppcmsBrand> {
  requireRead(caller);
  const { networkRow } = await target(deps, caller, site, network);
  const row = await deps.networks.brand(networkRow.id);
  if (!row) throw notFound(MESSAGES.failedToGet('brand', networkRow.name));
  return { network: networkRow.identifier, logoUrl: row.logoUrl, iconUrl: row.iconUrl, theme: row.theme, themeOtt: row.themeOtt, themeApps: row.themeApps, version: row.version };
}

export async function saveBrand(deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, network: unknown, input: unknown): Promise<AppcmsBrand> {
  requireEdit(caller);
  const body = bodyOf(input);
  const version = versionOf(body);
  refuseFields(validateBrand(body));
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  const before = await deps.networks.brand(networkRow.id);
  if (!before) throw notFound(MESSAGES.failedToGet('brand', networkRow.name));
  const values = {
    logoUrl: String(body.logoUrl).trim(), iconUrl: String(body.iconUrl).trim(),
    theme: themeOf(body.theme), themeOtt: themeOf(body.themeOtt), themeApps: themeOf(body.themeApps),
  };
  await refuseForeignFiles(deps, siteRow.id, { logoUrl: [values.logoUrl, before.logoUrl], iconUrl: [values.iconUrl, before.iconUrl] });
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const row = await tx.saveBrand(networkRow.id, version, values, new Date());
    if (!row) throw staleVersion();
    const object = networkObject('brand', networkRow);
    await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: row.version, before: flattenBrand(before), after: flattenBrand(values) });
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.brand, siteId: siteRow.id, networkIdentifier: networkRow.identifier, ...auditObject(object),
      detail: { version: row.version, changed: diffValues(flattenBrand(before), flattenBrand(values)).map((d) => d.field) },
    });
    return { network: networkRow.identifier, ...values, version: row.version };
  }));
}

/* ------------------------------- Settings ------------------------------- */

export async function getSettings(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown): Promise<AppcmsSettings> {
  requireRead(caller);
  const { networkRow } = await target(deps, caller, site, network);
  const row = await deps.networks.settings(networkRow.id);
  if (!row) throw notFound(MESSAGES.failedToGet('settings', networkRow.name));
  return { network: networkRow.identifier, values: row.values, version: row.version };
}

function settingsInput(value: unknown): Record<string, SettingValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('values', OWN_MESSAGES.badRequest);
  const values = value as Record<string, unknown>;
  const unknownKey = Object.keys(values).find((key) => !SETTINGS_FIELDS.some((f) => f.key === key));
  if (unknownKey !== undefined) throw invalid(`values.${unknownKey}`, OWN_MESSAGES.badRequest);
  refuseFields(validateSettings(values));
  return values as Record<string, SettingValue>;
}

function toVersion(row: SettingsVersionRow): SettingsVersion {
  return {
    version: row.version, createdBy: row.createdBy, createdAt: row.createdAt.toISOString(), changed: row.changed,
    restoredFrom: row.restoredFrom, values: row.values,
  };
}

type SettingsRow = NonNullable<Awaited<ReturnType<AppcmsRepository['settings']>>>;
type AppcmsTx = Parameters<Parameters<AppcmsRepository['transaction']>[0]>[0];

/** The settings as first stored (seeded or copied) become version N the first time they change. */
async function keepBaseline(tx: AppcmsTx, networkId: string, row: SettingsRow): Promise<void> {
  await tx.keepSettingsVersion({ networkId, version: row.version, values: row.values, createdBy: null, createdAt: row.updatedAt, changed: [], restoredFrom: null });
}

const changedKeys = (from: Record<string, unknown>, to: Record<string, unknown>) => diffValues(from, to).map((d) => d.field);

export async function saveSettings(deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, network: unknown, input: unknown): Promise<AppcmsSettings> {
  requireEdit(caller);
  const body = bodyOf(input);
  const version = versionOf(body);
  const changes = settingsInput(body.values);
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const row = await readSettings(tx, networkRow.id, networkRow.name);
    if (row.version !== version) throw staleVersion();
    const values = { ...row.values, ...changes };
    await keepBaseline(tx, networkRow.id, row);
    const saved = await tx.saveSettings(networkRow.id, version, values, new Date());
    if (!saved) throw staleVersion();
    const changed = changedKeys(row.values, values);
    await tx.appendSettingsVersion({ networkId: networkRow.id, version: saved.version, values, createdBy: caller.username, changed, restoredFrom: null });
    const object = networkObject('settings', networkRow);
    await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: saved.version, before: row.values, after: values, snapshot: true });
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.settings, siteId: siteRow.id, networkIdentifier: networkRow.identifier, ...auditObject(object),
      detail: { version: saved.version, changed },
    });
    return { network: networkRow.identifier, values, version: saved.version };
  }));
}

async function readSettings(store: Pick<AppcmsTx, 'settings'>, networkId: string, name: string): Promise<SettingsRow> {
  const row = await store.settings(networkId);
  if (!row) throw notFound(MESSAGES.failedToGet('settings', name));
  return row;
}

export async function listSettingsVersions(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown): Promise<{ network: string; current: number; versions: SettingsVersion[] }> {
  requireRead(caller);
  const { networkRow } = await target(deps, caller, site, network);
  const row = await readSettings(deps.store, networkRow.id, networkRow.name);
  const rows = await deps.store.settingsVersions(networkRow.id);
  const versions = rows.map(toVersion);
  // Never saved here yet: the stored settings are the one version there is.
  if (!versions.some((v) => v.version === row.version)) {
    versions.push({ version: row.version, createdBy: null, createdAt: row.updatedAt.toISOString(), changed: [], restoredFrom: null, values: row.values });
  }
  return { network: networkRow.identifier, current: row.version, versions: versions.reverse() };
}

export async function restoreSettings(
  deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, network: unknown, input: unknown, options: RestoreOptions = {},
): Promise<AppcmsSettings> {
  requireEdit(caller);
  const body = bodyOf(input);
  const version = versionOf(body);
  const restore = versionOf(body, 'restore');
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const row = await readSettings(tx, networkRow.id, networkRow.name);
    if (row.version !== version) throw staleVersion();
    await keepBaseline(tx, networkRow.id, row);
    const from = await tx.settingsVersion(networkRow.id, restore);
    if (!from) throw notFound(OWN_MESSAGES.notFound);
    const saved = await tx.saveSettings(networkRow.id, version, from.values, new Date());
    if (!saved) throw staleVersion();
    const changed = changedKeys(row.values, from.values);
    await tx.appendSettingsVersion({ networkId: networkRow.id, version: saved.version, values: from.values, createdBy: caller.username, changed, restoredFrom: restore });
    const object = networkObject('settings', networkRow);
    await recordRevision(tx, {
      ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: saved.version, before: row.values, after: from.values, snapshot: true,
      reason: `Restore of settings version ${restore}`,
    });
    await options.afterWrite?.();
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.restore, siteId: siteRow.id, networkIdentifier: networkRow.identifier, ...auditObject(object),
      detail: { version: saved.version, restoredFrom: restore, changed },
    });
    return { network: networkRow.identifier, values: from.values, version: saved.version };
  }));
}

/* ------------------------------- Devices ------------------------------- */

export async function getDevices(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown): Promise<AppcmsDevices> {
  requireRead(caller);
  const { networkRow } = await target(deps, caller, site, network);
  const row = await deps.networks.devices(networkRow.id);
  if (!row) throw notFound(MESSAGES.failedToGet('device', networkRow.name));
  return { network: networkRow.identifier, devices: row.devices, version: row.version };
}

/** A device list as flat fields (`ios.enabled`, `ios.minAppVersion`, `ios.name`), for revisions. */
export function flattenDevices(devices: readonly DeviceEntry[]): Record<string, unknown> {
  return Object.fromEntries(devices.flatMap((d) => [[`${d.platform}.name`, d.name], [`${d.platform}.enabled`, d.enabled], [`${d.platform}.minAppVersion`, d.minAppVersion]]));
}

/** The device list of flat fields, in the order of `order` (the current list), platforms of `flat` not in it after. */
export function unflattenDevices(flat: Record<string, unknown>, order: readonly DeviceEntry[]): DeviceEntry[] {
  const platforms = [...new Set([...order.map((d) => d.platform), ...Object.keys(flat).map((k) => k.slice(0, k.lastIndexOf('.')))])];
  return platforms.filter((p) => flat[`${p}.name`] !== undefined && flat[`${p}.name`] !== null).map((platform) => ({
    platform, name: String(flat[`${platform}.name`]), enabled: flat[`${platform}.enabled`] === true, minAppVersion: String(flat[`${platform}.minAppVersion`] ?? ''),
  }));
}

export async function saveDevices(deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, network: unknown, input: unknown): Promise<AppcmsDevices> {
  requireEdit(caller);
  const body = bodyOf(input);
  const version = versionOf(body);
  refuseFields(validateDevices(body.devices));
  const devices: DeviceEntry[] = (body.devices as Record<string, unknown>[]).map((d) => ({
    platform: String(d.platform),
    name: typeof d.name === 'string' && d.name.trim() !== '' ? d.name.trim() : DEVICE_PLATFORMS.find((p) => p.platform === d.platform)?.name ?? String(d.platform),
    enabled: d.enabled === true,
    minAppVersion: String(d.minAppVersion),
  }));
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const before = await tx.devices(networkRow.id);
    const row = await tx.saveDevices(networkRow.id, version, devices, new Date());
    if (!row) throw staleVersion();
    const object = networkObject('devices', networkRow);
    await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: row.version, before: flattenDevices(before?.devices ?? []), after: flattenDevices(devices) });
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.devices, siteId: siteRow.id, networkIdentifier: networkRow.identifier, ...auditObject(object),
      detail: { version: row.version, enabled: devices.filter((d) => d.enabled).map((d) => d.platform) },
    });
    return { network: networkRow.identifier, devices, version: row.version };
  }));
}

/* ------------------------------- Service, template, signing key ------------------------------- */

export function maskKey(key: string): string {
  return `${'•'.repeat(12)}${key.slice(-4)}`;
}

function toService(row: ServiceRow): AppcmsService {
  return {
    siteInternalName: row.siteInternalName, serviceName: row.serviceName, serviceType: row.serviceType, serviceTypes: row.serviceTypes,
    templateName: row.templateName, languageCode: row.languageCode, forceLogin: row.forceLogin,
    isMonetizationModelEnabled: row.isMonetizationModelEnabled, domainName: row.domainName, version: row.serviceVersion,
    signingKeyMasked: maskKey(row.signingKey), signingKeyRotatedAt: row.signingKeyRotatedAt?.toISOString() ?? null, templates: TEMPLATES,
  };
}

const SERVICE_KEYS: readonly (keyof ServiceFields)[] = [
  'serviceName', 'serviceType', 'serviceTypes', 'templateName', 'languageCode', 'forceLogin', 'isMonetizationModelEnabled', 'domainName',
];

function serviceObject(site: { id: string; serviceName: string }): Pick<RevisionInput, 'kind' | 'objectId' | 'objectName'> {
  return { kind: 'service', objectId: site.id, objectName: site.serviceName };
}

export async function getAppcmsService(deps: AppcmsDeps, caller: NetworkCaller, site: unknown): Promise<AppcmsService> {
  requireRead(caller);
  const siteRow = await callerSite(deps.networks, caller, site);
  const row = await deps.store.service(siteRow.id);
  if (!row) throw notFound(MESSAGES.siteNotFound);
  return toService(row);
}

export async function saveAppcmsService(deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, input: unknown): Promise<AppcmsService> {
  requireEdit(caller);
  const body = bodyOf(input);
  const version = versionOf(body);
  const unknownKey = Object.keys(body).find((key) => key !== 'version' && !(SERVICE_KEYS as readonly string[]).includes(key));
  if (unknownKey !== undefined) throw invalid(unknownKey, OWN_MESSAGES.badRequest);
  const siteRow = await callerSite(deps.networks, caller, site);
  const fields = Object.fromEntries(SERVICE_KEYS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]])) as ServiceWrite;
  // The main type is checked against the list it belongs to, whichever of the two changes.
  refuseFields(validateService({ serviceType: fields.serviceType ?? siteRow.serviceType, serviceTypes: fields.serviceTypes ?? siteRow.serviceTypes, ...fields }));
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const row = await tx.saveService(siteRow.id, version, fields);
    if (!row) throw staleVersion();
    const object = serviceObject(siteRow);
    await recordRevision(tx, { ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: row.serviceVersion, before: siteRow, after: row, fields: SERVICE_KEYS });
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.service, siteId: siteRow.id, networkIdentifier: null, ...auditObject(object),
      detail: { version: row.serviceVersion, changed: changedKeys(siteRow as unknown as Record<string, unknown>, { ...siteRow, ...fields }) },
    });
    return toService(row);
  }));
}

export async function rotateSigningKey(deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, input: unknown): Promise<AppcmsService> {
  requireEdit(caller);
  const body = bodyOf(input);
  if (body.confirm !== true) throw invalid('confirm', OWN_MESSAGES.badRequest);
  const siteRow = await callerSite(deps.networks, caller, site);
  return invalidatingAfter(deps, siteRow.id, () => deps.store.transaction(async (tx) => {
    const row = await tx.rotateSigningKey(siteRow.id, randomBytes(32).toString('hex'), new Date());
    if (!row) throw notFound(MESSAGES.siteNotFound);
    const object = serviceObject(siteRow);
    // Only the masked keys: a revision never holds a secret (and a key is never restored).
    await recordRevision(tx, {
      ...object, siteId: siteRow.id, actorUserId: caller.userId, objectVersion: row.serviceVersion,
      before: { signingKey: maskKey(siteRow.signingKey) }, after: { signingKey: maskKey(row.signingKey) },
    });
    await tx.audit({
      actorUserId: caller.userId, action: APPCMS_AUDIT.rotate, siteId: siteRow.id, networkIdentifier: null, ...auditObject(object),
      detail: { previous: maskKey(siteRow.signingKey), current: maskKey(row.signingKey) },
    });
    return toService(row);
  }));
}

/* ------------------------------- Copy preview ------------------------------- */

/** What copying from the default would change on this network: this network's values → the default's. */
export async function copyPreview(deps: AppcmsDeps, caller: NetworkCaller, site: unknown, network: unknown): Promise<CopyPreview> {
  requireRead(caller);
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  const source = await deps.networks.defaultNetwork(siteRow.id);
  if (!source) throw notFound(OWN_MESSAGES.notFound);
  const [fromBrand, toBrand, fromSettings, toSettings] = await Promise.all([
    deps.networks.brand(networkRow.id), deps.networks.brand(source.id), deps.networks.settings(networkRow.id), deps.networks.settings(source.id),
  ]);
  return {
    brand: fromBrand && toBrand ? diffValues(flattenBrand(fromBrand), flattenBrand(toBrand), BRAND_LABELS) : [],
    settings: fromSettings && toSettings ? diffValues(fromSettings.values, toSettings.values, SETTINGS_LABELS) : [],
  };
}

/* ------------------------------- Uploads ------------------------------- */

/**
 * Issue 37: a brand image under the files path must be a file of this site (its own address, or its
 * own legacy file at the old one); another site's file is refused exactly like one never uploaded,
 * 400 naming the field. A value the brand already holds is kept as it is; links elsewhere are not
 * files of this server and are not checked here.
 */
async function refuseForeignFiles(deps: AppcmsDeps, siteId: string, fields: Record<string, [next: string, before: string]>): Promise<void> {
  for (const [field, [next, before]] of Object.entries(fields)) {
    if (next === before) continue;
    const ref = parseFileUrl(next);
    if (ref === undefined) continue;
    if (ref === 'malformed' || !(await deps.store.mayReferenceFile(siteId, ref))) throw invalid(field, APPCMS_MESSAGES.fileNotOfSite, { [field]: APPCMS_MESSAGES.fileNotOfSite });
  }
}

export async function uploadImage(
  deps: AppcmsDeps, caller: AppcmsCaller, site: unknown, network: unknown, slot: string, bytes: Buffer,
): Promise<{ url: string; contentType: string; width: number; height: number }> {
  requireEdit(caller);
  if (!(UPLOAD_SLOTS as readonly string[]).includes(slot)) throw invalid('slot', APPCMS_MESSAGES.uploadSlot);
  const { siteRow, networkRow } = await target(deps, caller, site, network);
  // What is stored is what the check produced (re-encoded pixels, the sanitised SVG), never the upload itself.
  const checked = await checkImage(bytes);
  if (!checked.ok) throw invalid('file', checked.message);
  const key = `${createHash('sha256').update(checked.bytes).digest('hex')}.${checked.ext}`;
  await deps.storage.put(key, checked.bytes);
  await deps.store.recordFile(siteRow.id, key);
  await deps.store.audit({
    actorUserId: caller.userId, action: APPCMS_AUDIT.upload, siteId: siteRow.id, networkIdentifier: networkRow.identifier,
    detail: { slot, key, bytes: checked.bytes.length, contentType: checked.contentType, width: checked.width, height: checked.height },
  });
  return { url: siteFileUrl(siteRow.id, key), contentType: checked.contentType, width: checked.width, height: checked.height };
}
