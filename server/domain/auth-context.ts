/**
 * Who is calling: `authenticate(request)` reads the bearer token (with or without "Bearer "),
 * verifies the JWT, loads session + user + site in one join, checks revocation, absolute and idle
 * expiry, and the management API key header (xapikey / x-api-key) against the site's key.
 * Any failure is an 'unauthorized' DomainError: 401 `{ success: false, message: 'Unauthorized' }`.
 *
 * Other plugins use it through `app.services.auth.authenticate(request)` or the
 * `requireAuth` preHandler of server/http/auth-hooks.ts (sets `request.authContext`).
 */
import { timingSafeEqual } from 'node:crypto';
import { canContinue, canEdit } from '../../common/roles';
import type { AreaName } from '../../common/constants';
import type { Roles } from '../../common/contract';
import type { SessionCacheBus, SessionRepository } from './ports';
import type { SessionLookupRow, SiteRow, StaffUserRow } from './rows';
import { TOTP_MESSAGES } from '../../common/totp';
import { authenticatorRequired } from '../../common/second-factor-rule';
import { forbidden, unauthorized } from './errors';
import type { SessionRow, SessionStore } from './sessions';
import type { TokenService } from './tokens';

export type { SiteRow, StaffUserRow };
export type AuthUser = Omit<StaffUserRow, 'passwordHash'> & { roles: Roles };

export interface AuthContext {
  user: AuthUser;
  site: SiteRow;
  session: SessionRow;
  /** The user's authenticator app is confirmed. */
  authenticatorEnrolled: boolean;
  /** The site requires an authenticator app and the user has none yet: only enrolment, profile and logout answer. */
  authenticatorEnrolmentDue: boolean;
}

/** Anything with Node-style (lower-cased) headers: a Fastify request, an IncomingMessage. */
export interface HeaderCarrier {
  headers: Record<string, string | string[] | undefined>;
}

export interface AuthenticateOptions {
  /**
   * 'required' (default): the management key header must be present and match.
   * 'optional': checked when present. 'ignored': not read (GET login/info, right after login).
   */
  apiKey?: 'required' | 'optional' | 'ignored';
  /**
   * 'allowed': the route answers a session that still owes its site's required authenticator app
   * (enrolment, profile, session check, logout). Default: such a session gets 403 (SECURITY.md C-TOTP-4).
   */
  authenticatorEnrolment?: 'allowed';
  now?: Date;
}

export interface Authenticator {
  authenticate(request: HeaderCarrier, options?: AuthenticateOptions): Promise<AuthContext>;
  /**
   * Drops cached lookups after a revocation, on this instance at once and on every other instance
   * when the bus delivers the event (PostgreSQL LISTEN/NOTIFY; server/db/cache-bus.ts).
   */
  forgetSession(sessionId: string): void;
  forgetUser(userId: string): void;
  /** Drops cached lookups of a site's sessions (a site setting such as the authenticator requirement changed). */
  forgetSite(siteId: string): void;
}

function header(request: HeaderCarrier, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token of an Authorization header: "Bearer <t>", "bearer <t>" or the raw token. */
export function readBearerToken(request: HeaderCarrier): string | undefined {
  const raw = header(request, 'authorization')?.trim();
  if (!raw) return undefined;
  const match = /^bearer\s+(.+)$/i.exec(raw);
  const token = (match ? match[1] : raw)?.trim();
  return token && token !== 'undefined' && token !== 'null' ? token : undefined;
}

/** The management API key: headers xapikey / x-api-key (xApiKey, XApiKey arrive lower-cased). */
function readApiKey(request: HeaderCarrier): string | undefined {
  const value = (header(request, 'xapikey') ?? header(request, 'x-api-key'))?.trim();
  return value ? value : undefined;
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Spec §6: continue with read/write/contributor; edit with write/contributor. */
export function hasAreaAccess(roles: Roles, area: AreaName, need: 'continue' | 'edit'): boolean {
  return need === 'edit' ? canEdit(roles, area) : canContinue(roles, area);
}

/** Bound on cached lookups; past it the cache starts afresh rather than grow. */
const MAX_CACHED_SESSIONS = 10_000;

export function createAuthenticator(deps: { store: Pick<SessionRepository, 'lookup'>; tokens: TokenService; sessions: SessionStore; cacheMs?: number; bus: SessionCacheBus }): Authenticator {
  const { store, tokens } = deps;
  const cacheMs = deps.cacheMs ?? 0;
  const { bus } = deps;
  type LookupRow = SessionLookupRow;
  // A very short cache of lookups keeps simple reads well under a millisecond of server time; every
  // check (revoked, expired, idle, key) still runs on each call against the cached row. Revocations
  // on other instances arrive on the bus (server/db/cache-bus.ts); while its listener is down
  // nothing is cached.
  const cache = new Map<string, { row: LookupRow; at: number }>();
  // Bumped by every forget: a lookup that started before one does not store its (possibly older) row.
  let epoch = 0;

  async function lookup(sessionId: string, nowMs: number): Promise<LookupRow | undefined> {
    const caching = cacheMs > 0 && bus.listening;
    const hit = caching ? cache.get(sessionId) : undefined;
    if (hit && nowMs - hit.at < cacheMs) return hit.row;
    const started = epoch;
    const row = await store.lookup(sessionId);
    if (row && caching && started === epoch && bus.listening) {
      if (cache.size >= MAX_CACHED_SESSIONS) cache.clear();
      cache.set(sessionId, { row, at: nowMs });
    }
    return row;
  }

  const drop = {
    session(sessionId: string) {
      epoch++;
      cache.delete(sessionId);
    },
    user(userId: string) {
      epoch++;
      for (const [id, entry] of cache) if (entry.row.user.id === userId) cache.delete(id);
    },
    site(siteId: string) {
      epoch++;
      for (const [id, entry] of cache) if (entry.row.site.id === siteId) cache.delete(id);
    },
  };
  bus.subscribe({
    event(event) {
      if (event.kind === 'session') drop.session(event.id);
      else if (event.kind === 'user') drop.user(event.id);
      else if (event.kind === 'site-sessions') drop.site(event.id);
    },
    reset() {
      epoch++;
      cache.clear();
    },
  });

  return {
    forgetSession(sessionId) {
      drop.session(sessionId);
      bus.publish({ kind: 'session', id: sessionId });
    },
    forgetUser(userId) {
      drop.user(userId);
      bus.publish({ kind: 'user', id: userId });
    },
    forgetSite(siteId) {
      drop.site(siteId);
      bus.publish({ kind: 'site-sessions', id: siteId });
    },
    async authenticate(request, options = {}) {
      const now = options.now ?? new Date();
      const token = readBearerToken(request);
      if (!token) throw unauthorized();
      const claims = await tokens.verify(token);
      if (!claims) throw unauthorized();
      const apiKeyMode = options.apiKey ?? 'required';
      const apiKey = apiKeyMode === 'ignored' ? undefined : readApiKey(request);
      if (apiKeyMode === 'required' && !apiKey) throw unauthorized();

      const row = await lookup(claims.sid, now.getTime());
      if (!row) throw unauthorized();
      const { session, user, site } = row;
      if (user.id !== claims.sub || site.siteInternalName !== claims.site || user.disabled) throw unauthorized();
      if (deps.sessions.invalidReason(session, now)) throw unauthorized();
      if (apiKey !== undefined && !safeEqual(apiKey, site.managementApiKey)) throw unauthorized();

      const authenticatorEnrolled = row.authenticatorConfirmedAt !== null && row.authenticatorConfirmedAt !== undefined;
      const authenticatorEnrolmentDue = authenticatorRequired(site.secondFactorRule) && !authenticatorEnrolled;
      if (authenticatorEnrolmentDue && options.authenticatorEnrolment !== 'allowed') throw forbidden(TOTP_MESSAGES.enrolmentRequired);

      if (await deps.sessions.touch(session, now)) row.session = { ...session, lastSeenAt: now };
      const { passwordHash: _omit, ...rest } = user;
      void _omit;
      return { user: { ...rest, roles: rest.roles as Roles }, site, session, authenticatorEnrolled, authenticatorEnrolmentDue };
    },
  };
}
