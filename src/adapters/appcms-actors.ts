/**
 * The real I/O of the AppCMS editors (common/appcms.ts APPCMS_PATHS): each editor kind's `load` and
 * `save` for the editor machine (drafts are flat values: `theme.primaryColor`, `web.enabled`,
 * numbers as the text typed), the History's `load` and `restore` (src/adapters/history-io.ts), and the page actions
 * (signing key rotation, uploads). A refused write becomes the EditorFailure the machine reads:
 * 409 conflict, 404 not found, 400 invalid with field messages.
 */
import { assign, fromPromise, type AnyActorLogic } from 'xstate';
import {
  APPCMS_MESSAGES, APPCMS_PATHS, DEVICE_PLATFORMS, SETTINGS_FIELDS, flattenBrand, validateDevices, type FieldErrors,
  APPCMS_ACTIONS, type AppcmsOverviewRow, type AppcmsBrand, type AppcmsDevices, type AppcmsService, type AppcmsSettings, type CopyPreview, type SettingValue,
} from '../../common/appcms';
import { ROUTES } from '../../common/constants';
import type { ThemeColors } from '../../common/contract';
import { REVISION_PATHS, type RevisionHistoryResponse } from '../../common/revisions';
import {
  EditorFailure, failureFields, type EditorContext, type EditorEvent, type EditorLoadInput, type EditorRecord, type EditorSaveInput, type EditorValue, type EditorValues,
} from '../../machines/editor.machine';
import { editorPageMachine } from '../../machines/editor-page.machine';
import { editorDrafts } from './form-drafts';
import { pageHistoryMachine } from '../../machines/history.machine';
import { listMachine, type ListPage, type ListQuery } from '../../machines/list.machine';
import { pageActionLogic, pageEditorMachine } from '../../machines/list-page.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { apiRequest, authHeaders } from '../api/client';
import { historyActors } from './history-io';
import { navigateTo } from './navigation';
import { readNetworkCredentials } from './network-credentials';

export type AppcmsEditorKind = 'brand' | 'settings' | 'devices' | 'service' | 'template';

function headers(): Record<string, string> {
  const credentials = readNetworkCredentials();
  return credentials ? authHeaders(credentials) : {};
}

function failureOf(body: unknown, status: number): Error {
  const said = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
  const message = typeof said === 'string' ? said : APPCMS_MESSAGES.invalidForm;
  if (status === 409) return new EditorFailure('conflict', message);
  if (status === 404) return new EditorFailure('not-found', message);
  if (status === 400) return new EditorFailure('invalid', message, failureFields(body));
  return new Error(message);
}

async function call<T>(url: string, method: 'GET' | 'PUT' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const answer = await apiRequest<T>(url, { method, body, headers: headers() });
  if (answer.status >= 400) throw failureOf(answer, answer.status);
  return answer;
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

/** A draft value as a stored setting: the form holds text and switches; a list is sent as its text. */
function settingValueOf(value: EditorValue): SettingValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : String(value ?? '');
}

export function settingsOfDraft(changes: EditorValues): Record<string, SettingValue> {
  return Object.fromEntries(Object.entries(changes).map(([key, value]) => {
    const field = SETTINGS_FIELDS.find((f) => f.key === key);
    if (field?.type === 'number' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) return [key, Number(value)];
    return [key, settingValueOf(value)];
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

/**
 * The Devices editor's field rules, checked before Save (issue 30): a platform that is on needs a
 * minimum app version; a version given must look like 1.2.3.
 */
export function devicesDraftErrors(draft: EditorValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const p of DEVICE_PLATFORMS) {
    const version = text(draft, `${p.platform}.minAppVersion`).trim();
    if (version === '') {
      if (draft[`${p.platform}.enabled`] === true) errors[`${p.platform}.minAppVersion`] = APPCMS_MESSAGES.appVersionRequired;
    } else {
      const checked = validateDevices([{ platform: p.platform, enabled: true, minAppVersion: version }]);
      if (checked[`${p.platform}.minAppVersion`]) errors[`${p.platform}.minAppVersion`] = APPCMS_MESSAGES.appVersion;
    }
  }
  return errors;
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

/** `load` and `save` of one editor kind; the site is the editor's scope, its id the network (or the site for service/template). */
export function appcmsEditorActors(kind: AppcmsEditorKind) {
  const load = async (id: string, site: string): Promise<EditorRecord> => {
    const networkUrl = (base: string, network: string) => `${base}/${seg(site)}/${seg(network)}`;
    const serviceUrl = `${APPCMS_PATHS.service}/${seg(site)}`;
    switch (kind) {
      case 'brand': return brandRecord(await call<AppcmsBrand>(networkUrl(APPCMS_PATHS.brand, id)));
      case 'settings': return settingsRecord(await call<AppcmsSettings>(networkUrl(APPCMS_PATHS.settings, id)));
      case 'devices': return devicesRecord(await call<AppcmsDevices>(networkUrl(APPCMS_PATHS.devices, id)));
      case 'service': return serviceRecord(await call<AppcmsService>(serviceUrl));
      default: return templateRecord(await call<AppcmsService>(serviceUrl));
    }
  };
  const save = async ({ id, version, changes, draft }: EditorSaveInput, site: string): Promise<EditorRecord> => {
    const networkUrl = (base: string, network: string) => `${base}/${seg(site)}/${seg(network)}`;
    const serviceUrl = `${APPCMS_PATHS.service}/${seg(site)}`;
    switch (kind) {
      case 'brand': return brandRecord(await call<AppcmsBrand>(networkUrl(APPCMS_PATHS.brand, id), 'PUT', { version, ...brandOfDraft(draft) }));
      case 'settings': return settingsRecord(await call<AppcmsSettings>(networkUrl(APPCMS_PATHS.settings, id), 'PUT', { version, values: settingsOfDraft(changes) }));
      case 'devices': return devicesRecord(await call<AppcmsDevices>(networkUrl(APPCMS_PATHS.devices, id), 'PUT', { version, devices: devicesOfDraft(draft) }));
      case 'service': return serviceRecord(await call<AppcmsService>(serviceUrl, 'PUT', { version, ...changes }));
      default: return templateRecord(await call<AppcmsService>(serviceUrl, 'PUT', { version, templateName: draft.templateName }));
    }
  };
  return {
    load: fromPromise<EditorRecord, EditorLoadInput>(({ input }) => load(input.id, input.scope?.site ?? '')),
    save: fromPromise<EditorRecord, EditorSaveInput>(({ input }) => save(input, input.scope?.site ?? '')),
    drafts: `appcms.${kind}`,
  };
}

/* ------------------------------- Page actions ------------------------------- */

export { APPCMS_ACTIONS };

export async function uploadFile(site: string, network: string, slot: string, file: Blob): Promise<string> {
  const response = await fetch(`${APPCMS_PATHS.uploads}/${seg(site)}/${seg(network)}/${seg(slot)}`, {
    method: 'POST', body: file, credentials: 'same-origin',
    headers: { ...headers(), Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' },
  });
  const body: { url?: unknown; message?: string } = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.url !== 'string') throw new Error(body.message ?? APPCMS_MESSAGES.uploadType);
  return body.url;
}

/**
 * The brand page's action `upload` (args `slot`, `file`: the chosen file, `site`, `network`): stores
 * the file and answers its address for the draft (`logoUrl` or `iconUrl`).
 */
export function brandActionActor() {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
    const file = input.args.file;
    if (!(file instanceof Blob)) throw new Error(APPCMS_MESSAGES.uploadEmpty);
    const slot = String(input.args.slot);
    const url = await uploadFile(String(input.args.site), String(input.args.network), slot, file);
    return { message: `${slot === 'logo' ? 'Logo' : 'Icon'} uploaded. Save to use it.`, draft: { [slot === 'logo' ? 'logoUrl' : 'iconUrl']: url } };
  });
}

/** The service page's action: rotate the signing key of the site in args `site` (asked first); the editor reads the service again. */
export function rotateKeyActor() {
  return fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
    await call(`${APPCMS_PATHS.signingKey}/${seg(String(input.args.site))}`, 'POST', { confirm: true });
    return { message: APPCMS_MESSAGES.rotated, reread: true };
  });
}

export async function fetchCopyPreview(site: string, network: string): Promise<CopyPreview> {
  return call<CopyPreview>(`${APPCMS_PATHS.copyPreview}/${seg(site)}/${seg(network)}`);
}


/**
 * The list machine's `fetchPage` for "what Copy from default would change" on one network: the
 * brand or settings fields whose value differs from the default network's, one row per field.
 */
export function copyPreviewFetch(part: 'brand' | 'settings') {
  return fromPromise<ListPage, ListQuery>(async ({ input }) => {
    const preview = await fetchCopyPreview(input.filters.site ?? '', input.filters.network ?? '');
    const items = preview[part].map((entry) => ({ ...entry, id: entry.field }));
    return { items, total: items.length };
  });
}

/* ------------------------------- Overview ------------------------------- */

export type { AppcmsOverviewRow };

const errorText = (reason: unknown) => (reason instanceof Error ? reason.message : APPCMS_MESSAGES.invalidForm);

/**
 * The list machine's `fetchPage` of the AppCMS overview (/appcms): the site's template and service and,
 * when a network is chosen, its brand, last settings version and devices, read with the editors' own
 * calls. One card per section, each read on its own: a section that fails shows its error, not the page's.
 */
export function appcmsOverviewFetch() {
  return fromPromise<ListPage, ListQuery>(async ({ input }) => {
    const site = input.filters.site ?? '';
    const network = input.filters.network ?? '';
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
          // The last change as the Settings History numbers it (issue 38: one numbering, "#23").
          const history = await call<RevisionHistoryResponse>(`${REVISION_PATHS.history}/settings/${seg(network)}?page=1&pageSize=1`);
          const last = history.items[0];
          return last ? { id: 'settings', seq: last.seq, createdBy: last.actor?.username ?? null, createdAt: last.at } : { id: 'settings', seq: null };
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
      : { id: reads[i]![0], error: errorText(result.reason) }));
    return { items, total: items.length };
  });
}

/* ------------------------------- Pages ------------------------------- */

/** The I/O of one AppCMS editor page: the record's load and save, the page's action, its History, the comparison. */
export interface AppcmsPageIo {
  load: AnyActorLogic;
  save: AnyActorLogic;
  perform?: AnyActorLogic;
  comparison?: AnyActorLogic;
  /** The record's History (issue 28); the browser's REST calls when not given. */
  history?: { load: AnyActorLogic; restore: AnyActorLogic };
  /** Field rules checked before Save (the editor's checkDraft and breaksFieldRules). */
  fieldRules?: (draft: EditorValues) => FieldErrors;
  /**
   * Issue 38: the form name under which the typed changes are kept across a reload
   * (src/adapters/form-drafts.ts), per site, network (or site) and page; without it none are kept.
   */
  drafts?: string;
}

const noPageAction = () => fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
  throw new Error(`No page action "${input.name}" on this page`);
});
const noRows = () => fromPromise<ListPage, ListQuery>(async () => ({ items: [], total: 0 }));

/**
 * One AppCMS editor page's machine with its I/O; its Close goes to the AppCMS overview. View tests call
 * it with fake I/O (src/test-harness/appcms-pages.ts); the browser's is `appcmsPages` below.
 */
export function appcmsEditorPage(io: AppcmsPageIo, leave: () => void = () => navigateTo(ROUTES.appcms)) {
  const drafts = io.drafts ? editorDrafts(io.drafts, io.load) : null;
  const rules = io.fieldRules ? fieldRuleImplementations(io.fieldRules) : null;
  return editorPageMachine.provide({
    actors: {
      editor: pageEditorMachine.provide({
        actors: { load: drafts?.load ?? io.load, save: io.save },
        actions: { ...drafts?.actions, ...rules?.actions },
        ...(rules ? { guards: rules.guards } : {}),
      }),
      pageAction: pageActionLogic.provide({ actors: { perform: io.perform ?? noPageAction() } }),
      comparison: listMachine.provide({ actors: { fetchPage: io.comparison ?? noRows() } }),
      history: pageHistoryMachine.provide({ actors: io.history ?? historyActors() }),
    },
    actions: { leave },
  });
}

function fieldRuleImplementations(rules: (draft: EditorValues) => FieldErrors) {
  return {
    actions: { checkDraft: assign<EditorContext, EditorEvent, unknown, EditorEvent, never>(({ context }) => ({ fieldErrors: rules(context.draft) })) },
    guards: { breaksFieldRules: ({ context }: { context: EditorContext }) => Object.keys(rules(context.draft)).length > 0 },
  };
}

/** The AppCMS overview's cards, as a list page (the scope as its filters). */
export function appcmsOverviewPage(fetchPage: AnyActorLogic) {
  return listMachine.provide({ actors: { fetchPage } });
}

/** The AppCMS pages with their real I/O (src/adapters/page-logic.ts loads this module with the area). */
export const appcmsPages = {
  appcmsBrand: appcmsEditorPage({ ...appcmsEditorActors('brand'), perform: brandActionActor(), comparison: copyPreviewFetch('brand') }),
  appcmsSettings: appcmsEditorPage({ ...appcmsEditorActors('settings'), comparison: copyPreviewFetch('settings') }),
  appcmsDevices: appcmsEditorPage({ ...appcmsEditorActors('devices'), fieldRules: devicesDraftErrors }),
  appcmsService: appcmsEditorPage({ ...appcmsEditorActors('service'), perform: rotateKeyActor() }),
  appcmsTemplate: appcmsEditorPage(appcmsEditorActors('template')),
  appcmsOverview: appcmsOverviewPage(appcmsOverviewFetch()),
};
