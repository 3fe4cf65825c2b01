/** Shared fakes of the Monetization view tests: a signed-in session with a given role, and plans/offers. */
import type { Roles } from '../../common/contract';
import { fakeActor } from '../../machines/test-harness/fakes';
import type { Offer, Plan } from '../api/monetization';
import { signedInAs } from './content-fixtures';

export function authAs(level: 'read' | 'write' | 'contributor') {
  const roles: Roles = { 'Subscriptions & Offers': level };
  return { auth: { readStoredSession: fakeActor(() => ({ ...signedInAs(roles), username: 'monetization@demo.test' })) } };
}

export const PLAN: Plan = {
  id: '11111111-1111-4111-8111-111111111111', name: 'Premium Monthly', description: '', prices: [{ currency: 'USD', amount: 999 }],
  billingPeriod: 'month', trialDays: 7, deviceLimit: 4, status: 'active', version: 3, subscriptionCount: 12,
  priceVersion: 1, payingSubscriptionCount: 10, payingSubscriberCount: 8, oldPriceSubscriptionCount: 0, movingAtRenewalCount: 0,
};
export const OFFER: Offer = {
  id: '22222222-2222-4222-8222-222222222222', name: 'Spring 20', discountType: 'percent', discountValue: 20, currency: null,
  planIds: [PLAN.id], startsAt: '2030-01-01T00:00:00.000Z', endsAt: null, eligibility: 'new', status: 'active', version: 1,
  duration: 'once', durationMonths: null,
};
