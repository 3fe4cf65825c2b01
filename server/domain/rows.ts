/**
 * The rows the rules read and write, as the rules see them (issue 39): domain-owned shapes of what
 * the repositories (server/db/) answer and take. The repositories' own types come from the table
 * definitions; the composition root (server/composition.ts) hands them to the domain, where the
 * compiler checks that they fit these shapes.
 */
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import type { RevisionChange } from '../../common/revisions';
import type { IngestDeadLetterReason } from '../../common/ingest-contract';

export type SiteRow = {
  id: string;
  siteInternalName: string;
  serviceName: string;
  serviceType: string;
  serviceTypes: string[];
  templateName: string;
  languageCode: string;
  forceLogin: boolean;
  isMonetizationModelEnabled: boolean;
  monetizationVersion: number;
  domainName: string;
  siteBaseUrl: string;
  backendUrl: string;
  isLaunched: boolean;
  managementApiKey: string;
  defaultTimezone: string;
  cloudProvider: string;
  profile: Record<string, unknown>;
  secondFactorRule: 'optional' | 'required' | 'authenticator';
  serviceVersion: number;
  signingKey: string;
  signingKeyRotatedAt: Date | null;
};

export type StaffUserRow = {
  id: string;
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Record<string, string>;
  disabled: boolean;
  createdAt: Date;
  passwordChangedAt: Date;
  version: number;
};

export type SessionRow = {
  id: string;
  createdAt: Date;
  userId: string;
  deviceId: string;
  ipAddress: string;
  userAgent: string;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

export type SessionLookupRow = {
  session: SessionRow;
  user: StaffUserRow;
  site: SiteRow;
  authenticatorConfirmedAt: Date | null;
};

export type ResetTokenRow = {
  id: string;
  createdAt: Date;
  userId: string;
  expiresAt: Date;
  purpose: string;
  tokenHash: string;
  usedAt: Date | null;
};

export type OtpCodeRow = {
  id: string;
  createdAt: Date;
  userId: string;
  deviceId: string;
  expiresAt: Date;
  purpose: string;
  codeHash: string;
  wrongAttempts: number;
  consumedAt: Date | null;
};

export type TotpFactorRow = {
  createdAt: Date;
  userId: string;
  secretEncrypted: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
};

export type StaffUserInsert = {
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  phoneNumber: string;
  roles: Record<string, string>;
  id?: string;
  twoFactorOnLogin?: boolean;
  disabled?: boolean;
  createdAt?: Date;
  passwordChangedAt?: Date;
  version?: number;
};

export type StaffRecord = {
  id: string;
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Record<string, string>;
  disabled: boolean;
  createdAt: Date;
  version: number;
};

export type StaffPage = {
  rows: (StaffRecord & { lastSeenAt: Date | null; activeSessions: number; })[];
  total: number;
};

export type UserWithSite = {
  user: StaffUserRow;
  site: SiteRow;
};

export type NetworkRow = {
  id: string;
  name: string;
  siteId: string;
  identifier: string;
  image: string;
  isActive: boolean;
  isDefault: boolean;
};

export type NetworkBrandRow = {
  version: number;
  networkId: string;
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
  updatedAt: Date;
};

export type NetworkSettingsRow = {
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  updatedAt: Date;
};

export type NetworkDevicesRow = {
  version: number;
  networkId: string;
  updatedAt: Date;
  devices: DeviceEntry[];
};

export type ServiceSnapshot = {
  site: SiteRow;
  networks: readonly NetworkRow[];
};

export type SettingsVersionRow = {
  id: string;
  createdAt: Date;
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  createdBy: string | null;
  changed: string[];
  restoredFrom: number | null;
};

export type SettingsVersionInsert = {
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  id?: string;
  createdAt?: Date;
  createdBy?: string | null;
  changed?: string[];
  restoredFrom?: number | null;
};

export type ServiceWrite = {
  serviceName?: string;
  serviceType?: string;
  serviceTypes?: string[];
  templateName?: string;
  languageCode?: string;
  forceLogin?: boolean;
  isMonetizationModelEnabled?: boolean;
  domainName?: string;
};

export type BrandWrite = {
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
};

export type BrandValues = {
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
  updatedAt: Date;
};

export type AuditEventValues = {
  at?: Date;
  siteId?: string | null;
  actorUserId?: string | null;
  action: string;
  networkIdentifier?: string | null;
  detail?: Record<string, unknown>;
  objectKind?: string | null;
  objectId?: string | null;
  objectName?: string | null;
  requestId?: string | null;
};

export type AuditLogRow = {
  id: string;
  at: Date;
  siteId: string | null;
  actorUserId: string | null;
  action: string;
  networkIdentifier: string | null;
  detail: Record<string, unknown>;
  seq: number;
  objectKind: string | null;
  objectId: string | null;
  objectName: string | null;
  requestId: string | null;
  actorUsername: string | null;
};

export type AuditLogFilter = {
  actions: readonly string[] | null;
  who: string;
  objectKind: string | null;
  object: string;
  from: Date | null;
  toExclusive: Date | null;
};

export type RevisionRow = {
  at: Date;
  siteId: string;
  networkId: string | null;
  restoredFrom: number | null;
  actorUserId: string | null;
  seq: number;
  objectKind: string;
  objectId: string;
  objectName: string | null;
  requestId: string | null;
  objectVersion: number | null;
  reason: string | null;
  creation: boolean;
  changes: RevisionChange[];
  snapshot: Record<string, unknown> | null;
};

export type RevisionWithActor = {
  at: Date;
  siteId: string;
  networkId: string | null;
  restoredFrom: number | null;
  actorUserId: string | null;
  seq: number;
  objectKind: string;
  objectId: string;
  objectName: string | null;
  requestId: string | null;
  objectVersion: number | null;
  reason: string | null;
  creation: boolean;
  changes: RevisionChange[];
  snapshot: Record<string, unknown> | null;
  actorUsername: string | null;
};

export type RevisionValues = {
  at?: Date;
  siteId: string;
  networkId?: string | null;
  restoredFrom?: number | null;
  actorUserId?: string | null;
  objectKind: string;
  objectId: string;
  objectName?: string | null;
  requestId?: string | null;
  objectVersion?: number | null;
  reason?: string | null;
  creation?: boolean;
  changes: RevisionChange[];
  snapshot?: Record<string, unknown> | null;
};

/** A content item (server/db/content-repository.ts; the availability repository reads the same row). */
export type ContentRow = {
  id: string;
  siteId: string;
  networkId: string | null;
  kind: string;
  title: string;
  titleSearch: string;
  titleWords: string | null;
  description: string;
  genre: string;
  tags: string[];
  durationSeconds: number;
  status: string;
  scheduledAt: Date | null;
  publishedAt: Date | null;
  unpublishAt: Date | null;
  publishJobId: string | null;
  publishJobAt: Date | null;
  unpublishJobId: string | null;
  unpublishJobAt: Date | null;
  countryGroupIds: string[];
  seriesId: string | null;
  seasonNumber: number | null;
  episodeNumber: number | null;
  artworkUrl: string;
  rating: string;
  originalLanguage: string;
  releaseDate: string | null;
  startsAt: Date | null;
  posterUrl: string;
  seasons: { number: number; title: string }[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

/** The columns an edit of an item may write. */
export type ContentChanges = Partial<Pick<ContentRow,
  'title' | 'titleSearch' | 'description' | 'genre' | 'tags' | 'status' | 'scheduledAt' | 'publishedAt' | 'unpublishAt' | 'artworkUrl'
  | 'rating' | 'originalLanguage' | 'releaseDate' | 'posterUrl'>>;

/** The columns an availability write may change. */
export type AvailabilityChanges = Partial<Pick<ContentRow, 'status' | 'scheduledAt' | 'publishedAt' | 'unpublishAt' | 'countryGroupIds'>>;

export type CountryGroupRow = {
  id: string;
  name: string;
  siteId: string;
  countries: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

export type LicenceRow = {
  id: string;
  name: string;
  siteId: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  countryGroupIds: string[];
  startsAt: Date;
  contentId: string;
  endsAt: Date;
};

/** A new item's columns (server/db/content-create-repository.ts). */
export type NewContentRow = Pick<ContentRow, 'siteId' | 'kind' | 'title' | 'titleSearch' | 'genre' | 'durationSeconds' | 'status'>
  & Partial<Omit<ContentRow, 'id' | 'version' | 'titleWords' | 'siteId' | 'kind' | 'title' | 'titleSearch' | 'genre' | 'durationSeconds' | 'status'>>;

/* Monetization (server/db/monetization-repository.ts). */

/** A plan's price in one currency: ISO 4217, minor units (cents). */
export type PlanPrice = { currency: string; amount: number };

export type PlanRow = {
  id: string;
  siteId: string;
  name: string;
  description: string;
  prices: PlanPrice[];
  billingPeriod: string;
  trialDays: number;
  deviceLimit: number;
  status: string;
  priceVersion: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

export type PlanValues = Pick<PlanRow, 'name' | 'description' | 'prices' | 'billingPeriod' | 'trialDays' | 'deviceLimit' | 'status'>;

export type PlanGroupRow = {
  id: string;
  siteId: string;
  name: string;
  description: string;
  position: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

export type PlanGroupWithPlans = PlanGroupRow & { planIds: string[] };

export type OfferRow = {
  id: string;
  siteId: string;
  name: string;
  discountType: string;
  discountValue: number;
  currency: string | null;
  planIds: string[];
  startsAt: Date;
  endsAt: Date | null;
  eligibility: string;
  duration: string;
  durationMonths: number | null;
  status: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

export type OfferValues = Pick<OfferRow, 'name' | 'discountType' | 'discountValue' | 'currency' | 'planIds' | 'startsAt' | 'endsAt' | 'eligibility' | 'status' | 'duration' | 'durationMonths'>;

export type CouponRow = {
  id: string;
  siteId: string;
  offerId: string;
  code: string;
  maxRedemptions: number | null;
  maxPerSubscriber: number;
  expiresAt: Date | null;
  status: string;
  batchId: string | null;
  version: number;
  createdAt: Date;
};

export type CouponWithCount = CouponRow & { offerName: string; offerEndsAt: Date | null; redemptionCount: number; lastRedeemedAt: Date | null };

export type CouponValues = Pick<CouponRow, 'offerId' | 'code' | 'maxRedemptions' | 'maxPerSubscriber' | 'expiresAt' | 'status'>;

export type RedemptionRow = { id: string; siteId: string; couponId: string; subscriberId: string; subscriptionId: string | null; redeemedAt: Date };

export type MonetizationSettingsRow = { isMonetizationModelEnabled: boolean; models: string[]; serviceType: string; version: number };

/** A subscription a plan's new price reaches at its next renewal. */
export type ScheduledRenewalMove = {
  id: string;
  version: number;
  currency: string;
  amount: number;
  renewalPriceVersionBefore: number | null;
  renewalAmountBefore: number;
};

/** A subscription moved to its plan's current price. */
export type AppliedRenewalMove = {
  id: string;
  planId: string;
  amount: number;
  priceVersion: number;
  before: { siteId: string; currency: string; amount: number; priceVersion: number; version: number };
};

export type Page<T> = { items: T[]; total: number };
export type ListQuery = { search: string; status: string; offset: number; limit: number };
export type CouponQuery = ListQuery & { offerId: string };

/* Player events (server/db/ingest-repository.ts). */

/** An accepted event that cannot be placed, kept with its reason (ingest_dead_letters). */
export type DeadLetter = {
  siteId: string;
  eventId: string;
  reason: IngestDeadLetterReason;
  detail: string;
  payload: unknown;
};

export type WriteResult = { written: number; duplicates: number };

/* Customer Support (server/db/support-repository.ts). */

export type SubscriberRecord = {
  id: string;
  siteId: string;
  networkId: string;
  name: string;
  email: string;
  phone: string;
  country: string;
  status: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

export type SubscriptionRecord = {
  id: string;
  siteId: string;
  networkId: string;
  subscriberId: string;
  planId: string;
  status: string;
  startedAt: Date;
  trialEndsAt: Date | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  cancelledAt: Date | null;
  endedAt: Date | null;
  amount: number;
  currency: string;
  couponId: string | null;
  pendingPlanId: string | null;
  nextPaymentAdjustment: number;
  priceVersion: number;
  renewalPriceVersion: number | null;
  version: number;
  updatedAt: Date;
};

export type PaymentRecord = {
  id: string;
  siteId: string;
  networkId: string;
  subscriberId: string;
  subscriptionId: string | null;
  planId: string | null;
  amount: number;
  currency: string;
  status: string;
  method: string;
  at: Date;
  refundedAmount: number;
  version: number;
};

export type SubscriberDeviceRecord = {
  id: string;
  siteId: string;
  subscriberId: string;
  name: string;
  deviceType: string;
  os: string;
  appVersion: string;
  createdAt: Date;
  lastSeenAt: Date;
  signedOutAt: Date | null;
};

export type PlaybackSessionRecord = {
  id: string;
  siteId: string;
  networkId: string;
  subscriberId: string;
  contentId: string;
  deviceId: string | null;
  deviceType: string;
  country: string;
  isp: string;
  cdn: string;
  startedAt: Date;
  lastEventAt: Date;
  endedAt: Date | null;
  watchedSeconds: number;
  startupMs: number;
  rebufferCount: number;
  rebufferSeconds: number;
  avgBitrateKbps: number;
  heartbeatCount: number;
  bitrateKbpsSum: number;
  errorCode: string | null;
  planId: string | null;
};

export type SupportNoteRecord = { id: string; siteId: string; subscriberId: string; authorUserId: string | null; body: string; createdAt: Date };

/** What Customer Support's search selects (server/db/support-repository.ts). */
export type SubscriberSearchFilter = {
  query: string;
  status: string | null;
  state?: 'trialing' | 'paying' | 'past_due' | 'cancelling' | 'cancelled' | 'expired' | null;
  planId?: string | null;
  networkId?: string | null;
  page: number;
  pageSize: number;
  totalCap?: number;
};
