/** Fastify declaration merging for what buildApp decorates. */
import type { AuthContext } from '../domain/auth-context';
import type { Services } from '../composition';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every domain service (db, config, auth, sessions, otp, sms, audit, ...). */
    services: Services;
  }
  interface FastifyRequest {
    /** Set by the onRequest hooks of server/http/auth-hooks.ts (read it with authContextOf). */
    authContext?: AuthContext;
    /** The site of the app key, set by requireAppKey (read it with appKeySiteOf). */
    appKeySiteId?: string;
  }
}

export {};
