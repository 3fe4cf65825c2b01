/**
 * How the Admin area's revisions read in the History panel (Admin › Staff): a staff account's
 * (`staff`) and the site's second-factor rule's (`siteSecurity`). Their stored values are a roles map
 * ({ Content: 'read' }), switches (true/false) and a rule code ('optional'); here, in one place, they
 * become an operator's words before the panel lists them: one line per area whose level changed
 * ("Content: read → write", "none" for no role), "On"/"Off" for the SMS code, "Disabled"/"Active" for
 * the account (listed as `accountState`), and the rule's own label. Other kinds pass through unchanged.
 */
import { AREA_NAMES } from './constants';
import { HISTORY_PANEL_MESSAGES, type Revision, type RevisionChange } from './revisions';
import { isSecondFactorRule, SECOND_FACTOR_TEXT } from './second-factor-rule';
import { isRecord } from './one-of';

/** The level an account holds in an area, in words ('none' for no role). */
export const NO_ROLE = 'none';
export const SWITCH_WORDS = { on: 'On', off: 'Off' } as const;
export const ACCOUNT_WORDS = { disabled: 'Disabled', active: 'Active' } as const;

const roleField = (area: string) => `roles.${area}`;
/** The field a staff account's `disabled` is listed as (its label: REVISION_FIELD_LABELS). */
export const ACCOUNT_STATE_FIELD = 'accountState';

function levelOf(roles: unknown, area: string): string | null {
  if (!isRecord(roles)) return null;
  const level = roles[area];
  return typeof level === 'string' && level !== '' ? level : null;
}

/** A roles change as one change per area whose level differs (a creation lists the areas it grants). */
function roleChanges(change: RevisionChange): RevisionChange[] {
  const created = change.before === null;
  const areas = [...new Set([...AREA_NAMES, ...Object.keys(change.before ?? {}), ...Object.keys(change.after ?? {})])];
  return areas.flatMap((area): RevisionChange[] => {
    const before = levelOf(change.before, area);
    const after = levelOf(change.after, area);
    if (before === after) return [];
    if (created) return after === null ? [] : [{ field: roleField(area), before: null, after }];
    return [{ field: roleField(area), before: before ?? NO_ROLE, after: after ?? NO_ROLE }];
  });
}

function mapValue(value: unknown, words: (v: unknown) => unknown): unknown {
  return value === null || value === undefined ? null : words(value);
}

const switchWords = (v: unknown) => (v === true ? SWITCH_WORDS.on : v === false ? SWITCH_WORDS.off : v);
const accountWords = (v: unknown) => (v === true ? ACCOUNT_WORDS.disabled : v === false ? ACCOUNT_WORDS.active : v);
const ruleWords = (v: unknown) => (isSecondFactorRule(v) ? SECOND_FACTOR_TEXT.options[v].label : v);
const SWITCH_FIELDS = new Set(['twoFactorOnLogin', 'requireTwoFactor', 'requireAuthenticator']);

/** One change of an Admin revision in words (several for a roles map). */
export function adminChangeInWords(change: RevisionChange): RevisionChange[] {
  if (change.field === 'roles') return roleChanges(change);
  const words = SWITCH_FIELDS.has(change.field) ? switchWords
    : change.field === 'disabled' ? accountWords
      : change.field === 'secondFactorRule' ? ruleWords
        : null;
  if (!words) return [change];
  // `disabled` reads as the account's state ("Account: Active → Disabled"), under its own field name.
  const field = change.field === 'disabled' ? ACCOUNT_STATE_FIELD : change.field;
  return [{ field, before: mapValue(change.before, words), after: mapValue(change.after, words) }];
}

/** A revision as the Admin area's History lists it: a staff account's or the rule's changes in words. */
export function adminRevisionInWords(revision: Revision): Revision {
  if (revision.kind !== 'staff' && revision.kind !== 'siteSecurity') return revision;
  return { ...revision, changes: revision.changes.flatMap(adminChangeInWords) };
}

/** What the Staff page says around its Histories (src/views/admin/HistoryDisclosure.tsx, StaffDialogs.tsx, StaffPage.tsx). */
export const STAFF_HISTORY_TEXT = {
  show: HISTORY_PANEL_MESSAGES.show,
  hide: HISTORY_PANEL_MESSAGES.hide,
  /** The row action that shows an account's History (every reader may). */
  rowAction: 'History',
  rowActionLabel: (name: string) => `History of ${name}`,
  dialogTitle: (name: string) => `History of ${name}`,
  close: 'Close',
  ruleRegion: 'History of the second-factor rule',
  /** The edit dialog's two tabs: the form, and the account's History. */
  detailsTab: 'Details',
  historyTab: 'History',
} as const;
