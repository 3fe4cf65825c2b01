/**
 * Monetization vocabulary and validation (issue 15), shared by the editors in the browser and the
 * management GraphQL resolvers: the same rule gives the same message beside the same field on both
 * sides. Validators return a map of field name to message; an empty map means valid.
 *
 * Money travels as integer minor units; a form holds the decimal text the operator typed, and
 * `parseMoney` turns it into minor units only when it has no more decimals than the currency has.
 *
 * The Models editor has no vocabulary of its own (issue 27): the models a site runs are its service
 * types (SERVICE_TYPES of common/appcms.ts), the one list AppCMS › Service edits too.
 */
import { SERVICE_TYPES } from './appcms';
import { formatDate } from './display-format';
import { INSTANT_MESSAGES, readInstant } from './instant-bounds';
import { isOneOf } from './one-of';

export const BILLING_PERIODS = ['month', 'quarter', 'year'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const PLAN_STATUSES = ['draft', 'active', 'archived'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const OFFER_STATUSES = ['draft', 'active', 'archived'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const ELIGIBILITIES = ['new', 'everyone'] as const;
export type Eligibility = (typeof ELIGIBILITIES)[number];

export const COUPON_STATUSES = ['active', 'disabled'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

/** How long an offer's discount applies (Stripe's coupon duration): the first payment, N months, or every payment. */
export const DISCOUNT_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type DiscountDuration = (typeof DISCOUNT_DURATIONS)[number];
export const DURATION_MONTHS_MAX = 36;

/** Subscription states that still pay (and so keep or move their price version). */
export const LIVE_SUBSCRIPTION_STATES = ['trialing', 'active', 'past_due'] as const;

/** The currencies a price may be set in, with their ISO 4217 minor-unit digits. */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  USD: 2, EUR: 2, GBP: 2, CAD: 2, AUD: 2, INR: 2, BRL: 2, MXN: 2, JPY: 0, KRW: 0, KWD: 3, BHD: 3,
};
export const CURRENCIES: readonly string[] = Object.keys(CURRENCY_DECIMALS);

/**
 * Issue 37: the one bound of every amount of money, in minor units, everywhere: the price and
 * discount parser (parseMoney), the message beside the field, the GraphQL layer (amounts are GraphQL
 * `Int`, a signed 32-bit number) and the columns (`integer`: subscriptions.amount, offers.discount_value,
 * payments.amount, payment_refunds.amount; plan prices in jsonb are read into those). 2³¹ − 1 minor
 * units: 21474836.47 USD, 2147483647 JPY, 2147483.647 KWD.
 */
export const MONEY_MINOR_MAX = 2_147_483_647;

export const TRIAL_DAYS_MAX = 365;
export const DEVICE_LIMIT_MAX = 100;
export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 2000;
export const COUPON_CODE_MIN = 4;
export const COUPON_CODE_MAX = 32;
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;
/** Letters and digits of generated codes, without the look-alikes 0/O and 1/I/L, so a code read aloud is typed right. */
export const COUPON_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Random part of a generated code; with a prefix of at most COUPON_PREFIX_MAX the code stays ≤ 32. */
export const COUPON_RANDOM_LENGTH = 10;
export const COUPON_PREFIX_MAX = 16;
export const COUPON_PREFIX_PATTERN = new RegExp(`^[A-Za-z0-9]{0,${COUPON_PREFIX_MAX}}$`);
export const COUPON_BATCH_MAX = 1000;
/** Redemption limits: a plain upper bound so a typo cannot store an absurd number. */
export const REDEMPTION_LIMIT_MAX = 1_000_000;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export const MONETIZATION_MESSAGES = {
  required: 'This field is required.',
  nameTooLong: `Use at most ${NAME_MAX} characters.`,
  descriptionTooLong: `Use at most ${DESCRIPTION_MAX} characters.`,
  priceRequired: 'Add at least one price.',
  currencyUnknown: 'Choose a currency from the list.',
  currencyTwice: 'Each currency may have only one price.',
  priceFormat: (currency: string, decimals: number) => decimals === 0
    ? `Enter an amount of 0 or more in whole ${currency}, without decimals.`
    : `Enter an amount of 0 or more with at most ${decimals} decimals for ${currency}.`,
  /** Issue 37: an amount past MONEY_MINOR_MAX, in the currency's own words. */
  priceTooLarge: (currency: string) => `Enter an amount of at most ${formatMoney(MONEY_MINOR_MAX, currency)} ${currency}.`,
  discountTooLarge: (currency: string) => `Enter a discount of at most ${formatMoney(MONEY_MINOR_MAX, currency)} ${currency}.`,
  dateOutOfRange: INSTANT_MESSAGES.dateOutOfRange,
  billingPeriod: 'Choose a billing period.',
  trialDays: `Trial days must be a whole number from 0 to ${TRIAL_DAYS_MAX}.`,
  deviceLimit: `Device limit must be a whole number from 1 to ${DEVICE_LIMIT_MAX}.`,
  status: 'Choose a status.',
  percentage: 'A percentage must be a whole number from 1 to 100.',
  fixedAmount: (currency: string, decimals: number) => decimals === 0
    ? `Enter a discount greater than 0 in whole ${currency}.`
    : `Enter a discount greater than 0 with at most ${decimals} decimals for ${currency}.`,
  discountType: 'Choose percentage or fixed amount.',
  offerPlans: 'Choose at least one plan.',
  offerPlanUnknown: 'One of the chosen plans does not exist.',
  dateFormat: 'Enter a valid date and time.',
  endAfterStart: 'The end must be after the start.',
  eligibility: 'Choose who may use the offer.',
  couponCode: `A code has ${COUPON_CODE_MIN} to ${COUPON_CODE_MAX} letters and digits, nothing else.`,
  couponCodeTaken: 'This code is already used on this site.',
  couponPrefix: `A prefix has at most ${COUPON_PREFIX_MAX} letters and digits.`,
  couponOffer: 'Choose the offer the code belongs to.',
  /** Issue 38: a new code cannot join an offer that is archived or has ended. */
  couponOfferClosed: (name: string) => `${name} is archived or has ended: a new code for it could never be redeemed. Choose an active offer.`,
  redemptionLimit: `Enter a whole number from 1 to ${REDEMPTION_LIMIT_MAX}, or leave empty for no limit.`,
  perSubscriberLimit: `Enter a whole number from 1 to ${REDEMPTION_LIMIT_MAX}.`,
  perSubscriberOverLimit: 'Per subscriber cannot exceed the overall limit.',
  batchExhausted: 'Not enough unused codes could be found. Use a shorter prefix or fewer codes.',
  batchCount: `Generate from 1 to ${COUPON_BATCH_MAX} codes at a time.`,
  modelsRequired: 'Choose at least one service type: the service always runs one.',
  modelUnknown: 'Choose service types from the list.',
  modelsHelp: 'The same list as AppCMS › Service. Removing the main service type makes the first remaining one the main type.',
  mainServiceType: (label: string) => `Main service type: ${label}`,
  groupPlanUnknown: 'One of the plans in the group does not exist.',
  offerPlanArchived: 'An archived plan cannot be offered: choose an active or draft plan.',
  discountDuration: 'Choose how long the discount applies.',
  durationMonths: `Enter a number of months from 1 to ${DURATION_MONTHS_MAX}.`,
  // Price versions (issue 30)
  // Issue 38: counted in live subscriptions (in trial, active or past due), as common/plan-figures.ts defines them.
  priceChangeKeeps: (count: number) => count === 0
    ? 'No live subscription of this plan: the new price applies to every new subscription.'
    : `${count} live ${count === 1 ? 'subscription keeps' : 'subscriptions keep'} the current price. The new price applies to new subscriptions only.`,
  oldPriceSubscribers: (count: number) => `${count} live ${count === 1 ? 'subscription is' : 'subscriptions are'} on an earlier price of this plan.`,
  movingAtRenewal: (count: number) => `${count} live ${count === 1 ? 'subscription moves' : 'subscriptions move'} to the current price at their next renewal.`,
  moveAtRenewalLabel: 'Move existing subscribers at their next renewal',
  /** Issue 38: the reason on each moved subscription's revision (its History). */
  movedAtRenewalReason: (plan: string) => `${plan}: moved to the plan's current price at the next renewal`,
  /** Issue 38: the reason on the revision of a subscription that took the moved-to price at its renewal. */
  renewedAtNewPrice: 'Renewed at the plan\'s current price (moved at its next renewal)',
  moveAtRenewalConfirm: (name: string, count: number) =>
    `Move the ${count} live ${count === 1 ? 'subscription' : 'subscriptions'} of “${name}” on an earlier price to the current price at their next renewal? Each keeps its price until then.`,
  moveAtRenewalNone: 'No live subscription of this plan is on an earlier price.',
  movedAtRenewal: (count: number) => `${count} live ${count === 1 ? 'subscription moves' : 'subscriptions move'} to the current price at their next renewal.`,
  // Coupons (issue 30)
  couponDisabled: (code: string) => `${code} is disabled: it can no longer be redeemed.`,
  couponEnabled: (code: string) => `${code} is enabled again.`,
  couponCreated: (code: string) => `Created the code ${code}.`,
  redeemUnknown: 'This code does not exist.',
  redeemDisabled: 'This code has been disabled.',
  redeemExpired: 'This code has expired.',
  redeemNotStarted: 'This code cannot be used yet.',
  redeemOfferInactive: 'The offer of this code is not running.',
  redeemExhausted: 'This code has reached its number of redemptions.',
  redeemPerCustomer: 'This customer has already used this code as often as allowed.',
  redeemSubscriberUnknown: 'This customer does not exist.',
  groupPlanTwice: 'A plan can be in a group only once.',
  // Outcomes
  conflict: 'Someone else saved a newer version of this while you were editing. Reload to see it; your changes here will be lost.',
  notFound: 'This item no longer exists.',
  invalid: 'Some fields need attention.',
  saved: 'Saved.',
  archivedInUse: 'Archived instead of deleted: subscriptions, payments or offers still refer to this plan.',
  deleted: 'Deleted.',
  duplicatedAs: (name: string) => `Duplicated as “${name}”.`,
  deleteConfirm: (name: string) => `Delete the plan “${name}”? A plan that subscriptions, payments or offers still refer to is archived instead.`,
  groupMoved: (name: string, position: number) => `“${name}” is now group ${position} of the paywall.`,
  exported: (count: number) => `Exported ${count} ${count === 1 ? 'code' : 'codes'} to coupons.csv.`,
  batchGenerated: (count: number) => `Generated ${count} codes.`,
  leaveConfirm: 'You have unsaved changes. Leave without saving?',
} as const;

export type FieldErrors = Record<string, string>;

export function currencyDecimals(currency: string): number | undefined {
  return CURRENCY_DECIMALS[currency];
}

/**
 * Decimal text in major units ("9.99") → integer minor units (999), or null when it is not a
 * non-negative number with at most the currency's decimals, or when it is past MONEY_MINOR_MAX
 * (moneyTextOverBound tells that case apart, for its own message).
 */
export function parseMoney(text: string, currency: string): number | null {
  const minor = unboundedMinor(text, currency);
  return minor !== null && minor <= MONEY_MINOR_MAX ? minor : null;
}

/** True when `text` is a well-formed amount of `currency` but more than MONEY_MINOR_MAX minor units. */
export function moneyTextOverBound(text: string, currency: string): boolean {
  const minor = unboundedMinor(text, currency);
  return minor !== null && minor > MONEY_MINOR_MAX;
}

/** The minor units of a well-formed amount (any size up to 12 whole digits: exact in a double), or null. */
function unboundedMinor(text: string, currency: string): number | null {
  const decimals = currencyDecimals(currency);
  if (decimals === undefined) return null;
  const trimmed = text.trim();
  const pattern = decimals === 0 ? /^\d{1,12}$/ : new RegExp(`^\\d{1,12}(\\.\\d{1,${decimals}})?$`);
  if (!pattern.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
}

/** Integer minor units → decimal text of the currency ("999", "USD" → "9.99"). */
export function formatMoney(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency) ?? 2;
  if (decimals === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const unit = 10 ** decimals;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(decimals, '0')}`;
}

function isWholeIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** A form's number text → number, or NaN when it is not a plain whole number. */
export function parseWhole(text: string): number {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

function checkName(errors: FieldErrors, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') errors.name = MONETIZATION_MESSAGES.required;
  else if (name.length > NAME_MAX) errors.name = MONETIZATION_MESSAGES.nameTooLong;
}

function checkDescription(errors: FieldErrors, description: unknown): void {
  if (typeof description === 'string' && description.length > DESCRIPTION_MAX) errors.description = MONETIZATION_MESSAGES.descriptionTooLong;
}


/* ------------------------------- Models ------------------------------- */

export interface MonetizationSettingsInput {
  isMonetizationModelEnabled: boolean;
  /** The site's service types (SERVICE_TYPES); at least one, whether monetization is enabled or not. */
  models: string[];
}

export function validateSettings(input: MonetizationSettingsInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!input.models.every((m) => isOneOf(SERVICE_TYPES, m))) errors.models = MONETIZATION_MESSAGES.modelUnknown;
  else if (input.models.length === 0) errors.models = MONETIZATION_MESSAGES.modelsRequired;
  return errors;
}

/* ------------------------------- Plans ------------------------------- */

/** A price as the form and the wire carry it: the amount as decimal text in major units. */
export interface PriceInput {
  currency: string;
  amount: string;
}

export interface PlanInput {
  name: string;
  description: string;
  prices: PriceInput[];
  billingPeriod: string;
  trialDays: number;
  deviceLimit: number;
  status: string;
}

/** Field names of prices are `prices.<index>.currency` / `prices.<index>.amount`. */
export function validatePlan(input: PlanInput): FieldErrors {
  const errors: FieldErrors = {};
  checkName(errors, input.name);
  checkDescription(errors, input.description);
  if (input.prices.length === 0) errors.prices = MONETIZATION_MESSAGES.priceRequired;
  const seen = new Set<string>();
  input.prices.forEach((price, i) => {
    const decimals = currencyDecimals(price.currency);
    if (decimals === undefined) {
      errors[`prices.${i}.currency`] = MONETIZATION_MESSAGES.currencyUnknown;
      return;
    }
    if (seen.has(price.currency)) errors[`prices.${i}.currency`] = MONETIZATION_MESSAGES.currencyTwice;
    seen.add(price.currency);
    if (moneyTextOverBound(price.amount, price.currency)) {
      errors[`prices.${i}.amount`] = MONETIZATION_MESSAGES.priceTooLarge(price.currency);
    } else if (parseMoney(price.amount, price.currency) === null) {
      errors[`prices.${i}.amount`] = MONETIZATION_MESSAGES.priceFormat(price.currency, decimals);
    }
  });
  if (!isOneOf(BILLING_PERIODS, input.billingPeriod)) errors.billingPeriod = MONETIZATION_MESSAGES.billingPeriod;
  if (!isWholeIn(input.trialDays, 0, TRIAL_DAYS_MAX)) errors.trialDays = MONETIZATION_MESSAGES.trialDays;
  if (!isWholeIn(input.deviceLimit, 1, DEVICE_LIMIT_MAX)) errors.deviceLimit = MONETIZATION_MESSAGES.deviceLimit;
  if (!isOneOf(PLAN_STATUSES, input.status)) errors.status = MONETIZATION_MESSAGES.status;
  return errors;
}

/* ----------------------------- Plan groups ----------------------------- */

export interface PlanGroupInput {
  name: string;
  description: string;
  /** The plans in paywall order. */
  planIds: string[];
}

export function validatePlanGroup(input: PlanGroupInput): FieldErrors {
  const errors: FieldErrors = {};
  checkName(errors, input.name);
  checkDescription(errors, input.description);
  if (new Set(input.planIds).size !== input.planIds.length) errors.planIds = MONETIZATION_MESSAGES.groupPlanTwice;
  return errors;
}

/* ------------------------------- Offers ------------------------------- */

export interface OfferInput {
  name: string;
  discountType: string;
  /** Percent: whole number text; fixed: decimal text in major units of `currency`. */
  discountValue: string;
  /** Fixed discounts only. */
  currency: string;
  planIds: string[];
  /** ISO 8601. */
  startsAt: string;
  /** ISO 8601 or '' for open-ended. */
  endsAt: string;
  eligibility: string;
  status: string;
  /** DISCOUNT_DURATIONS; absent: 'once'. */
  duration?: string;
  /** Months of a 'repeating' discount, as typed; '' otherwise. */
  durationMonths?: string;
}

/** A date text → epoch ms, or null when it is empty, not a date, or outside common/instant-bounds.ts's range (issue 37). */
export function parseInstant(text: string): number | null {
  if (text.trim() === '') return null;
  const ms = readInstant(text);
  return typeof ms === 'number' ? ms : null;
}

/** The message for a date text parseInstant refused: out of range, or not a date. */
function dateMessage(text: string): string {
  return readInstant(text) === 'out_of_range' ? MONETIZATION_MESSAGES.dateOutOfRange : MONETIZATION_MESSAGES.dateFormat;
}

/** The discount in stored units: percent as is, fixed in minor units; null when invalid. */
export function offerDiscountValue(input: Pick<OfferInput, 'discountType' | 'discountValue' | 'currency'>): number | null {
  if (input.discountType === 'percent') {
    const value = parseWhole(input.discountValue);
    return isWholeIn(value, 1, 100) ? value : null;
  }
  const minor = parseMoney(input.discountValue, input.currency);
  return minor !== null && minor > 0 ? minor : null;
}

export function validateOffer(input: OfferInput): FieldErrors {
  const errors: FieldErrors = {};
  checkName(errors, input.name);
  if (!isOneOf(DISCOUNT_TYPES, input.discountType)) {
    errors.discountType = MONETIZATION_MESSAGES.discountType;
  } else if (input.discountType === 'percent') {
    if (offerDiscountValue(input) === null) errors.discountValue = MONETIZATION_MESSAGES.percentage;
  } else {
    const decimals = currencyDecimals(input.currency);
    if (decimals === undefined) errors.currency = MONETIZATION_MESSAGES.currencyUnknown;
    else if (moneyTextOverBound(input.discountValue, input.currency)) errors.discountValue = MONETIZATION_MESSAGES.discountTooLarge(input.currency);
    else if (offerDiscountValue(input) === null) errors.discountValue = MONETIZATION_MESSAGES.fixedAmount(input.currency, decimals);
  }
  if (input.planIds.length === 0) errors.planIds = MONETIZATION_MESSAGES.offerPlans;
  const start = parseInstant(input.startsAt);
  if (start === null) errors.startsAt = input.startsAt.trim() === '' ? MONETIZATION_MESSAGES.required : dateMessage(input.startsAt);
  if (input.endsAt.trim() !== '') {
    const end = parseInstant(input.endsAt);
    if (end === null) errors.endsAt = dateMessage(input.endsAt);
    else if (start !== null && end <= start) errors.endsAt = MONETIZATION_MESSAGES.endAfterStart;
  }
  if (!isOneOf(ELIGIBILITIES, input.eligibility)) errors.eligibility = MONETIZATION_MESSAGES.eligibility;
  if (!isOneOf(OFFER_STATUSES, input.status)) errors.status = MONETIZATION_MESSAGES.status;
  const duration = input.duration ?? 'once';
  if (!isOneOf(DISCOUNT_DURATIONS, duration)) errors.duration = MONETIZATION_MESSAGES.discountDuration;
  else if (duration === 'repeating' && offerDurationMonths(input) === null) errors.durationMonths = MONETIZATION_MESSAGES.durationMonths;
  return errors;
}

/** The months of a 'repeating' discount (1–DURATION_MONTHS_MAX); null for another duration or a bad number. */
export function offerDurationMonths(input: Pick<OfferInput, 'duration' | 'durationMonths'>): number | null {
  if (input.duration !== 'repeating') return null;
  const months = parseWhole(input.durationMonths ?? '');
  return isWholeIn(months, 1, DURATION_MONTHS_MAX) ? months : null;
}

/** How the offers list says a discount's duration. */
export function durationText(duration: string, months: number | null): string {
  if (duration === 'forever') return 'forever';
  if (duration === 'repeating') return `${months ?? 0} ${months === 1 ? 'month' : 'months'}`;
  return 'once';
}

/* ------------------------------- Coupons ------------------------------- */

export interface CouponLimitsInput {
  offerId: string;
  /** '' for no overall limit. */
  maxRedemptions: string;
  maxPerSubscriber: string;
  /** ISO 8601 or '' for no expiry. */
  expiresAt: string;
}

export interface CouponInput extends CouponLimitsInput {
  code: string;
  status: string;
}

export interface CouponBatchInput extends CouponLimitsInput {
  count: string;
  prefix: string;
}

function checkLimits(errors: FieldErrors, input: CouponLimitsInput): void {
  if (input.offerId.trim() === '') errors.offerId = MONETIZATION_MESSAGES.couponOffer;
  const overall = input.maxRedemptions.trim() === '' ? null : parseWhole(input.maxRedemptions);
  if (overall !== null && !isWholeIn(overall, 1, REDEMPTION_LIMIT_MAX)) errors.maxRedemptions = MONETIZATION_MESSAGES.redemptionLimit;
  const perSubscriber = parseWhole(input.maxPerSubscriber);
  if (!isWholeIn(perSubscriber, 1, REDEMPTION_LIMIT_MAX)) errors.maxPerSubscriber = MONETIZATION_MESSAGES.perSubscriberLimit;
  else if (overall !== null && isWholeIn(overall, 1, REDEMPTION_LIMIT_MAX) && perSubscriber > overall) {
    errors.maxPerSubscriber = MONETIZATION_MESSAGES.perSubscriberOverLimit;
  }
  if (input.expiresAt.trim() !== '' && parseInstant(input.expiresAt) === null) errors.expiresAt = dateMessage(input.expiresAt);
}

export function isCouponCode(code: string): boolean {
  return COUPON_CODE_PATTERN.test(code);
}

export function validateCoupon(input: CouponInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!isCouponCode(input.code)) errors.code = MONETIZATION_MESSAGES.couponCode;
  checkLimits(errors, input);
  if (!isOneOf(COUPON_STATUSES, input.status)) errors.status = MONETIZATION_MESSAGES.status;
  return errors;
}

export function validateCouponBatch(input: CouponBatchInput): FieldErrors {
  const errors: FieldErrors = {};
  const count = parseWhole(input.count);
  if (!isWholeIn(count, 1, COUPON_BATCH_MAX)) errors.count = MONETIZATION_MESSAGES.batchCount;
  if (!COUPON_PREFIX_PATTERN.test(input.prefix.trim())) errors.prefix = MONETIZATION_MESSAGES.couponPrefix;
  checkLimits(errors, input);
  return errors;
}

/**
 * The expiry that applies to a coupon (issue 27): the earlier of its own expiry and its offer's end,
 * and which of the two it is; `at` null means it never expires.
 */
export function couponExpiry(own: string | null, offerEndsAt: string | null): { at: string | null; source: 'coupon' | 'offer' | null } {
  if (own && (!offerEndsAt || Date.parse(own) <= Date.parse(offerEndsAt))) return { at: own, source: 'coupon' };
  return offerEndsAt ? { at: offerEndsAt, source: 'offer' } : { at: null, source: null };
}

/** How the coupons list says a coupon's expiry: its day in the site's zone (common/display-format.ts); the offer's end is named as such. */
export function couponExpiryText(own: string | null, offerEndsAt: string | null, timeZone: unknown): string {
  const { at, source } = couponExpiry(own, offerEndsAt);
  if (!at) return 'never';
  return source === 'offer' ? `${formatDate(at, timeZone)} (offer ends)` : formatDate(at, timeZone);
}

/**
 * Whether an offer takes a new coupon code at `now` (issue 38): not archived and not ended, the rule
 * the server applies to a new code (server/domain/monetization.ts couponLimits). The coupon form offers
 * only these, so an operator is not led to a refusal.
 */
export function offerTakesNewCodes(offer: { status: string; endsAt: string | null }, now: number): boolean {
  return offer.status !== 'archived' && (offer.endsAt === null || Date.parse(offer.endsAt) > now);
}
