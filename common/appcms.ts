/**
 * AppCMS editors (spec §2.7, §3, §7.5): the v2.0 paths, the typed settings form, the page templates
 * the server knows, the device platforms, the brand colours, their checks (shared by the server and
 * the forms), the WCAG contrast ratio and the field diff used by versions and copy-from-default.
 * Imports nothing of ours but the contract types.
 */
import type { DeviceEntry, ThemeColors } from './contract';
import { OWN_MESSAGES } from './messages';
import { isOneOf, isRecord, valueOf } from './one-of';

/** The v2.0 AppCMS calls (spec §7.5), each followed by `/{site}` (and `/{network}` where per network). */
export const APPCMS_PATHS = {
  base: '/v2.0/appcms',
  brand: '/v2.0/appcms/brand',
  settings: '/v2.0/appcms/settings',
  settingsVersions: '/v2.0/appcms/settings/versions',
  settingsRestore: '/v2.0/appcms/settings/restore',
  devices: '/v2.0/appcms/devices',
  service: '/v2.0/appcms/service',
  signingKey: '/v2.0/appcms/signingkey',
  copyPreview: '/v2.0/appcms/copyPreview',
  /** POST `${withdraw}/{site}/{network}`: a launched network goes back to not launched (issue 28). */
  withdraw: '/v2.0/appcms/withdraw',
  uploads: '/v2.0/appcms/uploads',
  /**
   * Stored uploads, served by content hash: `${files}/{site id}/{key}`, only while that site holds
   * the file (issue 37); `${files}/{key}` still serves files sites held before (legacy addresses).
   */
  files: '/v2.0/appcms/files',
} as const;

export const APPCMS_MESSAGES = {
  saved: 'Saved.',
  restored: (version: number) => `Version ${version} restored as a new version.`,
  conflict: 'Someone else saved this first. Reload to see their changes.',
  rotated: 'Signing key rotated. The old key no longer works.',
  rotateConfirm: 'Rotate the signing key? Apps and services signing with the old key stop working at once.',
  lowContrast: (ratio: string) => `Contrast ${ratio}:1 is below the WCAG AA minimum of 4.5:1.`,
  uploadTooLarge: (maxKb: number) => `The file is larger than ${maxKb} KB.`,
  uploadEmpty: 'The file is empty.',
  uploadType: 'Only PNG, WebP or SVG images are accepted (checked by content, not by name).',
  uploadPixels: (min: number, max: number) => `The image must be between ${min} and ${max} pixels on each side.`,
  uploadSvgRefused: (what: string) => `The SVG was refused: it holds ${what}. Scripts, event handlers, embedded HTML, external references, DOCTYPEs, processing instructions and editor-specific markup are not allowed; export it as a plain SVG.`,
  uploadSvgInvalid: 'The SVG is not well-formed XML with an <svg> root in the SVG namespace (xmlns="http://www.w3.org/2000/svg").',
  uploadUndecodable: 'The image could not be decoded: it is damaged, truncated or not really a PNG or WebP file.',
  uploadSvgComplex: (maxElements: number, maxDepth: number) => `The SVG is too complex: at most ${maxElements} elements, nested at most ${maxDepth} deep.`,
  uploadHint: (maxPixels: number, maxKb: number) => `PNG, WebP or SVG, up to ${maxPixels} × ${maxPixels} pixels and ${maxKb} KB`,
  uploadSlot: 'Upload to the logo or the icon.',
  /** Issue 37: a files address that is not one of this site's uploads (another site's, or never uploaded). */
  fileNotOfSite: 'This image is not a file uploaded to this site: upload it again.',
  noVersions: 'No versions yet.',
  noChanges: OWN_MESSAGES.networkCopyNoChanges,
  colour: 'Use a colour like #1A2B3C.',
  required: (label: string) => `${label} is required.`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  oneOf: (label: string) => `Choose a ${label} from the list.`,
  number: (label: string, min: number, max: number) => `${label} must be a whole number from ${min} to ${max}.`,
  email: 'Enter an email address like name@example.com.',
  language: 'Use a language code like en or en-GB.',
  domain: 'Use a domain name like example.com.',
  appVersion: 'Use a version like 1.2.3.',
  /** Issue 30: a platform that is on needs its minimum app version (no placeholder stands in for it). */
  appVersionRequired: 'A platform that is on needs its minimum app version, like 1.2.3.',
  invalidForm: 'Some fields need attention.',
  mainTypeNotListed: 'The main service type must be one of the service types.',
} as const;

/* ------------------------------- Templates ------------------------------- */

export interface TemplateOption {
  name: string;
  description: string;
  /** Preview layout: rows of tiles. */
  layout: 'hero' | 'grid' | 'list' | 'rails';
}

export const TEMPLATES: readonly TemplateOption[] = [
  { name: 'Reference Template', description: 'A hero banner over rails of posters: the all-round layout.', layout: 'hero' },
  { name: 'News Template', description: 'A list of the latest clips with a live strip on top.', layout: 'list' },
  { name: 'Sports Template', description: 'Scores and live events first, highlights in rails below.', layout: 'rails' },
  { name: 'Kids Template', description: 'Large tiles in a grid, no text-heavy screens.', layout: 'grid' },
];

/* ------------------------------- Service ------------------------------- */

/**
 * The service types a site runs: one stored fact (`sites.service_types`, with the main type
 * `sites.service_type` in it), edited by AppCMS › Service and by Monetization › Models (issue 27).
 */
export const SERVICE_TYPES = ['SVOD', 'AVOD', 'TVOD', 'FAST'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** How an operator reads each service type (both editors show these). */
export const SERVICE_TYPE_LABELS: Readonly<Record<ServiceType, string>> = {
  SVOD: 'Subscription (SVOD)',
  AVOD: 'Advertising (AVOD)',
  TVOD: 'Transactional (TVOD)',
  FAST: 'Free ad-supported TV (FAST)',
};

/** The label of a stored type (an unknown value shows as it is). */
export function serviceTypeLabel(type: string): string {
  return valueOf(SERVICE_TYPE_LABELS, type) ?? type;
}

/**
 * The main type after the list became `types`: the current one while it is still listed, else the
 * first remaining type in SERVICE_TYPES order. `types` must not be empty (validation says so first).
 */
export function mainServiceType(current: string, types: readonly string[]): string {
  if (types.includes(current)) return current;
  return SERVICE_TYPES.find((t) => types.includes(t)) ?? types[0] ?? current;
}

export interface ServiceFields {
  serviceName: string;
  serviceType: string;
  serviceTypes: string[];
  templateName: string;
  languageCode: string;
  forceLogin: boolean;
  isMonetizationModelEnabled: boolean;
  domainName: string;
}

export interface AppcmsService extends ServiceFields {
  siteInternalName: string;
  version: number;
  signingKeyMasked: string;
  signingKeyRotatedAt: string | null;
  templates: readonly TemplateOption[];
}

/* ------------------------------- Settings ------------------------------- */

export type SettingValue = string | number | boolean;

export interface SettingField {
  key: string;
  label: string;
  help: string;
  group: string;
  type: 'text' | 'email' | 'number' | 'boolean' | 'select';
  options?: readonly string[];
  min?: number;
  max?: number;
}

export const SETTINGS_FIELDS: readonly SettingField[] = [
  { key: 'defaultLanguage', label: 'Default language', help: 'Language of the apps before a viewer chooses one (e.g. en, es, en-GB).', group: 'Language', type: 'text' },
  { key: 'subtitlesEnabled', label: 'Subtitles', help: 'Offer subtitles on videos that have them.', group: 'Language', type: 'boolean' },
  { key: 'autoplay', label: 'Autoplay next episode', help: 'Start the next episode when one ends.', group: 'Playback', type: 'boolean' },
  { key: 'defaultVideoQuality', label: 'Default video quality', help: 'Quality the player starts with; auto adapts to the connection.', group: 'Playback', type: 'select', options: ['auto', '480p', '720p', '1080p', '4k'] },
  // Issue 40: read from the site's default network by the publish rule (server/domain/media.ts).
  { key: 'publishViewableVideos', label: 'Publish videos once viewable', help: 'Let a video item be published as soon as its first rendition plays, before every rendition is ready (the default network\'s value applies to the whole site).', group: 'Playback', type: 'boolean' },
  { key: 'playerSkipSeconds', label: 'Skip forward/back (seconds)', help: 'How far the skip buttons of the player jump.', group: 'Playback', type: 'number', min: 5, max: 60 },
  { key: 'maxStreams', label: 'Simultaneous streams', help: 'How many devices of one account may play at the same time.', group: 'Accounts', type: 'number', min: 1, max: 10 },
  { key: 'downloadsEnabled', label: 'Downloads', help: 'Let viewers download videos to watch offline in the mobile apps.', group: 'Accounts', type: 'boolean' },
  { key: 'parentalControls', label: 'Parental controls', help: 'Offer a PIN-protected kids profile.', group: 'Accounts', type: 'boolean' },
  { key: 'supportEmail', label: 'Support email', help: 'Where the apps send viewers who need help.', group: 'Support', type: 'email' },
];

export const SETTINGS_GROUPS: readonly string[] = [...new Set(SETTINGS_FIELDS.map((f) => f.group))];

export interface SettingsVersion {
  version: number;
  createdBy: string | null;
  createdAt: string;
  changed: string[];
  restoredFrom: number | null;
  values: Record<string, SettingValue>;
}

export interface AppcmsSettings {
  network: string;
  values: Record<string, SettingValue>;
  version: number;
}

/* ------------------------------- Brand ------------------------------- */

export const THEME_KEYS = ['theme', 'themeOtt', 'themeApps'] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export const THEME_LABELS: Record<ThemeKey, string> = { theme: 'Web', themeOtt: 'OTT (TV)', themeApps: 'Mobile apps' };
export const COLOUR_KEYS = ['primaryColor', 'secondaryColor', 'backgroundColor', 'textColor'] as const;
export type ColourKey = (typeof COLOUR_KEYS)[number];
export const COLOUR_LABELS: Record<ColourKey, string> = {
  primaryColor: 'Primary', secondaryColor: 'Secondary', backgroundColor: 'Background', textColor: 'Text',
};
export const FONT_FAMILIES = ['Inter', 'Roboto', 'SF Pro', 'Open Sans', 'Lato', 'Montserrat'] as const;

export interface AppcmsBrand {
  network: string;
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
  version: number;
}

export interface AppcmsDevices {
  network: string;
  devices: DeviceEntry[];
  version: number;
}

export const DEVICE_PLATFORMS: readonly { platform: string; name: string }[] = [
  { platform: 'web', name: 'Web browser' },
  { platform: 'ios', name: 'iPhone & iPad' },
  { platform: 'android', name: 'Android phones' },
  { platform: 'roku', name: 'Roku' },
  { platform: 'firetv', name: 'Fire TV' },
  { platform: 'appletv', name: 'Apple TV' },
  { platform: 'androidtv', name: 'Android TV' },
  { platform: 'tizen', name: 'Samsung TV' },
];

/* ------------------------------- Uploads ------------------------------- */

export const UPLOAD_SLOTS = ['logo', 'icon'] as const;
export type UploadSlot = (typeof UPLOAD_SLOTS)[number];
/**
 * Upload limits: bytes of the file, pixels on each side, and pixels in all (what the decoder is
 * allowed to decode: 2048 × 2048 is 16 MiB of RGBA); for an SVG, elements and nesting depth (what
 * the XML parser and sanitiser are given: a logo has far fewer).
 */
export const UPLOAD_LIMITS = {
  maxBytes: 512 * 1024, minPixels: 16, maxPixels: 2048, maxTotalPixels: 2048 * 2048, maxSvgElements: 5000, maxSvgDepth: 64,
} as const;
/** Sizes the apps show the logo and icon at (previews). */
export const PREVIEW_SIZES: Record<UploadSlot, readonly number[]> = { logo: [160, 80, 40], icon: [192, 48, 16] };

/* ------------------------------- Checks ------------------------------- */

export type FieldErrors = Record<string, string>;

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LANGUAGE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const APP_VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

/** Field errors of a settings draft (typed fields only; other stored keys are kept as they are). */
export function validateSettings(values: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of SETTINGS_FIELDS) {
    const value = values[field.key];
    if (value === undefined) continue;
    if (field.type === 'boolean') {
      if (typeof value !== 'boolean') errors[field.key] = APPCMS_MESSAGES.required(field.label);
    } else if (field.type === 'number') {
      const min = field.min ?? 0;
      const max = field.max ?? Number.MAX_SAFE_INTEGER;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) errors[field.key] = APPCMS_MESSAGES.number(field.label, min, max);
    } else if (typeof value !== 'string' || value.trim() === '') {
      errors[field.key] = APPCMS_MESSAGES.required(field.label);
    } else if (value.length > 200) {
      errors[field.key] = APPCMS_MESSAGES.tooLong(field.label, 200);
    } else if (field.type === 'select' && !(field.options ?? []).includes(value)) {
      errors[field.key] = APPCMS_MESSAGES.oneOf(field.label);
    } else if (field.type === 'email' && !EMAIL.test(value)) {
      errors[field.key] = APPCMS_MESSAGES.email;
    } else if (field.key === 'defaultLanguage' && !LANGUAGE.test(value)) {
      errors[field.key] = APPCMS_MESSAGES.language;
    }
  }
  return errors;
}

export function validateTheme(prefix: string, theme: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const t = isRecord(theme) ? theme : {};
  for (const key of COLOUR_KEYS) {
    if (typeof t[key] !== 'string' || !HEX_COLOUR.test(t[key])) errors[`${prefix}.${key}`] = APPCMS_MESSAGES.colour;
  }
  if (typeof t.fontFamily !== 'string' || t.fontFamily.trim() === '' || t.fontFamily.length > 100) {
    errors[`${prefix}.fontFamily`] = APPCMS_MESSAGES.required('Font');
  }
  return errors;
}

export function validateBrand(brand: Record<string, unknown>): FieldErrors {
  let errors: FieldErrors = {};
  for (const key of ['logoUrl', 'iconUrl'] as const) {
    const value = brand[key];
    if (typeof value !== 'string' || value.trim() === '') errors[key] = APPCMS_MESSAGES.required(key === 'logoUrl' ? 'Logo' : 'Icon');
    else if (value.length > 500) errors[key] = APPCMS_MESSAGES.tooLong(key === 'logoUrl' ? 'Logo' : 'Icon', 500);
  }
  for (const key of THEME_KEYS) errors = { ...errors, ...validateTheme(key, brand[key]) };
  return errors;
}

export function validateService(fields: Partial<Record<keyof ServiceFields, unknown>>): FieldErrors {
  const errors: FieldErrors = {};
  const text = (key: keyof ServiceFields, label: string, max: number) => {
    const value = fields[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') { errors[key] = APPCMS_MESSAGES.required(label); return undefined; }
    if (value.length > max) { errors[key] = APPCMS_MESSAGES.tooLong(label, max); return undefined; }
    return value;
  };
  text('serviceName', 'Service name', 100);
  const type = text('serviceType', 'Service type', 20);
  if (type !== undefined && !isOneOf(SERVICE_TYPES, type)) errors.serviceType = APPCMS_MESSAGES.oneOf('service type');
  if (fields.serviceTypes !== undefined) {
    const list = fields.serviceTypes;
    if (!Array.isArray(list) || list.length === 0 || list.some((t) => !isOneOf(SERVICE_TYPES, t))) {
      errors.serviceTypes = APPCMS_MESSAGES.oneOf('service type');
    } else if (type !== undefined && !list.includes(type)) {
      errors.serviceTypes = APPCMS_MESSAGES.mainTypeNotListed;
    }
  }
  const template = text('templateName', 'Template', 100);
  if (template !== undefined && !TEMPLATES.some((t) => t.name === template)) errors.templateName = APPCMS_MESSAGES.oneOf('template');
  const language = text('languageCode', 'Language', 10);
  if (language !== undefined && !LANGUAGE.test(language)) errors.languageCode = APPCMS_MESSAGES.language;
  const domain = text('domainName', 'Domain name', 253);
  if (domain !== undefined && !DOMAIN.test(domain)) errors.domainName = APPCMS_MESSAGES.domain;
  for (const key of ['forceLogin', 'isMonetizationModelEnabled'] as const) {
    if (fields[key] !== undefined && typeof fields[key] !== 'boolean') errors[key] = APPCMS_MESSAGES.required(key);
  }
  return errors;
}

export function validateDevices(devices: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (!Array.isArray(devices)) return { devices: APPCMS_MESSAGES.invalidForm };
  const seen = new Set<string>();
  for (const entry of devices as Record<string, unknown>[]) {
    const platform = typeof entry?.platform === 'string' ? entry.platform : '';
    if (!DEVICE_PLATFORMS.some((p) => p.platform === platform) || seen.has(platform)) { errors.devices = APPCMS_MESSAGES.oneOf('platform'); continue; }
    seen.add(platform);
    if (typeof entry.enabled !== 'boolean') errors[`${platform}.enabled`] = APPCMS_MESSAGES.required('Enabled');
    if (typeof entry.minAppVersion !== 'string' || !APP_VERSION.test(entry.minAppVersion)) errors[`${platform}.minAppVersion`] = APPCMS_MESSAGES.appVersion;
    if (entry.name !== undefined && (typeof entry.name !== 'string' || entry.name.length > 100)) errors[`${platform}.name`] = APPCMS_MESSAGES.tooLong('Name', 100);
  }
  return errors;
}

/* ------------------------------- Contrast ------------------------------- */

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** The WCAG 2 contrast ratio of two #RRGGBB colours (1 to 21); null when either is not a colour. */
export function contrastRatio(a: string, b: string): number | null {
  if (!HEX_COLOUR.test(a) || !HEX_COLOUR.test(b)) return null;
  const hi = Math.max(luminance(a), luminance(b));
  const lo = Math.min(luminance(a), luminance(b));
  return (hi + 0.05) / (lo + 0.05);
}

export const WCAG_AA = 4.5;

/* ------------------------------- Diff ------------------------------- */

export interface DiffEntry {
  field: string;
  label: string;
  from: string;
  to: string;
}

const show = (value: unknown): string => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** The fields whose value differs between `from` and `to` (flat maps), labelled. */
export function diffValues(from: Record<string, unknown>, to: Record<string, unknown>, labels: Record<string, string> = {}): DiffEntry[] {
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return keys
    .filter((key) => show(from[key]) !== show(to[key]))
    .map((key) => ({ field: key, label: labels[key] ?? key, from: show(from[key]), to: show(to[key]) }));
}

export const SETTINGS_LABELS: Record<string, string> = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f.key, f.label]));

/** A brand as flat fields (`theme.primaryColor`, `logoUrl`, ...), for the editor and diffs. */
export function flattenBrand(brand: Pick<AppcmsBrand, 'logoUrl' | 'iconUrl' | ThemeKey>): Record<string, string> {
  const flat: Record<string, string> = { logoUrl: brand.logoUrl, iconUrl: brand.iconUrl };
  for (const key of THEME_KEYS) {
    for (const [field, value] of Object.entries(brand[key])) flat[`${key}.${field}`] = String(value);
  }
  return flat;
}

export const BRAND_LABELS: Record<string, string> = {
  logoUrl: 'Logo',
  iconUrl: 'Icon',
  ...Object.fromEntries(THEME_KEYS.flatMap((t) => [
    ...COLOUR_KEYS.map((c) => [`${t}.${c}`, `${THEME_LABELS[t]} ${COLOUR_LABELS[c].toLowerCase()} colour`]),
    [`${t}.fontFamily`, `${THEME_LABELS[t]} font`],
  ])),
};

export interface CopyPreview {
  brand: DiffEntry[];
  settings: DiffEntry[];
}

/** The page actions of the AppCMS editors (the pageAction machine's request names). */
export const APPCMS_ACTIONS = { rotate: 'rotate', upload: 'upload' } as const;

/** One card of the AppCMS overview: the section's current data in short, or why it could not be read. */
export type AppcmsOverviewRow = { id: string; error?: string } & (
  | { id: 'template'; templateName?: string }
  | { id: 'brand'; logoUrl?: string; colours?: { label: string; value: string }[] }
  /** The settings' last change as their History numbers it (issue 38: "#23", one numbering; null: no change recorded yet). */
  | { id: 'settings'; seq?: number | null; createdBy?: string | null; createdAt?: string }
  | { id: 'devices'; enabled?: string[]; total?: number }
  | { id: 'service'; serviceName?: string; serviceType?: string; domainName?: string }
);

/** The Settings card of the AppCMS overview (issue 38: the change's number is its History's, "#23", never a second "Version 3"). */
export const APPCMS_OVERVIEW_TEXT = {
  settingsChanged: (seq: number) => `Last change #${seq} (numbered as in the Settings History)`,
  settingsUnchanged: 'No change recorded yet: the settings as the network was set up',
  savedBy: 'saved by',
  bySystem: 'by the system',
} as const;

/* ------------------------------- Launch readiness ------------------------------- */

/** What a network can lack before it is launched (issue 30): a brand, settings, at least one platform turned on. */
export const LAUNCH_GAPS = ['brand', 'settings', 'platform'] as const;
export type LaunchGap = (typeof LAUNCH_GAPS)[number];

export const LAUNCH_READINESS_TEXT = {
  checking: 'Checking what the network still lacks…',
  ready: (name: string) => `${name} has a brand, settings and at least one platform turned on.`,
  lacks: (name: string) => `${name} is not ready yet. It lacks:`,
  gap: {
    brand: 'A brand: a logo and a theme (AppCMS › Brand)',
    settings: 'Settings (AppCMS › Settings)',
    platform: 'At least one platform turned on (AppCMS › Devices)',
  } satisfies Record<LaunchGap, string>,
  decide: 'Launch it anyway, or cancel and complete it first.',
  failed: 'Could not check what the network lacks. You can still launch it, or cancel.',
  launchAnyway: 'Launch anyway',
  list: 'What the network lacks',
} as const;

/**
 * The gaps of one network from its three stored parts (null: the part is not stored): no brand or a
 * brand without a logo; no settings; no device list or none turned on.
 */
export function launchGapsOf(parts: {
  brand: Record<string, unknown> | null;
  settings: Record<string, unknown> | null;
  device: Record<string, unknown> | null;
}): LaunchGap[] {
  const gaps: LaunchGap[] = [];
  const logo = parts.brand?.logoUrl;
  if (!parts.brand || typeof logo !== 'string' || logo.trim() === '') gaps.push('brand');
  if (!parts.settings) gaps.push('settings');
  const devices = parts.device?.devices;
  const anyOn = Array.isArray(devices) && devices.some((d) => isRecord(d) && d.enabled === true);
  if (!anyOn) gaps.push('platform');
  return gaps;
}
