/**
 * POST /v1/coupons/redeem (issue 30): a customer's redemption of a coupon code, called by the site's
 * apps with the site's app key (header x-ingestion-key, the key the players send events with), never
 * by a staff token. The rules are server/domain/monetization.ts's redeemCoupon: a disabled, expired
 * or used-up code is refused with `{ success: false, message }` and nothing is written.
 */
import { UUID_PATTERN } from '../../common/ingest-contract';
import { COUPON_CODE_MAX } from '../../common/monetization-rules';
import { COUPON_REDEEM_PATH, type CouponRedeemAnswer } from '../../common/monetization-contract';
import { appKeySiteOf, requireAppKey } from './auth-hooks';
import { answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';

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

export const couponRoutes: RoutePlugin = async (app) => {

  app.post(COUPON_REDEEM_PATH, {
    onRequest: requireAppKey,
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
    redemption: await app.services.monetization.redeemCoupon(appKeySiteOf(request), request.body),
  }));
};
