/**
 * The real I/O of the AppCMS editors (common/appcms.ts APPCMS_PATHS): each editor kind's `load` and
 * `save` for the editor machine (drafts are flat values: `theme.primaryColor`, `web.enabled`,
 * numbers as the text typed), the versions machine's `load` and `restore`, and the page actions
 * (signing key rotation, uploads). A refused write becomes the EditorFailure the machine reads:
 * 409 conflict, 404 not found, 400 invalid with field messages.
 */
import { fromPromise } from 'xstate';
import {
  APPCMS_MESSAGES, APPCMS_PATHS, DEVICE_PLATFORMS, SETTINGS_FIELDS, flattenBrand,
  type AppcmsBrand, type AppcmsDevices, type AppcmsService, type AppcmsSettings, type CopyPreview, type SettingValue, type SettingsVersion,
} from '../../common/appcms';
import type { ThemeColors } from '../../common/contract';
import { EditorFailure, type EditorRecord, type EditorSaveInput, type EditorValues } from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import type { RestoreInput, VersionList, VersionsLoadInput } from '../../machines/versions.machine';
import { apiRequest, authHeaders } from '../api/client';
import { readNetworkCredentials } from './network-credentials';

export type AppcmsEditorKind = 'brand' | 'settings' | 'devices' | 'service' | 'template';

function headers(): Record<string, string> {
  const credentials = readNetworkCredentials();
  return credentials ? authHeaders(credentials) : {};
}

function failureOf(body: Record<string, unknown>, status: number): Error {
  const message = typeof body.message === 'string' ? body.message : APPCMS_MESSAGES.invalidForm;
  if (status === 409) return new EditorFailure('conflict', message);
  if (status === 404) return new EditorFailure('not-found', message);
  const fields = typeof body.fields === 'object' && body.fields !== null ? body.fields as Record<string, string> : {};
  if (status === 400) return new EditorFailure('invalid', message, fields);
  return new Error(message);
}

async function call<T>(url: string, method: 'GET' | 'PUT' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const answer = await apiRequest<Record<string, unknown>>(url, { method, body, headers: headers() });
  if (answer.status >= 400) throw failureOf(answer, answer.status);
  return answer as unknown as T;
}

const seg = encodeURIComponent;
const text = (values: EditorValues, field: string) => {
  const value = values[field];
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
};

/* ------------------------------- Brand ------------------------------- */

export function brandOfDraft(draft: EditorValues): Omit<AppcmsBrand, 'network' | 'version'> {
  const theme = (key: string): ThemeColors => ({
    primaryColor: text(draft, `${key}.primaryColor`), secondaryColor: text(draft, `${key}.secondaryColor`),
    backgroundColor: text(draft, `${key}.backgroundColor`), textColor: text(draft, `${key}.textColor`), fontFamily: text(draft, `${key}.fontFamily`),
  });
  return { logoUrl: text(draft, 'logoUrl'), iconUrl: text(draft, 'iconUrl'), theme: theme('theme'), themeOtt: theme('themeOtt'), themeApps: theme('themeApps') };
}

const brandRecord = (b: AppcmsBrand): EditorRecord => ({ values: flattenBrand(b), version: b.version, data: null });

/* ------------------------------- Settings ------------------------------- */

/** Stored settings as the form's draft: the typed fields only, numbers as text. */
export function settingsValues(values: Record<string, SettingValue>): EditorValues {
  return Object.fromEntries(SETTINGS_FIELDS.map((f) => {
    const value = values[f.key];
    if (f.type === 'boolean') return [f.key, value === true];
    return [f.key, value === undefined ? '' : String(value)];
  }));
}

export function settingsOfDraft(changes: EditorValues): Record<string, SettingValue> {
  return Object.fromEntries(Object.entries(changes).map(([key, value]) => {
    const field = SETTINGS_FIELDS.find((f) => f.key === key);
    if (field?.type === 'number' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) return [key, Number(value)];
    return [key, value as SettingValue];
  }));
}

const settingsRecord = (s: AppcmsSettings): EditorRecord => ({ values: settingsValues(s.values), version: s.version, data: null });

/* ------------------------------- Devices ------------------------------- */

export function devicesValues(devices: AppcmsDevices['devices']): EditorValues {
  const values: Record<string, string | boolean> = {};
  for (const p of DEVICE_PLATFORMS) {
    const d = devices.find((entry) => entry.platform === p.platform);
    values[`${p.platform}.enabled`] = d?.enabled ?? false;
    values[`${p.platform}.minAppVersion`] = d?.minAppVersion ?? '';
  }
  return values;
}

/** Platforms that are on, or have a version, are kept; the rest are left out. */
export function devicesOfDraft(draft: EditorValues) {
  return DEVICE_PLATFORMS
    .filter((p) => draft[`${p.platform}.enabled`] === true || text(draft, `${p.platform}.minAppVersion`).trim() !== '')
    .map((p) => ({ platform: p.platform, name: p.name, enabled: draft[`${p.platform}.enabled`] === true, minAppVersion: text(draft, `${p.platform}.minAppVersion`).trim() }));
}

const devicesRecord = (d: AppcmsDevices): EditorRecord => ({ values: devicesValues(d.devices), version: d.version, data: null });

/* ------------------------------- Service, template ------------------------------- */

const serviceRecord = (s: AppcmsService): EditorRecord => ({
  values: {
    serviceName: s.serviceName, serviceType: s.serviceType, serviceTypes: s.serviceTypes, languageCode: s.languageCode,
    forceLogin: s.forceLogin, isMonetizationModelEnabled: s.isMonetizationModelEnabled, domainName: s.domainName,
  },
  version: s.version,
  data: { signingKeyMasked: s.signingKeyMasked, signingKeyRotatedAt: s.signingKeyRotatedAt },
});

const templateRecord = (s: AppcmsService): EditorRecord => ({ values: { templateName: s.templateName }, version: s.version, data: { templates: s.templates } });

/* ------------------------------- Editor actors ------------------------------- */

/** `load` and `save` of one editor kind for `site` (the editor's id is the network, or the site for service/template). */
export function appcmsEditorActors(kind: AppcmsEditorKind, site: string) {
  const networkUrl = (base: string, network: string) => `${base}/${seg(site)}/${seg(network)}`;
  const serviceUrl = `${APPCMS_PATHS.service}/${seg(site)}`;
  const load = async (id: string): Promise<EditorRecord> => {
    switch (kind) {
      case 'brand': return brandRecord(await call<AppcmsBrand>(networkUrl(APPCMS_PATHS.brand, id)));
      case 'settings': return settingsRecord(await call<AppcmsSettings>(networkUrl(APPCMS_PATHS.settings, id)));
      case 'devices': return devicesRecord(await call<AppcmsDevices>(networkUrl(APPCMS_PATHS.devices, id)));
      case 'service': return serviceRecord(await call<AppcmsService>(serviceUrl));
      default: return templateRecord(await call<AppcmsService>(serviceUrl));
    }
  };
  const save = async ({ id, version, changes, draft }: EditorSaveInput): Promise<EditorRecord> => {
    switch (kind) {
      case 'brand': return brandRecord(await call<AppcmsBrand>(networkUrl(APPCMS_PATHS.brand, id), 'PUT', { version, ...brandOfDraft(draft) }));
      case 'settings': return settingsRecord(await call<AppcmsSettings>(networkUrl(APPCMS_PATHS.settings, id), 'PUT', { version, values: settingsOfDraft(changes) }));
      case 'devices': return devicesRecord(await call<AppcmsDevices>(networkUrl(APPCMS_PATHS.devices, id), 'PUT', { version, devices: devicesOfDraft(draft) }));
      case 'service': return serviceRecord(await call<AppcmsService>(serviceUrl, 'PUT', { version, ...changes }));
      default: return templateRecord(await call<AppcmsService>(serviceUrl, 'PUT', { version, templateName: draft.templateName }));
    }
  };
  return {
    load: fromPromise<EditorRecord, { id: string }>(({ input }) => load(input.id)),
    save: fromPromise<EditorRecord, EditorSaveInput>(({ input }) => save(input)),
  };
}

/* ------------------------------- Versions ------------------------------- */

export function settingsVersionsActors(site: string, network: string) {
  const url = (base: string) => `${base}/${seg(site)}/${seg(network)}`;
  return {
    load: fromPromise<VersionList, VersionsLoadInput>(async () => {
      const body = await call<{ current: number; versions: SettingsVersion[] }>(url(APPCMS_PATHS.settingsVersions));
      return { current: body.current, versions: body.versions };
    }),
    restore: fromPromise<unknown, RestoreInput>(({ input }) => call(url(APPCMS_PATHS.settingsRestore), 'POST', { version: input.current, restore: input.restore })),
  };
}

/* ------------------------------- Page actions ------------------------------- */

export const APPCMS_ACTIONS = { rotate: 'rotate', upload: 'upload' } as const;

/** Files chosen for upload, held until the upload action runs (page-action arguments are plain values). */
const chosenFiles = new Map<string, File>();
let fileCount = 0;

export function holdFile(file: File): string {
  fileCount += 1;
  const token = `file-${fileCount}`;
  chosenFiles.set(token, file);
  return token;
}

export async function uploadFile(site: string, network: string, slot: string, file: Blob): Promise<string> {
  const response = await fetch(`${APPCMS_PATHS.uploads}/${seg(site)}/${seg(network)}/${seg(slot)}`, {
    method: 'POST', body: file, credentials: 'same-origin',
    headers: { ...headers(), Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' },
  });
  const body = await response.json().catch(() => ({})) as { url?: string; message?: string };
  if (!response.ok || typeof body.url !== 'string') throw new Error(body.message ?? APPCMS_MESSAGES.uploadType);
  return body.url;
}

/**
 * The brand page's actions: `upload` (args slot, token) stores the file and puts its URL in the
 * editor's draft through `onUploaded`; answers the message to show.
 */
export function brandActionActor(site: string, network: string, onUploaded: (slot: string, url: string) => void) {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
    const token = String(input.args.token);
    const file = chosenFiles.get(token);
    chosenFiles.delete(token);
    if (!file) throw new Error(APPCMS_MESSAGES.uploadEmpty);
    const slot = String(input.args.slot);
    onUploaded(slot, await uploadFile(site, network, slot, file));
    return `${slot === 'logo' ? 'Logo' : 'Icon'} uploaded. Save to use it.`;
  });
}

/** The service page's action: rotate the signing key (asked first); `onRotated` reloads the editor. */
export function rotateKeyActor(site: string, onRotated: () => void) {
  return fromPromise<PageActionAnswer, PageActionRequest>(async () => {
    await call(`${APPCMS_PATHS.signingKey}/${seg(site)}`, 'POST', { confirm: true });
    onRotated();
    return APPCMS_MESSAGES.rotated;
  });
}

export async function fetchCopyPreview(site: string, network: string): Promise<CopyPreview> {
  return call<CopyPreview>(`${APPCMS_PATHS.copyPreview}/${seg(site)}/${seg(network)}`);
}


/**
 * The list machine's `fetchPage` for "what Copy from default would change" on one network: the
 * brand or settings fields whose value differs from the default network's, one row per field.
 */
export function copyPreviewFetch(site: string, network: string, part: 'brand' | 'settings') {
  return fromPromise<ListPage, ListQuery>(async () => {
    const preview = await fetchCopyPreview(site, network);
    const items = preview[part].map((entry) => ({ ...entry, id: entry.field }));
    return { items, total: items.length };
  });
}

/* ------------------------------- Overview ------------------------------- */

/** One card of the AppCMS overview: the section's current data in short, or why it could not be read. */
export type AppcmsOverviewRow = { id: string; error?: string } & (
  | { id: 'template'; templateName?: string }
  | { id: 'brand'; logoUrl?: string; colours?: { label: string; value: string }[] }
  | { id: 'settings'; version?: number; createdBy?: string | null; createdAt?: string }
  | { id: 'devices'; enabled?: string[]; total?: number }
  | { id: 'service'; serviceName?: string; serviceType?: string; domainName?: string }
);

const errorText = (reason: unknown) => (reason instanceof Error ? reason.message : APPCMS_MESSAGES.invalidForm);

/**
 * The list machine's `fetchPage` of the AppCMS overview (/appcms): the site's template and service and,
 * when a network is chosen, its brand, last settings version and devices, read with the editors' own
 * calls. One card per section, each read on its own: a section that fails shows its error, not the page's.
 */
export function appcmsOverviewFetch(site: string, network: string) {
  return fromPromise<ListPage, ListQuery>(async () => {
    const networkUrl = (base: string) => `${base}/${seg(site)}/${seg(network)}`;
    // Template and Service are both the site's service record: read once.
    const service = call<AppcmsService>(`${APPCMS_PATHS.service}/${seg(site)}`);
    const reads: [AppcmsOverviewRow['id'], () => Promise<AppcmsOverviewRow>][] = [
      ['template', async () => ({ id: 'template', templateName: (await service).templateName })],
    ];
    if (network) {
      reads.push(
        ['brand', async () => {
          const brand = await call<AppcmsBrand>(networkUrl(APPCMS_PATHS.brand));
          const web = brand.theme;
          return { id: 'brand', logoUrl: brand.logoUrl, colours: [
            { label: 'Primary', value: web.primaryColor }, { label: 'Secondary', value: web.secondaryColor },
            { label: 'Background', value: web.backgroundColor }, { label: 'Text', value: web.textColor },
          ] };
        }],
        ['settings', async () => {
          const list = await call<{ current: number; versions: SettingsVersion[] }>(networkUrl(APPCMS_PATHS.settingsVersions));
          const latest = list.versions.find((v) => v.version === list.current) ?? list.versions[0];
          return { id: 'settings', version: list.current, createdBy: latest?.createdBy ?? null, ...(latest ? { createdAt: latest.createdAt } : {}) };
        }],
        ['devices', async () => {
          const { devices } = await call<AppcmsDevices>(networkUrl(APPCMS_PATHS.devices));
          return { id: 'devices', enabled: devices.filter((d) => d.enabled).map((d) => d.name), total: DEVICE_PLATFORMS.length };
        }],
      );
    }
    reads.push(['service', async () => {
      const { serviceName, serviceType, domainName } = await service;
      return { id: 'service', serviceName, serviceType, domainName };
    }]);
    const settled = await Promise.allSettled(reads.map(([, read]) => read()));
    const items = settled.map((result, i): AppcmsOverviewRow => (result.status === 'fulfilled'
      ? result.value
      : { id: reads[i]![0], error: errorText(result.reason) } as AppcmsOverviewRow));
    return { items, total: items.length };
  });
}
