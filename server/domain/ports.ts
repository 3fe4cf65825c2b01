/**
 * The ports of the rules (issue 39): the repositories server/domain/ needs, declared here as the
 * domain sees them. server/db/ implements them (its create*Repository functions) and the
 * composition root (server/composition.ts) hands them in; server/domain/ never imports server/db/
 * (lint: eslint.config.js). Transactions: `transaction(work)` runs `work` over a store bound to one
 * transaction (a write, its revision and its audit entry commit together).
 */
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import type { RevisionChange } from '../../common/revisions';
import type { SecondFactorState } from '../../common/second-factor-rule';
import type {
  AuditEventValues, AuditLogFilter, AuditLogRow, BrandValues, BrandWrite, NetworkBrandRow, NetworkDevicesRow, NetworkRow, NetworkSettingsRow,
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
