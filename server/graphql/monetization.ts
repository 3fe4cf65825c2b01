/**
 * Monetization over the management GraphQL endpoint (issue 15): the site's models, plans, plan
 * groups, offers and coupons. Merged into the management schema by plugin.ts. Every resolver
 * authenticates the caller, then hands over to server/domain/monetization.ts, which checks the role,
 * the site, the input and the version. Refusals are the shared DomainErrors (server/domain/errors.ts);
 * plugin.ts's formatter gives them our message, a code (FORBIDDEN, NOT_FOUND, BAD_USER_INPUT,
 * CONFLICT) and, for invalid input, `extensions.fields`: the message of each field, shown beside it.
 */
import {
  MONEY_MINOR_MAX,
  type CouponBatchInput, type CouponInput, type MonetizationSettingsInput, type OfferInput, type PlanGroupInput, type PlanInput,
} from '../../common/monetization-rules';
import * as domain from '../domain/monetization';
import type { ManagementContext } from './resolvers';

/**
 * Issue 37: amounts go out as GraphQL `Int` (a signed 32-bit number); the domain refuses any amount
 * past MONEY_MINOR_MAX (a 400 naming the field), so every stored amount fits. This guard keeps the
 * two from drifting apart.
 */
const GRAPHQL_INT_MAX = 2_147_483_647;
if (MONEY_MINOR_MAX > GRAPHQL_INT_MAX) throw new Error('MONEY_MINOR_MAX must fit a GraphQL Int');

export const monetizationSchema = /* GraphQL */ `
  "The Models editor. models are the site's service types (SVOD, AVOD, TVOD, FAST): the same stored list as the AppCMS Service's serviceTypes."
  type MonetizationSettings {
    isMonetizationModelEnabled: Boolean!
    models: [String!]!
    "The main service type, always one of models; a save that removes it makes the first remaining type (SVOD, AVOD, TVOD, FAST order) the main one."
    serviceType: String!
    "Bumped by a Models save and by an AppCMS Service save of the shared fields (serviceType, serviceTypes, isMonetizationModelEnabled)."
    version: Int!
  }

  type Price {
    currency: String!
    "Minor units (cents), 0 to ${MONEY_MINOR_MAX}."
    amount: Int!
  }

  type Plan {
    id: ID!
    name: String!
    description: String!
    prices: [Price!]!
    billingPeriod: String!
    trialDays: Int!
    deviceLimit: Int!
    status: String!
    version: Int!
    "Subscriptions (all time): every subscription of this plan, any state (common/plan-figures.ts)."
    subscriptionCount: Int!
    "The price version new subscriptions get (a new price is a new version; existing subscriptions keep theirs)."
    priceVersion: Int!
    "Live subscriptions (in trial, active, past due): they stay on their price when the price changes."
    payingSubscriptionCount: Int!
    "Paying subscribers: subscribers with an active or past-due subscription of this plan (Users' Paying under this plan)."
    payingSubscriberCount: Int!
    "Live subscriptions on an earlier price version that are not moving."
    oldPriceSubscriptionCount: Int!
    "Live subscriptions moving to the current price at their next renewal."
    movingAtRenewalCount: Int!
    updatedAt: String!
  }

  type PlanMoveResult {
    "Subscriptions scheduled to move to the current price at their next renewal."
    moved: Int!
    plan: Plan!
  }

  type PlanPage {
    items: [Plan!]!
    total: Int!
  }

  type PlanDeleteResult {
    "False when the plan was in use and archived instead."
    deleted: Boolean!
    plan: Plan
  }

  type PlanGroup {
    id: ID!
    name: String!
    description: String!
    position: Int!
    version: Int!
    "The plans in paywall order."
    planIds: [ID!]!
  }

  type Offer {
    id: ID!
    name: String!
    discountType: String!
    "Percent, or minor units of currency for a fixed discount (1 to ${MONEY_MINOR_MAX})."
    discountValue: Int!
    currency: String
    planIds: [ID!]!
    startsAt: String!
    endsAt: String
    eligibility: String!
    status: String!
    "once | repeating (durationMonths) | forever"
    duration: String!
    durationMonths: Int
    version: Int!
  }

  type OfferPage {
    items: [Offer!]!
    total: Int!
  }

  type Coupon {
    id: ID!
    offerId: ID!
    offerName: String!
    code: String!
    maxRedemptions: Int
    maxPerSubscriber: Int!
    expiresAt: String
    "The end of the coupon's offer (a coupon never outlives it); the expiry that applies is the earlier of the two."
    offerEndsAt: String
    status: String!
    version: Int!
    redemptionCount: Int!
    batchId: ID
    createdAt: String!
    "When the code was last redeemed; null when never."
    lastRedeemedAt: String
  }

  type CouponPage {
    items: [Coupon!]!
    total: Int!
  }

  type CouponBatchResult {
    batchId: ID!
    count: Int!
  }

  input MonetizationSettingsInput {
    isMonetizationModelEnabled: Boolean!
    "Service types (SVOD, AVOD, TVOD, FAST), at least one."
    models: [String!]!
  }

  "Amount as decimal text in major units (9.99), at most the currency's decimals and at most ${MONEY_MINOR_MAX} minor units (21474836.47 USD): more is BAD_USER_INPUT naming prices.<i>.amount."
  input PriceInput {
    currency: String!
    amount: String!
  }

  input PlanInput {
    name: String!
    description: String!
    prices: [PriceInput!]!
    billingPeriod: String!
    trialDays: Int!
    deviceLimit: Int!
    status: String!
  }

  input PlanGroupInput {
    name: String!
    description: String!
    planIds: [ID!]!
  }

  input PlanGroupOrderEntry {
    id: ID!
    version: Int!
  }

  input OfferInput {
    name: String!
    discountType: String!
    discountValue: String!
    currency: String!
    planIds: [ID!]!
    startsAt: String!
    endsAt: String!
    eligibility: String!
    status: String!
    "once (default) | repeating | forever"
    duration: String
    "Months of a repeating discount, as typed."
    durationMonths: String
  }

  input CouponInput {
    offerId: ID!
    code: String!
    maxRedemptions: String!
    maxPerSubscriber: String!
    expiresAt: String!
    status: String!
  }

  input CouponBatchInput {
    offerId: ID!
    count: String!
    prefix: String!
    maxRedemptions: String!
    maxPerSubscriber: String!
    expiresAt: String!
  }

  extend type Query {
    monetizationSettings: MonetizationSettings!
    plans(search: String, status: String, offset: Int, limit: Int): PlanPage!
    plan(id: ID!): Plan!
    planGroups: [PlanGroup!]!
    planGroup(id: ID!): PlanGroup!
    offers(search: String, status: String, offset: Int, limit: Int): OfferPage!
    offer(id: ID!): Offer!
    coupons(search: String, status: String, offerId: ID, offset: Int, limit: Int): CouponPage!
    coupon(id: ID!): Coupon!
    "CSV of the coupons matching the filters with their redemption counts."
    couponsCsv(search: String, status: String, offerId: ID): String!
  }

  extend type Mutation {
    monetizationSettingsSave(version: Int!, input: MonetizationSettingsInput!): MonetizationSettings!
    planCreate(input: PlanInput!): Plan!
    planUpdate(id: ID!, version: Int!, input: PlanInput!): Plan!
    "Deletes a plan nothing refers to; archives it when subscriptions, payments or offers do."
    planDelete(id: ID!, version: Int!): PlanDeleteResult!
    planDuplicate(id: ID!): Plan!
    "Moves the plan's subscribers on earlier prices to its current price at their next renewal (version: the plan's, as read)."
    planMoveSubscribersAtRenewal(id: ID!, version: Int!): PlanMoveResult!
    planGroupCreate(input: PlanGroupInput!): PlanGroup!
    planGroupUpdate(id: ID!, version: Int!, input: PlanGroupInput!): PlanGroup!
    planGroupsReorder(order: [PlanGroupOrderEntry!]!): [PlanGroup!]!
    offerCreate(input: OfferInput!): Offer!
    offerUpdate(id: ID!, version: Int!, input: OfferInput!): Offer!
    couponCreate(input: CouponInput!): Coupon!
    couponUpdate(id: ID!, version: Int!, input: CouponInput!): Coupon!
    couponBatchGenerate(input: CouponBatchInput!): CouponBatchResult!
    "Disables (status disabled) or enables (status active) one code."
    couponSetStatus(id: ID!, version: Int!, status: String!): Coupon!
  }
`;

type Resolver<Args> = (root: unknown, args: Args, ctx: ManagementContext) => Promise<unknown>;

function resolver<Args>(run: (caller: domain.MonetizationCaller, args: Args) => Promise<unknown>): Resolver<Args> {
  // A DomainError thrown here (with field messages in details.fields) becomes a GraphQL error in plugin.ts's formatter.
  return async (_root, args, ctx) => run(await ctx.caller(), args);
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

interface ListArgs { search?: string | null; status?: string | null; offset?: number | null; limit?: number | null }
interface IdArgs { id: string }
interface VersionArgs { id: string; version: number }

export function monetizationResolvers(monetization: domain.Monetization) {
  return {
    Query: {
      monetizationSettings: resolver((caller) => monetization.getSettings(caller)),
      plans: resolver<ListArgs>((caller, args) => monetization.listPlans(caller, args)),
      plan: resolver<IdArgs>((caller, args) => monetization.getPlan(caller, args.id)),
      planGroups: resolver((caller) => monetization.listPlanGroups(caller)),
      planGroup: resolver<IdArgs>((caller, args) => monetization.getPlanGroup(caller, args.id)),
      offers: resolver<ListArgs>((caller, args) => monetization.listOffers(caller, args)),
      offer: resolver<IdArgs>((caller, args) => monetization.getOffer(caller, args.id)),
      coupons: resolver<ListArgs & { offerId?: string | null }>((caller, args) => monetization.listCoupons(caller, args)),
      coupon: resolver<IdArgs>((caller, args) => monetization.getCoupon(caller, args.id)),
      couponsCsv: resolver<ListArgs & { offerId?: string | null }>((caller, args) => monetization.exportCouponsCsv(caller, args)),
    },
    Mutation: {
      monetizationSettingsSave: resolver<{ version: number; input: MonetizationSettingsInput }>((caller, args) =>
        monetization.saveSettings(caller, args.version, args.input)),
      planCreate: resolver<{ input: PlanInput }>((caller, args) => monetization.createPlan(caller, args.input)),
      planUpdate: resolver<VersionArgs & { input: PlanInput }>((caller, args) => monetization.updatePlan(caller, args.id, args.version, args.input)),
      planDelete: resolver<VersionArgs>((caller, args) => monetization.deletePlan(caller, args.id, args.version)),
      planDuplicate: resolver<IdArgs>((caller, args) => monetization.duplicatePlan(caller, args.id)),
      planMoveSubscribersAtRenewal: resolver<VersionArgs>((caller, args) => monetization.moveSubscribersAtRenewal(caller, args.id, args.version)),
      planGroupCreate: resolver<{ input: PlanGroupInput }>((caller, args) => monetization.createPlanGroup(caller, args.input)),
      planGroupUpdate: resolver<VersionArgs & { input: PlanGroupInput }>((caller, args) =>
        monetization.updatePlanGroup(caller, args.id, args.version, args.input)),
      planGroupsReorder: resolver<{ order: { id: string; version: number }[] }>((caller, args) => monetization.reorderPlanGroups(caller, args.order)),
      offerCreate: resolver<{ input: OfferInput }>((caller, args) => monetization.createOffer(caller, args.input)),
      offerUpdate: resolver<VersionArgs & { input: OfferInput }>((caller, args) => monetization.updateOffer(caller, args.id, args.version, args.input)),
      couponCreate: resolver<{ input: CouponInput }>((caller, args) => monetization.createCoupon(caller, args.input)),
      couponUpdate: resolver<VersionArgs & { input: CouponInput }>((caller, args) => monetization.updateCoupon(caller, args.id, args.version, args.input)),
      couponBatchGenerate: resolver<{ input: CouponBatchInput }>((caller, args) => monetization.generateCouponBatch(caller, args.input)),
      couponSetStatus: resolver<VersionArgs & { status: string }>((caller, args) => monetization.setCouponStatus(caller, args.id, args.version, args.status)),
    },
    Plan: { updatedAt: (plan: { updatedAt: Date }) => plan.updatedAt.toISOString() },
    Offer: {
      startsAt: (offer: { startsAt: Date }) => offer.startsAt.toISOString(),
      endsAt: (offer: { endsAt: Date | null }) => iso(offer.endsAt),
    },
    Coupon: {
      expiresAt: (coupon: { expiresAt: Date | null }) => iso(coupon.expiresAt),
      offerEndsAt: (coupon: { offerEndsAt?: Date | null }) => iso(coupon.offerEndsAt ?? null),
      createdAt: (coupon: { createdAt: Date }) => coupon.createdAt.toISOString(),
      lastRedeemedAt: (coupon: { lastRedeemedAt?: Date | null }) => iso(coupon.lastRedeemedAt ?? null),
    },
  };
}
