/**
 * The ports of the rules (issue 39): the repositories server/domain/ needs, declared here as the
 * domain sees them. server/db/ implements them (its create*Repository functions) and the
 * composition root (server/composition.ts) hands them in; server/domain/ never imports server/db/
 * (lint: eslint.config.js). Transactions: `transaction(work)` runs `work` over a store bound to one
 * transaction (a write, its revision and its audit entry commit together).
 */
import type { ContentFamilyEpisode, ContentItem, ContentKind, ContentQosSummary, ContentSort, ContentStatus, ContentSummary } from '../../common/content';
import type { CountryGroup, Licence } from '../../common/content-availability';
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import type { QueuedBatch } from './ingest-queue';
import type { RevisionChange } from '../../common/revisions';
import type { SecondFactorState } from '../../common/second-factor-rule';
import type {
  AppliedRenewalMove, AuditEventValues, DeadLetter, PaymentRecord, PlaybackSessionRecord, SubscriberDeviceRecord, SubscriberRecord, SubscriberSearchFilter,
  SubscriptionRecord, SupportNoteRecord, WriteResult, AuditLogFilter, AuditLogRow, AvailabilityChanges, ContentChanges, ContentRow, CouponQuery, CouponRow, CouponValues,
  CouponWithCount, CountryGroupRow, LicenceRow, ListQuery, MonetizationSettingsRow, NewContentRow, OfferRow, OfferValues, Page, PlanGroupWithPlans, PlanRow,
  PlanValues, RedemptionRow, RevisionWithActor, ScheduledRenewalMove, BrandValues, BrandWrite, NetworkBrandRow, NetworkDevicesRow, NetworkRow, NetworkSettingsRow,
  OtpCodeRow, ResetTokenRow, RevisionRow, RevisionValues, ServiceSnapshot, ServiceWrite, SessionLookupRow, SessionRow, SettingsVersionInsert,
  SettingsVersionRow, SiteRow, StaffPage, StaffRecord, StaffUserInsert, StaffUserRow, TotpFactorRow, UserWithSite,
} from './rows';

/** A network's settings: key → value. */
type SettingsValues = Record<string, string | number | boolean>;

export interface SessionRepository {
  insert(values: Pick<SessionRow, 'createdAt' | 'userId' | 'deviceId' | 'ipAddress' | 'userAgent' | 'lastSeenAt' | 'expiresAt'>): Promise<SessionRow>;
  lookup(sessionId: string): Promise<SessionLookupRow | undefined>;
  setLastSeen(sessionId: string, at: Date): Promise<void>;
  revoke(sessionId: string, at: Date): Promise<void>;
  revokeAllForUser(userId: string, exceptSessionId: string | undefined, at: Date): Promise<number>;
}

export interface AccountRepository {
  totp: TotpRepository;
  byUsername(username: string): Promise<UserWithSite | undefined>;
  byIdentity(provider: string, providerUserId: string): Promise<UserWithSite | undefined>;
  byEmail(email: string, limit: number): Promise<UserWithSite[]>;
  linkIdentity(provider: string, providerUserId: string, userId: string): Promise<void>;
  insertResetToken(values: Pick<ResetTokenRow, 'createdAt' | 'userId' | 'expiresAt' | 'tokenHash'> & Partial<Pick<ResetTokenRow, 'purpose'>>): Promise<void>;
  resetTokenByHash(tokenHash: string): Promise<(Pick<ResetTokenRow, 'expiresAt' | 'purpose' | 'usedAt'> & { tokenId: string; user: StaffUserRow; }) | undefined>;
  changePasswordWithToken(input: { tokenId: string; userId: string; passwordHash: string; now: Date; }): Promise<boolean>;
}

export interface OtpRepository {
  replaceLiveCode(code: Pick<OtpCodeRow, 'createdAt' | 'userId' | 'deviceId' | 'expiresAt' | 'purpose' | 'codeHash'>): Promise<void>;
  reserveTry(input: { userId: string; purpose: string; now: Date; maxTries: number; }): Promise<Pick<OtpCodeRow, 'id' | 'deviceId' | 'codeHash'> | undefined>;
  consume(id: string, now: Date): Promise<boolean>;
  newest(userId: string, purpose: string): Promise<Pick<OtpCodeRow, 'createdAt' | 'deviceId' | 'expiresAt' | 'wrongAttempts' | 'consumedAt'> | undefined>;
}

export interface TotpRepository {
  factorOf(userId: string): Promise<TotpFactorRow | undefined>;
  savePending(userId: string, secretEncrypted: string, now: Date): Promise<void>;
  markConfirmed(userId: string, step: number, now: Date): Promise<boolean>;
  claimStep(userId: string, step: number): Promise<boolean>;
  replaceRecoveryCodes(userId: string, hashes: string[], now: Date): Promise<void>;
  useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean>;
  unusedRecoveryCount(userId: string): Promise<number>;
  remove(userId: string): Promise<void>;
}

export interface RateLimitRepository {
  countHit(key: string, windowStart: Date): Promise<number>;
  claimBudget(key: string, windowStart: Date, units: number, limit: number): Promise<number>;
  takeCooldown(key: string, now: Date, cutoff: Date): Promise<{ count: number; windowStart: Date; } | undefined>;
  takeBackoffSlot(key: string, now: Date, rule: { freeAttempts: number; baseSeconds: number; maxSeconds: number; }): Promise<number | undefined>;
  increment(key: string, now: Date): Promise<number>;
  refund(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface AuditLogRepository {
  list(siteId: string, filter: AuditLogFilter, page: { offset: number; limit: number; }): Promise<{ rows: AuditLogRow[]; total: number; }>;
  revisionsOfRequests(siteId: string, requestIds: readonly string[]): Promise<{ requestId: string | null; actorUserId: string | null; objectKind: string; objectId: string; seq: number; changes: RevisionChange[]; }[]>;
  namesOf(siteId: string, ids: readonly string[]): Promise<Map<string, { name: string; contentKind?: string; }>>;
}

export interface NetworkStore {
  site(siteId: string, name: string): Promise<SiteRow | undefined>;
  serviceOf(siteId: string): Promise<{ site: SiteRow; networks: NetworkRow[]; } | undefined>;
  network(siteId: string, identifier: string): Promise<NetworkRow | undefined>;
  networksOf(siteId: string): Promise<NetworkRow[]>;
  defaultNetwork(siteId: string): Promise<NetworkRow | undefined>;
  setActive(networkId: string, isActive: boolean): Promise<NetworkRow | undefined>;
  brand(networkId: string): Promise<NetworkBrandRow | undefined>;
  saveBrand(networkId: string, values: BrandValues): Promise<void>;
  settings(networkId: string): Promise<NetworkSettingsRow | undefined>;
  saveSettings(networkId: string, values: Record<string, string | number | boolean>, updatedAt: Date): Promise<void>;
  devices(networkId: string): Promise<NetworkDevicesRow | undefined>;
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
  audit(values: Omit<AuditEventValues, 'at'>): Promise<void>;
}

export interface NetworkRepository extends NetworkStore {
  /** The per-site cache of the service and its networks (server/db/service-cache.ts). */
  cache: ServiceCachePort;
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: NetworkStore) => Promise<T>): Promise<T>;
}

export interface AppcmsStore {
  service(siteId: string): Promise<SiteRow | undefined>;
  saveService(siteId: string, version: number, values: ServiceWrite): Promise<SiteRow | undefined>;
  rotateSigningKey(siteId: string, key: string, at: Date): Promise<SiteRow | undefined>;
  saveBrand(networkId: string, version: number, values: BrandWrite, at: Date): Promise<{ networkId: string; logoUrl: string; iconUrl: string; theme: ThemeColors; themeOtt: ThemeColors; themeApps: ThemeColors; version: number; updatedAt: Date; } | undefined>;
  settings(networkId: string): Promise<{ networkId: string; values: Record<string, string | number | boolean>; version: number; updatedAt: Date; } | undefined>;
  saveSettings(networkId: string, version: number, values: SettingsValues, at: Date): Promise<{ networkId: string; values: Record<string, string | number | boolean>; version: number; updatedAt: Date; } | undefined>;
  devices(networkId: string): Promise<{ networkId: string; devices: DeviceEntry[]; version: number; updatedAt: Date; } | undefined>;
  saveDevices(networkId: string, version: number, devices: DeviceEntry[], at: Date): Promise<{ networkId: string; devices: DeviceEntry[]; version: number; updatedAt: Date; } | undefined>;
  settingsVersions(networkId: string): Promise<SettingsVersionRow[]>;
  settingsVersion(networkId: string, version: number): Promise<SettingsVersionRow | undefined>;
  appendSettingsVersion(values: Omit<SettingsVersionInsert, 'id'>): Promise<void>;
  keepSettingsVersion(values: Omit<SettingsVersionInsert, 'id'>): Promise<void>;
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
  audit(values: Omit<AuditEventValues, 'at'>): Promise<void>;
  recordFile(siteId: string, key: string): Promise<void>;
  fileHold(siteId: string, key: string): Promise<'scoped' | 'legacy' | undefined>;
  isLegacyFile(key: string): Promise<boolean>;
  mayReferenceFile(siteId: string, ref: { siteId?: string; key: string; }): Promise<boolean>;
}

export interface AppcmsRepository extends AppcmsStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: AppcmsStore) => Promise<T>): Promise<T>;
}

export interface StaffAdminStore {
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
  audit(values: AuditEventValues): Promise<void>;
  listStaff(siteId: string, query: { search: string; offset: number; limit: number; }, now?: Date): Promise<StaffPage>;
  findStaff(siteId: string, id: string, now?: Date): Promise<{ lastSeenAt: Date | null; activeSessions: number; id: string; siteId: string; username: string; email: string; displayName: string; phoneNumber: string; twoFactorOnLogin: boolean; roles: Record<string, string>; disabled: boolean; createdAt: Date; version: number; } | undefined>;
  siteOfUsername(username: string): Promise<string | undefined>;
  insertStaff(values: StaffUserInsert): Promise<StaffRecord>;
  updateStaff(siteId: string, id: string, version: number, changes: Partial<StaffUserInsert>): Promise<StaffRecord | undefined>;
  countOtherAdminEditors(siteId: string, exceptId: string): Promise<number>;
  listActiveSessions(userId: string, now?: Date): Promise<SessionRow[]>;
  revokeSessions(userId: string, now?: Date): Promise<number>;
  revokeSession(userId: string, sessionId: string, now?: Date): Promise<boolean>;
  issueSetPasswordToken(userId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<void>;
  findSetPasswordToken(tokenHash: string, now?: Date): Promise<{ tokenId: string; user: StaffUserRow; } | undefined>;
  consumeSetPasswordToken(tokenId: string, userId: string, passwordHash: string, now?: Date): Promise<boolean>;
  voidOtpCodes(userId: string, now?: Date): Promise<void>;
  secondFactorRuleOf(siteId: string): Promise<'optional' | 'required' | 'authenticator'>;
  secondFactorStateOf(siteId: string, callerId: string): Promise<SecondFactorState>;
  setSecondFactorRule(siteId: string, rule: 'optional' | 'required' | 'authenticator'): Promise<number>;
  listAudit(siteId: string, query: { who: string; action: string; from: Date | null; toExclusive: Date | null; offset: number; limit: number; }): Promise<{ rows: AuditLogRow[]; total: number; }>;
}

export interface StaffAdminRepository extends StaffAdminStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: StaffAdminStore) => Promise<T>): Promise<T>;
}

/** What the rules use of the service cache (server/db/service-cache.ts): read through it, drop a site's entry after a write. */
export interface ServiceCachePort {
  snapshot(siteId: string, load: () => Promise<ServiceSnapshot | undefined>): Promise<ServiceSnapshot | undefined>;
  networkData<K extends keyof NetworkDataRows>(siteId: string, kind: K, networkId: string, load: () => Promise<NetworkDataRows[K] | undefined>): Promise<NetworkDataRows[K] | undefined>;
  invalidateSite(siteId: string): void;
}

/** A network's brand, settings or devices row, by the cache's name for it. */
export interface NetworkDataRows {
  brand: NetworkBrandRow;
  settings: NetworkSettingsRow;
  device: NetworkDevicesRow;
}

/** An invalidation the session lookups send to, and take from, the other instances. */
export type SessionCacheEvent = { kind: 'session' | 'user' | 'site-sessions'; id: string };

/**
 * What the session lookups use of the cache bus (server/db/cache-bus.ts: LISTEN/NOTIFY on
 * PostgreSQL, local on PGlite): tell the other instances, hear them, and whether the listener is up.
 */
export interface SessionCacheBus {
  /** Tells every other instance (never this one's own handlers). Never throws. */
  publish(event: SessionCacheEvent): void;
  /** `event`: another instance's event (the bus may carry other kinds too); `reset`: events may have been missed. */
  subscribe(handler: { event(event: { kind: string; id: string }): void; reset(): void }): () => void;
  /** False while the listener is disconnected: the lookups must not answer from memory then. */
  readonly listening: boolean;
}

/** Which site holds which stored upload (issue 37, server/db/upload-files-repository.ts). */
export interface SiteFiles {
  recordSiteFile(siteId: string, key: string): Promise<void>;
  siteMayReference(siteId: string, ref: { siteId?: string; key: string }): Promise<boolean>;
}

/** The audit row and the revision of a write, in the write's transaction (server/db/audit-repository.ts, revision-repository.ts). */
export interface AuditAndRevisions {
  insertAuditEvent(values: AuditEventValues): Promise<void>;
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
}

/** An item's licences, for the licence rule of publishing (server/domain/content-availability.ts). */
export interface LicenceReads {
  licencesOfItems(siteId: string, contentIds: string[]): Promise<LicenceRow[]>;
}

/** The content library (server/db/content-repository.ts), with what a write records beside it. */
export interface ContentStore extends AuditAndRevisions, LicenceReads, Pick<SiteFiles, 'siteMayReference'> {
  listContent(filter: {
    siteId: string; kind?: ContentKind; status?: ContentStatus; q: string; sort: ContentSort; start: number; limit: number; max: number; now: Date;
  }): Promise<{ items: ContentSummary[]; total: number }>;
  findContent(siteId: string, id: string): Promise<ContentRow | undefined>;
  contentStats(siteId: string, id: string, now: Date): Promise<{ plays30d: number; playsByDay: { day: string; plays: number }[]; qos: ContentQosSummary }>;
  updateContent(siteId: string, id: string, version: number, changes: ContentChanges, now: Date): Promise<ContentRow | undefined>;
  bulkSetStatus(siteId: string, items: { id: string; version: number }[], status: ContentStatus, now: Date): Promise<
    { conflict: true; missing: string[] } | { conflict: false; before: ContentRow[]; after: ContentRow[] }>;
}

export interface ContentRepository extends ContentStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: ContentStore) => Promise<T>): Promise<T>;
  /** An item as the wire carries it, with its plays. */
  toItem(row: ContentRow, plays30d: number): ContentItem;
}

/** What the "all matching" bulk status selects (server/db/availability-repository.ts). */
export interface MatchingFilter {
  siteId: string;
  kind?: ContentKind;
  status?: ContentStatus;
  q: string;
}

/** Availability, country groups and licences (server/db/availability-repository.ts). */
export interface AvailabilityStore extends AuditAndRevisions, LicenceReads {
  listCountryGroups(siteId: string): Promise<CountryGroup[]>;
  findCountryGroup(siteId: string, id: string): Promise<CountryGroup | undefined>;
  countryGroupNameTaken(siteId: string, name: string, exceptId?: string): Promise<boolean>;
  insertCountryGroup(siteId: string, values: { name: string; countries: string[] }, at: Date): Promise<CountryGroupRow>;
  updateCountryGroup(siteId: string, id: string, version: number, values: { name?: string; countries?: string[] }, at: Date): Promise<CountryGroupRow | undefined>;
  deleteCountryGroup(siteId: string, id: string, version: number): Promise<boolean>;
  countCountryGroups(siteId: string, ids: string[]): Promise<number>;
  listLicences(siteId: string, contentId?: string): Promise<Licence[]>;
  findLicence(siteId: string, id: string): Promise<Licence | undefined>;
  insertLicence(siteId: string, values: { contentId: string; name: string; startsAt: Date; endsAt: Date; countryGroupIds: string[] }, at: Date): Promise<LicenceRow>;
  updateLicence(siteId: string, id: string, version: number, values: Partial<Pick<LicenceRow, 'name' | 'countryGroupIds' | 'startsAt' | 'endsAt'>>, at: Date): Promise<LicenceRow | undefined>;
  deleteLicence(siteId: string, id: string, version: number): Promise<boolean>;
  findItem(siteId: string, id: string, lock?: boolean): Promise<ContentRow | undefined>;
  updateAvailability(siteId: string, id: string, version: number, changes: AvailabilityChanges, at: Date): Promise<ContentRow | undefined>;
  lockMatching(filter: MatchingFilter, limit: number): Promise<ContentRow[]>;
  setStatusOf(siteId: string, ids: string[], status: 'published' | 'unpublished', at: Date): Promise<ContentRow[]>;
}

export interface AvailabilityRepository extends AvailabilityStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: AvailabilityStore) => Promise<T>): Promise<T>;
}

/** The publish at / unpublish at jobs' rows (server/db/availability-repository.ts). */
export interface SchedulerStore extends AuditAndRevisions, LicenceReads {
  findItem(siteId: string, id: string, lock?: boolean): Promise<ContentRow | undefined>;
  setJob(siteId: string, id: string, which: 'publish' | 'unpublish', previous: string | null, next: { id: string | null; at: Date | null }): Promise<boolean>;
  itemsWithSchedules(limit: number): Promise<Pick<ContentRow, 'id' | 'siteId' | 'publishJobId' | 'publishJobAt' | 'unpublishJobId' | 'unpublishJobAt'>[]>;
  existingJobIds(queue: string, ids: string[]): Promise<Set<string>>;
  clearJob(row: Pick<ContentRow, 'id' | 'siteId'>, which: 'publish' | 'unpublish'): Promise<void>;
  applyScheduledPublish(row: ContentRow, at: Date, refused: boolean): Promise<ContentRow>;
  applyScheduledUnpublish(row: ContentRow, at: Date): Promise<ContentRow>;
}

export interface SchedulerRepository extends SchedulerStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: SchedulerStore) => Promise<T>): Promise<T>;
}

/** The database the content jobs (pg-boss) run on (server/db/client.ts's DbHandle). */
export interface JobDatabase {
  driver: 'pglite' | 'postgres';
  /** The embedded PGlite (driver 'pglite'): pg-boss runs its statements through it. */
  pglite?: { query(text: string, values?: unknown[]): Promise<unknown>; exec(text: string): Promise<unknown[]> };
  /** The PostgreSQL connection string (driver 'postgres'): pg-boss opens its own pool. */
  connectionString?: string;
  /** Runs `fn` under the database's start-up lock (not re-entrant). */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}

/** Creating content and its artwork, an item's family (server/db/content-create-repository.ts). */
export interface ContentCreateStore extends AuditAndRevisions, SiteFiles {
  insertContent(values: NewContentRow): Promise<ContentRow>;
  findContent(siteId: string, id: string): Promise<ContentRow | undefined>;
  findSeries(siteId: string, id: string): Promise<ContentRow | undefined>;
  episodeSeasons(siteId: string, seriesId: string): Promise<number[]>;
  episodeTaken(siteId: string, seriesId: string, season: number, episode: number): Promise<boolean>;
  seriesEpisodes(siteId: string, seriesId: string): Promise<ContentFamilyEpisode[]>;
}

export interface ContentCreateRepository extends ContentCreateStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: ContentCreateStore) => Promise<T>): Promise<T>;
  /** An item as the wire carries it, with its plays. */
  toItem(row: ContentRow, plays30d: number): ContentItem;
}

/** Plans, plan groups, offers, coupons and the settings (server/db/monetization-repository.ts). */
export interface MonetizationStore {
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
  insertRevisions(values: readonly RevisionValues[]): Promise<RevisionRow[]>;
  /** An audit row (its detail scrubbed, stamped with the request and a restore). */
  writeAudit(event: { action: string; actorUserId: string; siteId: string; detail: Record<string, unknown>; objectKind?: string; objectId?: string; objectName?: string | null }): Promise<void>;
  siteSettings(siteId: string): Promise<MonetizationSettingsRow | undefined>;
  updateSiteSettings(siteId: string, version: number, values: Omit<MonetizationSettingsRow, 'version'>): Promise<MonetizationSettingsRow | undefined>;
  listPlans(siteId: string, query: ListQuery): Promise<Page<PlanRow>>;
  findPlan(siteId: string, id: string): Promise<PlanRow | undefined>;
  sitePlanIds(siteId: string, ids: string[], status?: string): Promise<Set<string>>;
  insertPlan(siteId: string, values: PlanValues): Promise<PlanRow>;
  updatePlan(siteId: string, id: string, version: number, values: Partial<PlanValues> & { priceVersion?: number }): Promise<PlanRow | undefined>;
  deletePlan(siteId: string, id: string, version: number): Promise<boolean>;
  subscriptionCounts(siteId: string, planIds: string[]): Promise<Map<string, number>>;
  priceVersionCounts(siteId: string, planIds: string[]): Promise<Map<string, { live: number; payingSubscribers: number; oldPrice: number; moving: number }>>;
  keepPriceVersion(siteId: string, planId: string, version: number, prices: PlanRow['prices']): Promise<void>;
  scheduleRenewalMoves(siteId: string, planId: string, priceVersion: number): Promise<ScheduledRenewalMove[]>;
  applyRenewalMoves(now: Date, siteId?: string): Promise<AppliedRenewalMove[]>;
  planInUse(siteId: string, planId: string): Promise<boolean>;
  listPlanGroups(siteId: string): Promise<PlanGroupWithPlans[]>;
  findPlanGroup(siteId: string, id: string): Promise<PlanGroupWithPlans | undefined>;
  insertPlanGroup(siteId: string, values: { name: string; description: string; planIds: string[] }): Promise<PlanGroupWithPlans>;
  updatePlanGroup(siteId: string, id: string, version: number, values: { name: string; description: string; planIds: string[] }): Promise<PlanGroupWithPlans | undefined>;
  setPlanGroupPosition(siteId: string, id: string, version: number, position: number): Promise<boolean>;
  listOffers(siteId: string, query: ListQuery): Promise<Page<OfferRow>>;
  findOffer(siteId: string, id: string): Promise<OfferRow | undefined>;
  insertOffer(siteId: string, values: OfferValues): Promise<OfferRow>;
  updateOffer(siteId: string, id: string, version: number, values: OfferValues): Promise<OfferRow | undefined>;
  listCoupons(siteId: string, query: CouponQuery): Promise<Page<CouponWithCount>>;
  allCoupons(siteId: string, query: Omit<CouponQuery, 'limit' | 'offset'>): Promise<CouponWithCount[]>;
  findCoupon(siteId: string, id: string): Promise<CouponWithCount | undefined>;
  insertCoupon(siteId: string, values: CouponValues): Promise<CouponRow | undefined>;
  codeTaken(siteId: string, code: string, exceptId?: string): Promise<boolean>;
  updateCoupon(siteId: string, id: string, version: number, values: CouponValues): Promise<CouponRow | undefined>;
  setCouponStatus(siteId: string, id: string, version: number, status: string): Promise<CouponRow | undefined>;
  lockCouponByCode(siteId: string, code: string): Promise<{ coupon: CouponRow; offer: OfferRow } | undefined>;
  redemptionCounts(couponId: string, subscriberId: string): Promise<{ total: number; bySubscriber: number }>;
  siteSubscriberExists(siteId: string, subscriberId: string): Promise<boolean>;
  insertRedemption(values: { siteId: string; couponId: string; subscriberId: string; redeemedAt: Date }): Promise<RedemptionRow>;
  insertBatchCodes(siteId: string, batchId: string, codes: string[], values: Omit<CouponValues, 'status' | 'code'>): Promise<string[]>;
}

export interface MonetizationRepository extends MonetizationStore {
  /** Runs `work` in one transaction over a store bound to it. */
  transaction<T>(work: (tx: MonetizationStore) => Promise<T>): Promise<T>;
  /** The per-site service cache: the settings save changes what serviceGet answers. */
  cache: Pick<ServiceCachePort, 'invalidateSite'>;
}

/** One object's history, a request's revisions, and the one transaction of a restore or an undo (server/db/revision-repository.ts). */
export interface RevisionHistoryStore {
  listRevisions(siteId: string, kind: string, objectId: string, page: { offset: number; limit: number }): Promise<{ rows: RevisionWithActor[]; total: number }>;
  findRevision(siteId: string, seq: number): Promise<RevisionWithActor | undefined>;
  findRevisions(siteId: string, seqs: readonly number[]): Promise<RevisionWithActor[]>;
  requestRevisions(siteId: string, actorUserId: string, requestId: string, since: Date): Promise<RevisionWithActor[]>;
  /** The newest revision's number of each object, keyed by `objectKey(kind, id)`. */
  latestRevisionSeqs(siteId: string, objects: readonly { kind: string; objectId: string }[]): Promise<Map<string, number>>;
  objectKey(kind: string, objectId: string): string;
  /** Runs `work` in one transaction every service's write joins (server/db/ambient-transaction.ts). */
  inOneTransaction<T>(work: () => Promise<T>): Promise<T>;
  cache: Pick<ServiceCachePort, 'invalidateSite'>;
}

/** Sessions a consumer knows are written, by site and session id (lower case). */
export interface KnownSessions {
  has(siteId: string, sessionId: string): boolean;
  add(siteId: string, sessionId: string): void;
}

/**
 * A consumer process's session state in memory (server/db/ingest-session-counters.ts): the starts and
 * ends of the sessions it wrote or looked up, and the heartbeats written that their rows are owed.
 */
export interface SessionCountersPort {
  /** Sessions whose rows are owed heartbeats (written by applySessionCounters). */
  readonly pendingSessions: number;
  /** Forgets the starts and ends it knows (the process takes partitions another may have written); keeps what rows are owed. */
  forgetKnown(): void;
}

/** What the consumers and the fold worker write and read (server/db/ingest-repository.ts, raw-history.ts). */
export interface IngestStore {
  /** A fresh memory of written sessions (bounded in size and age). */
  newWrittenSessions(): KnownSessions;
  /** A fresh session state for a consumer process (writeBatches with it leaves the heartbeats' counters to applySessionCounters). */
  newSessionCounters(): SessionCountersPort;
  /** Writes what the sessions' rows are owed and marks their rollup slices; nothing (and everything kept) on failure. */
  applySessionCounters(counters: SessionCountersPort): Promise<number>;
  /** Adds to `known` the sessions the batches' heartbeats and ends name that are written. */
  lookUpWrittenSessions(batches: QueuedBatch[], known: KnownSessions): Promise<void>;
  /** The batches (by index) that must wait for a session start neither written nor carried by the group. */
  waitingBatches(batches: QueuedBatch[], written: KnownSessions): Set<number>;
  /** The sessions of `batch` whose start is nowhere. */
  sessionsWithoutStart(batch: QueuedBatch, group: QueuedBatch[], written: KnownSessions): Set<string>;
  recordDeadLetters(letters: DeadLetter[]): Promise<number>;
  writeBatches(batches: QueuedBatch[], known?: KnownSessions, counters?: SessionCountersPort): Promise<WriteResult>;
  foldDirtySlices(limit: number): Promise<number>;
  dirtySliceCount(): Promise<number>;
  runIngestMaintenance(settings: { retentionDays: number; sessionStartDays: number }, now?: Date): Promise<{ dropped: string[]; keptFrom: string }>;
}

/** Customer Support's subscribers, subscriptions, payments and notes (server/db/support-repository.ts). */
export interface SubscriberStore {
  search(siteId: string, filter: SubscriberSearchFilter): Promise<{ rows: SubscriberRecord[]; total: number; totalIsCapped: boolean }>;
  filterOptions(siteId: string): Promise<{ plans: { id: string; name: string }[]; networks: { id: string; identifier: string; name: string }[] }>;
  subscriber(siteId: string, id: string): Promise<(SubscriberRecord & { networkName: string }) | undefined>;
  subscriptionsOf(siteId: string, subscriberId: string): PromiseLike<{ subscription: SubscriptionRecord; planName: string; billingPeriod: string; renewalPrices: PlanRow['prices'] | null }[]>;
  paymentsOf(siteId: string, subscriberId: string, limit: number): PromiseLike<{ payment: PaymentRecord; planName: string | null }[]>;
  devicesOf(siteId: string, subscriberId: string): Promise<SubscriberDeviceRecord[]>;
  playbackOf(siteId: string, subscriberId: string, limit: number): PromiseLike<{ session: PlaybackSessionRecord; contentTitle: string }[]>;
  notesOf(siteId: string, subscriberId: string, limit: number): PromiseLike<{ note: SupportNoteRecord; authorName: string | null }[]>;
  subscriptionsOfMany(siteId: string, subscriberIds: string[]): PromiseLike<{ subscriberId: string; planName: string; status: string; cancelAtPeriodEnd: boolean; endedAt: Date | null; startedAt: Date }[]>;
  activePlans(siteId: string): Promise<PlanRow[]>;
  plan(siteId: string, id: string): Promise<PlanRow | undefined>;
  payment(siteId: string, id: string): Promise<PaymentRecord | undefined>;
  updatePayment(id: string, version: number, changes: Partial<PaymentRecord>): Promise<PaymentRecord | undefined>;
  insertRefund(values: { siteId: string; networkId: string; subscriberId: string; amount: number; currency: string; paymentId: string; reason: string; id?: string; at?: Date; planId?: string | null; actorUserId?: string | null }): Promise<string>;
  subscription(siteId: string, id: string): Promise<SubscriptionRecord | undefined>;
  updateSubscription(id: string, version: number, changes: Partial<SubscriptionRecord>, now: Date): Promise<SubscriptionRecord | undefined>;
  bumpSubscriberVersion(id: string, version: number, now: Date): Promise<boolean>;
  signOutDevices(siteId: string, subscriberId: string, deviceIds: string[], now: Date): Promise<{ id: string }[]>;
  insertNote(values: { siteId: string; subscriberId: string; authorUserId: string; body: string; createdAt: Date }): Promise<string>;
  insertRevision(values: RevisionValues): Promise<RevisionRow>;
  audit(values: Omit<AuditEventValues, 'at'>): Promise<void>;
}

/** The store bound to one transaction: it also refreshes the rollups of the days a write moves, in that transaction. */
export interface SubscriberTransactionStore extends SubscriberStore {
  /** The zone the site's rollups count days in (its profile's, UTC when unknown). */
  siteTimeZone(siteId: string): Promise<string>;
  /** Recomputes the rollups of the site's days [day, lastDay] exactly as given (the domain names them: server/domain/support.ts). */
  refreshRollups(siteId: string, day: string, lastDay?: string): Promise<void>;
}

export interface SubscriberRepository extends SubscriberStore {
  /** Runs `work` in one transaction (run again, whole, after a deadlock or serialisation failure). */
  transaction<T>(work: (tx: SubscriberTransactionStore) => Promise<T>): Promise<T>;
}
