/**
 * POST /v1/coupons/redeem (issue 30): a customer's redemption of a coupon code, called by the site's
 * apps with the site's app key (header x-ingestion-key, the key the players send events with), never
 * by a staff token. The rules are server/domain/monetization.ts's redeemCoupon: a disabled, expired
 * or used-up code is refused with `{ success: false, message }` and nothing is written.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { INGEST_KEY_HEADER, UUID_PATTERN } from '../../common/ingest-contract';
import { COUPON_CODE_MAX } from '../../common/monetization-rules';
import { COUPON_REDEEM_PATH, type CouponRedeemAnswer, type CouponRedeemRequest } from '../../common/monetization-contract';
import { OWN_MESSAGES } from '../../common/messages';
import { INGEST_KEY_FAILURES_PER_IP } from '../domain/rate-limit';
import { answers } from './response-schemas';

const str = { type: 'string' } as const;
const REDEMPTION = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    redemption: {
      type: 'object',
      properties: {
        id: str, code: str, offerId: str, discountType: str, discountValue: { type: 'number' }, currency: { type: ['string', 'null'] },
        duration: str, durationMonths: { type: ['number', 'null'] }, planIds: { type: 'array', items: str }, redeemedAt: str,
      },
    },
  },
} as const;

export const couponRoutes: FastifyPluginAsync = async (app) => {
  // The app key is checked before the body is parsed; wrong keys are limited per address like the ingestion's.
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[INGEST_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyMissing });
    const siteId = await app.services.ingestion.siteOfIngestionKey(key);
    if (!siteId) {
      const failures = await app.services.limiter.hit(`ingestKeyFailed:ip:${request.ip}`, INGEST_KEY_FAILURES_PER_IP);
      if (!failures.allowed) {
        return reply.code(429).header('retry-after', String(failures.retryAfterSeconds)).send({ success: false, message: OWN_MESSAGES.ingestKeyFailuresLimited });
      }
      return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyInvalid });
    }
    request.couponSiteId = siteId;
  };

  app.post<{ Body: CouponRedeemRequest }>(COUPON_REDEEM_PATH, {
    onRequest: authenticate,
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['code', 'subscriberId'],
        properties: {
          code: { type: 'string', minLength: 1, maxLength: COUPON_CODE_MAX },
          subscriberId: { type: 'string', pattern: UUID_PATTERN },
        },
      },
      response: answers({ 200: REDEMPTION }),
    },
  }, async (request): Promise<CouponRedeemAnswer> => ({
    success: true,
    redemption: await app.services.monetization.redeemCoupon(request.couponSiteId!, request.body),
  }));
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The site of the app key (POST /v1/coupons/redeem only). */
    couponSiteId?: string;
  }
}
