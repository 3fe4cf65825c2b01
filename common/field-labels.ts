/**
 * A changed field's label in operator words (issue 38), ONE mapping for the History panel
 * (src/views/shared/revision-text.ts) and the audit log (server/domain/audit-log.ts): a brand's and
 * the settings' fields as their AppCMS pages label them ("OTT (TV) primary colour", "Simultaneous
 * streams"), a device's as its platform's name and the field's ("Roku minimum app version"), the
 * History's catalogue (REVISION_FIELD_LABELS), else the name in words ("fontFamily" → "Font family").
 */
import { BRAND_LABELS, DEVICE_PLATFORMS, SETTINGS_LABELS, THEME_LABELS } from './appcms';
import { REVISION_FIELD_LABELS } from './revisions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Labels of one kind's fields as its own page names them. */
const KIND_FIELD_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = { brand: BRAND_LABELS, settings: SETTINGS_LABELS };

const DEVICE_FIELD_WORDS: Readonly<Record<string, string>> = { name: 'name', enabled: 'enabled', minAppVersion: 'minimum app version' };

const own = (labels: Readonly<Record<string, string>>, key: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;

/** A name in words: "primaryColor" → "Primary color", "max_streams" → "Max streams". */
export function nameInWords(part: string): string {
  const spaced = part.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** One part of a dotted name: the catalogue's words, a theme's page name ("OTT (TV)"), else the name in words. */
function partLabel(part: string): string {
  return own(REVISION_FIELD_LABELS, part) ?? own(THEME_LABELS, part) ?? nameInWords(part);
}

/**
 * A field's label. `kind` is the revision kind of the object when known (the audit log knows it);
 * without it a brand's or the settings' own label still applies (their keys are distinct).
 */
export function fieldLabel(field: string, kind?: string | null): string {
  const bare = field.replace(/^values\./, '');
  const ofKind = kind ? KIND_FIELD_LABELS[kind] : undefined;
  const kindLabel = ofKind ? own(ofKind, field) ?? own(ofKind, bare) : undefined;
  if (kindLabel) return kindLabel;
  // A device's fields ("roku.minAppVersion"): the platform's name and the field's ("Roku minimum app version").
  const device = /^([a-z0-9]+)\.(name|enabled|minAppVersion)$/i.exec(field);
  const platform = device ? DEVICE_PLATFORMS.find((d) => d.platform === device[1]) : undefined;
  if (device && (kind === 'devices' || (!kind && platform))) return `${platform?.name ?? device[1]} ${DEVICE_FIELD_WORDS[device[2]!] ?? device[2]}`;
  const known = own(REVISION_FIELD_LABELS, field) ?? (kind ? undefined : own(BRAND_LABELS, field) ?? own(SETTINGS_LABELS, bare));
  if (known) return known;
  const parts = field.split('.').filter((p) => p !== '' && !UUID.test(p));
  return parts.map(partLabel).join(' › ') || 'Value';
}

/**
 * A field that holds an image's address (a logo, an icon, a poster, an artwork): its value reads as
 * whether there is one, never as the address (issue 38: "Poster: changed", not "/v2.0/appcms/files/6c74…png").
 */
export function isImageField(field: string): boolean {
  return /(^|\.)(logo|icon|poster|artwork|image|thumbnail)Url$/.test(field);
}

/** What an image field's change did, in words: added, removed or changed (null when nothing changed). */
export function imageChangeWords(before: unknown, after: unknown): 'added' | 'removed' | 'changed' | null {
  const had = typeof before === 'string' && before !== '';
  const has = typeof after === 'string' && after !== '';
  if (had && has) return before === after ? null : 'changed';
  if (has) return 'added';
  return had ? 'removed' : null;
}

/** An image field's value alone: "an image" when set. */
export const IMAGE_SET_WORDS = 'an image';
