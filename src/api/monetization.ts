/**
 * Monetization documents of the management GraphQL endpoint (server/graphql/monetization.ts), run
 * with the one urql client through runGraphql.
 */
import { gql } from 'urql';
import type {
  CouponBatchInput, CouponInput, MonetizationSettingsInput, OfferInput, PlanGroupInput, PlanInput,
} from '../../common/monetization-rules';
import type { Coupon, MonetizationSettings, Offer, Page, Plan, PlanGroup } from '../../common/monetization-contract';

export type { Coupon, MonetizationSettings, Offer, Page, Plan, PlanGroup, Price } from '../../common/monetization-contract';
interface ListVars { search?: string; status?: string; offset?: number; limit?: number }

const SETTINGS = 'isMonetizationModelEnabled models serviceType version';
const PLAN = 'id name description prices { currency amount } billingPeriod trialDays deviceLimit status version subscriptionCount '
  + 'priceVersion payingSubscriptionCount payingSubscriberCount oldPriceSubscriptionCount movingAtRenewalCount';
const GROUP = 'id name description position version planIds';
const OFFER = 'id name discountType discountValue currency planIds startsAt endsAt eligibility status version duration durationMonths';
const COUPON = 'id offerId offerName code maxRedemptions maxPerSubscriber expiresAt offerEndsAt status version redemptionCount lastRedeemedAt';

export const MONETIZATION_SETTINGS = gql<{ monetizationSettings: MonetizationSettings }, Record<string, never>>(`
  query monetizationSettings { monetizationSettings { ${SETTINGS} } }
`);
export const MONETIZATION_SETTINGS_SAVE = gql<{ monetizationSettingsSave: MonetizationSettings }, { version: number; input: MonetizationSettingsInput }>(`
  mutation monetizationSettingsSave($version: Int!, $input: MonetizationSettingsInput!) {
    monetizationSettingsSave(version: $version, input: $input) { ${SETTINGS} }
  }
`);

export const PLANS = gql<{ plans: Page<Plan> }, ListVars>(`
  query plans($search: String, $status: String, $offset: Int, $limit: Int) {
    plans(search: $search, status: $status, offset: $offset, limit: $limit) { total items { ${PLAN} } }
  }
`);
export const PLAN_GET = gql<{ plan: Plan }, { id: string }>(`query plan($id: ID!) { plan(id: $id) { ${PLAN} } }`);
export const PLAN_CREATE = gql<{ planCreate: Plan }, { input: PlanInput }>(`
  mutation planCreate($input: PlanInput!) { planCreate(input: $input) { ${PLAN} } }
`);
export const PLAN_UPDATE = gql<{ planUpdate: Plan }, { id: string; version: number; input: PlanInput }>(`
  mutation planUpdate($id: ID!, $version: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $version, input: $input) { ${PLAN} } }
`);
export const PLAN_DELETE = gql<{ planDelete: { deleted: boolean; plan: Plan | null } }, { id: string; version: number }>(`
  mutation planDelete($id: ID!, $version: Int!) { planDelete(id: $id, version: $version) { deleted plan { ${PLAN} } } }
`);
export const PLAN_DUPLICATE = gql<{ planDuplicate: Plan }, { id: string }>(`
  mutation planDuplicate($id: ID!) { planDuplicate(id: $id) { ${PLAN} } }
`);

export const PLAN_MOVE_AT_RENEWAL = gql<{ planMoveSubscribersAtRenewal: { moved: number; plan: Plan } }, { id: string; version: number }>(`
  mutation planMoveSubscribersAtRenewal($id: ID!, $version: Int!) { planMoveSubscribersAtRenewal(id: $id, version: $version) { moved plan { ${PLAN} } } }
`);

export const PLAN_GROUPS = gql<{ planGroups: PlanGroup[] }, Record<string, never>>(`query planGroups { planGroups { ${GROUP} } }`);
export const PLAN_GROUP_GET = gql<{ planGroup: PlanGroup }, { id: string }>(`query planGroup($id: ID!) { planGroup(id: $id) { ${GROUP} } }`);
export const PLAN_GROUP_CREATE = gql<{ planGroupCreate: PlanGroup }, { input: PlanGroupInput }>(`
  mutation planGroupCreate($input: PlanGroupInput!) { planGroupCreate(input: $input) { ${GROUP} } }
`);
export const PLAN_GROUP_UPDATE = gql<{ planGroupUpdate: PlanGroup }, { id: string; version: number; input: PlanGroupInput }>(`
  mutation planGroupUpdate($id: ID!, $version: Int!, $input: PlanGroupInput!) { planGroupUpdate(id: $id, version: $version, input: $input) { ${GROUP} } }
`);

export const PLAN_GROUPS_REORDER = gql<{ planGroupsReorder: PlanGroup[] }, { order: { id: string; version: number }[] }>(`
  mutation planGroupsReorder($order: [PlanGroupOrderEntry!]!) { planGroupsReorder(order: $order) { ${GROUP} } }
`);

export const OFFERS = gql<{ offers: Page<Offer> }, ListVars>(`
  query offers($search: String, $status: String, $offset: Int, $limit: Int) {
    offers(search: $search, status: $status, offset: $offset, limit: $limit) { total items { ${OFFER} } }
  }
`);
export const OFFER_GET = gql<{ offer: Offer }, { id: string }>(`query offer($id: ID!) { offer(id: $id) { ${OFFER} } }`);
export const OFFER_CREATE = gql<{ offerCreate: Offer }, { input: OfferInput }>(`
  mutation offerCreate($input: OfferInput!) { offerCreate(input: $input) { ${OFFER} } }
`);
export const OFFER_UPDATE = gql<{ offerUpdate: Offer }, { id: string; version: number; input: OfferInput }>(`
  mutation offerUpdate($id: ID!, $version: Int!, $input: OfferInput!) { offerUpdate(id: $id, version: $version, input: $input) { ${OFFER} } }
`);

export const COUPONS = gql<{ coupons: Page<Coupon> }, ListVars & { offerId?: string }>(`
  query coupons($search: String, $status: String, $offerId: ID, $offset: Int, $limit: Int) {
    coupons(search: $search, status: $status, offerId: $offerId, offset: $offset, limit: $limit) { total items { ${COUPON} } }
  }
`);
export const COUPONS_CSV = gql<{ couponsCsv: string }, { search?: string; status?: string; offerId?: string }>(`
  query couponsCsv($search: String, $status: String, $offerId: ID) { couponsCsv(search: $search, status: $status, offerId: $offerId) }
`);
export const COUPON_BATCH = gql<{ couponBatchGenerate: { batchId: string; count: number } }, { input: CouponBatchInput }>(`
  mutation couponBatchGenerate($input: CouponBatchInput!) { couponBatchGenerate(input: $input) { batchId count } }
`);
export const COUPON_CREATE = gql<{ couponCreate: Coupon }, { input: CouponInput }>(`
  mutation couponCreate($input: CouponInput!) { couponCreate(input: $input) { ${COUPON} } }
`);
export const COUPON_SET_STATUS = gql<{ couponSetStatus: Coupon }, { id: string; version: number; status: string }>(`
  mutation couponSetStatus($id: ID!, $version: Int!, $status: String!) { couponSetStatus(id: $id, version: $version, status: $status) { ${COUPON} } }
`);
