/**
 * Content availability (issue 29): publish at / unpublish at (stored UTC, shown in the site's default
 * timezone, carried out by a pg-boss job at that time), country groups (named sets of countries an
 * item or a licence is limited to) and video licences (windows per item; publishing outside every
 * window is refused with a message naming the licence). Paths, request schemas, wire shapes and the
 * messages of this part of the Content area.
 */
import { UUID_PATTERN, VERSION_SCHEMA } from './contract';
import {
  BULK_STATUSES, CONTENT_KINDS, CONTENT_LIST_BOUNDS, CONTENT_STATUSES,
  type BulkStatus, type ContentKind, type ContentStatus,
} from './content';
import { INSTANT_MESSAGES } from './instant-bounds';
import type { FromSchema } from './json-schema';

export const AVAILABILITY_PATHS = {
  /** GET / PUT one item's publish at, unpublish at and country groups. */
  availability: (id: string) => `/v2.0/content/${id}/availability`,
  availabilityRoute: '/v2.0/content/:id/availability',
  /** GET (list), POST (create). */
  countryGroups: '/v2.0/country-groups',
  /** PATCH, DELETE. */
  countryGroup: (id: string) => `/v2.0/country-groups/${id}`,
  countryGroupRoute: '/v2.0/country-groups/:id',
  /** GET (list, optionally of one item), POST (create). */
  licences: '/v2.0/licences',
  licence: (id: string) => `/v2.0/licences/${id}`,
  licenceRoute: '/v2.0/licences/:id',
  /** POST: publish / unpublish every item matching a library filter (the "Select all N matching" of the bulk bar). */
  bulkMatching: '/v2.0/content/bulk-status-matching',
} as const;

export const AVAILABILITY_BOUNDS = {
  nameMax: 80,
  countriesMax: 250,
  groupsMax: 50,
  /** Items one "all matching" action may change. */
  bulkMatchingMax: 5000,
} as const;

/** The pg-boss queue of availability jobs. */
export const AVAILABILITY_QUEUE = 'content-availability';

export const AVAILABILITY_MESSAGES = {
  countryGroupNameTaken: (name: string) => `A country group named "${name}" already exists.`,
  countryGroupNotFound: 'This country group does not exist on your site, or it was removed.',
  countryGroupUnknownCountry: (code: string) => `"${code}" is not a country code (two letters, ISO 3166-1, such as GB or US).`,
  countryGroupNeedsCountry: 'A country group needs at least one country.',
  countryGroupInUse: (name: string, items: number, licences: number) =>
    `The country group "${name}" is in use (${items} ${items === 1 ? 'item' : 'items'}, ${licences} ${licences === 1 ? 'licence' : 'licences'}): remove it there first.`,
  countryGroupConflict: 'Someone else changed this country group since you opened it. Reload to see their version.',
  unknownCountryGroup: 'One of the chosen country groups does not exist on your site.',
  licenceNotFound: 'This licence does not exist on your site, or it was removed.',
  licenceConflict: 'Someone else changed this licence since you opened it. Reload to see their version.',
  licenceEndsBeforeStart: 'A licence must end after it starts.',
  invalidDate: (field: string) => `${field} is not a valid date and time.`,
  /** Issue 37: a date outside common/instant-bounds.ts's range (1970-01-01 … 9999-12-31, UTC). */
  dateOutOfRange: (field: string) => INSTANT_MESSAGES.outOfRange(field),
  /** Issue 37: a manual status change cancels the pending unpublish time, and the answer says so. */
  unpublishCancelled: (when: string) =>
    `The scheduled unpublish (${when}) was cancelled by this status change. Set it again under Availability if it should still happen.`,
  unpublishCancelledMany: (count: number) =>
    `The scheduled unpublish of ${count} ${count === 1 ? 'item was' : 'items were'} cancelled by this status change. Set it again under Availability if it should still happen.`,
  publishOutsideLicence: (name: string, from: string, to: string) =>
    `Publishing is outside the licence "${name}" (${from} – ${to}): change the date or the licence.`,
  publishAtInPast: 'The publish time must be in the future.',
  unpublishBeforePublish: 'The unpublish time must be after the publish time.',
  unpublishAtInPast: 'The unpublish time must be in the future.',
  publishAtWhenPublished: 'This item is already published: set only when it is unpublished.',
  availabilitySaved: 'Availability saved.',
  bulkMatchingChanged: (expected: number, found: number) =>
    `The items matching these filters changed (${expected} when you chose them, ${found} now). The list has been reloaded; choose again.`,
  bulkMatchingTooMany: (max: number) => `At most ${max} items can be changed at once: narrow the filters.`,
  // The Content › Country groups and Video licences pages and the item's availability panel (issue 29, browser side).
  countryGroupSaved: 'Country group saved.',
  countryGroupDeleteConfirm: (name: string) =>
    `Delete the country group "${name}"? Items and licences can no longer be limited to it; one still in use is not deleted.`,
  countryGroupDeleted: (name: string) => `Country group "${name}" deleted.`,
  countriesHint: 'Two-letter ISO 3166-1 codes, separated by commas or spaces (e.g. GB, IE, US).',
  licenceSaved: 'Licence saved.',
  licenceDeleteConfirm: (name: string, title: string) =>
    `Delete the licence "${name}" of "${title}"? Its window no longer limits when the item may be published.`,
  licenceDeleted: (name: string) => `Licence "${name}" deleted.`,
  licenceNeedsItem: 'Choose the item this licence is for.',
  nameRequired: 'Name is required.',
  dateRequired: (field: string) => `${field} is required.`,
  noCountryGroups: 'Available everywhere (no country group chosen).',
} as const;

export interface CountryGroup {
  id: string;
  name: string;
  countries: string[];
  version: number;
  /** Items and licences limited to it. */
  usedByItems: number;
  usedByLicences: number;
}

export interface Licence {
  id: string;
  contentId: string;
  contentTitle: string;
  name: string;
  startsAt: string;
  endsAt: string;
  countryGroupIds: string[];
  version: number;
}

export interface ContentAvailability {
  contentId: string;
  title: string;
  kind: ContentKind;
  status: ContentStatus;
  version: number;
  publishAt: string | null;
  unpublishAt: string | null;
  countryGroupIds: string[];
  /** The site's default timezone, in which the times are shown. */
  timezone: string;
}

export interface AvailabilityResponse {
  success: true;
  availability: ContentAvailability;
  licences: Licence[];
}

export interface CountryGroupsResponse { success: true; groups: CountryGroup[] }
export interface CountryGroupResponse { success: true; group: CountryGroup }
export interface LicencesResponse { success: true; licences: Licence[] }
export interface LicenceResponse { success: true; licence: Licence }
/** `message`: issue 37, said when the change cancelled pending unpublish times. */
export interface BulkMatchingResponse { success: true; updated: number; message?: string }

const B = AVAILABILITY_BOUNDS;
const id = { type: 'string', pattern: UUID_PATTERN } as const;
const when = { type: 'string', minLength: 1, maxLength: 40 } as const;
const groupIds = { type: 'array', maxItems: B.groupsMax, items: id } as const;

export const AVAILABILITY_SCHEMAS = {
  idParams: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  availability: {
    type: 'object',
    additionalProperties: false,
    required: ['version', 'publishAt', 'unpublishAt', 'countryGroupIds'],
    properties: {
      version: VERSION_SCHEMA,
      /** ISO instant; null: no scheduled publication (a scheduled item goes back to draft). */
      publishAt: { type: ['string', 'null'], minLength: 1, maxLength: 40 },
      unpublishAt: { type: ['string', 'null'], minLength: 1, maxLength: 40 },
      countryGroupIds: groupIds,
    },
  },
  countryGroupCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'countries'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: B.nameMax },
      countries: { type: 'array', maxItems: B.countriesMax, items: { type: 'string', minLength: 1, maxLength: 10 } },
    },
  },
  countryGroupUpdate: {
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: VERSION_SCHEMA,
      name: { type: 'string', minLength: 1, maxLength: B.nameMax },
      countries: { type: 'array', maxItems: B.countriesMax, items: { type: 'string', minLength: 1, maxLength: 10 } },
    },
  },
  versionQuery: {
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: { version: VERSION_SCHEMA },
  },
  licenceQuery: {
    type: 'object',
    additionalProperties: false,
    properties: { contentId: id },
  },
  licenceCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['contentId', 'name', 'startsAt', 'endsAt', 'countryGroupIds'],
    properties: {
      contentId: id,
      name: { type: 'string', minLength: 1, maxLength: B.nameMax },
      startsAt: when,
      endsAt: when,
      countryGroupIds: groupIds,
    },
  },
  licenceUpdate: {
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: VERSION_SCHEMA,
      name: { type: 'string', minLength: 1, maxLength: B.nameMax },
      startsAt: when,
      endsAt: when,
      countryGroupIds: groupIds,
    },
  },
  bulkMatching: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'expected'],
    properties: {
      status: { type: 'string', enum: [...BULK_STATUSES] },
      /** How many items the operator was shown as matching: a different count now is refused (409). */
      expected: { type: 'integer', minimum: 1, maximum: B.bulkMatchingMax },
      mediaType: { type: 'string', enum: [...CONTENT_KINDS] },
      q: { type: 'string', maxLength: CONTENT_LIST_BOUNDS.qMaxLength },
      filterStatus: { type: 'string', enum: [...CONTENT_STATUSES] },
    },
  },
} as const;

export type AvailabilityRequest = FromSchema<typeof AVAILABILITY_SCHEMAS.availability>;
export type CountryGroupCreateRequest = FromSchema<typeof AVAILABILITY_SCHEMAS.countryGroupCreate>;
export type CountryGroupUpdateRequest = FromSchema<typeof AVAILABILITY_SCHEMAS.countryGroupUpdate>;
export type LicenceCreateRequest = FromSchema<typeof AVAILABILITY_SCHEMAS.licenceCreate>;
export type LicenceUpdateRequest = FromSchema<typeof AVAILABILITY_SCHEMAS.licenceUpdate>;
export interface BulkMatchingRequest {
  status: BulkStatus;
  expected: number;
  mediaType?: ContentKind;
  q?: string;
  filterStatus?: ContentStatus;
}

/** ISO 3166-1 alpha-2 codes (officially assigned). */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ ' +
  'DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ ' +
  'OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
  'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
