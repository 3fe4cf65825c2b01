/**
 * Issue 25 (Low): every row the seeds write passes the write validation of its kind, so an operator can
 * edit, disable or archive any seeded object without first renaming it (the seeded `SPORTS-XXXXXX`
 * coupons broke the 4-to-32-letters-and-digits rule and could not be disabled). Pure: the world
 * generator is checked for both demo sites at the demo scale and at the tests' small scale.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  formatMoney, validateCoupon, validateOffer, validatePlan, validatePlanGroup,
} from '../common/monetization-rules';
import { DEMO_SITES } from './db/demo-accounts';
import { generateSiteWorld, SMALL_WORLD, type WorldRows } from './db/seed-world';

type Row = WorldRows['coupons'][number];
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const iso = (value: unknown) => (value === null || value === undefined ? '' : new Date(String(value)).toISOString());

function worldOf(site: string, options: Parameters<typeof generateSiteWorld>[1]): WorldRows {
  return generateSiteWorld({ id: randomUUID(), internalName: site, networks: [{ id: randomUUID(), identifier: 'default', isDefault: true, isActive: true }] }, options);
}

const WORLDS = Object.values(DEMO_SITES).flatMap((site) => [
  { label: `${site} at the demo scale`, world: worldOf(site, { scale: 1, now: new Date('2026-11-25T12:00:00Z') }) },
  { label: `${site} at the tests' small scale`, world: worldOf(site, { ...SMALL_WORLD, now: new Date('2026-11-25T12:00:00Z') }) },
]);

describe.each(WORLDS)('seeded rows of $label pass their write validation', ({ world }) => {
  it('coupons (code rule included) — the seed has some', () => {
    expect(world.coupons.length).toBeGreaterThan(0);
    const failures = world.coupons.map((c: Row) => ({ code: c.code, errors: validateCoupon({
      code: text(c.code), status: text(c.status), offerId: text(c.offer_id), maxRedemptions: text(c.max_redemptions),
      maxPerSubscriber: text(c.max_per_subscriber), expiresAt: iso(c.expires_at),
    }) })).filter((f) => Object.keys(f.errors).length > 0);
    expect(failures).toEqual([]);
  });

  it('offers', () => {
    expect(world.offers.length).toBeGreaterThan(0);
    const failures = world.offers.map((o: Row) => ({ name: o.name, errors: validateOffer({
      name: text(o.name), discountType: text(o.discount_type),
      discountValue: o.discount_type === 'percent' ? text(o.discount_value) : formatMoney(Number(o.discount_value), text(o.currency)),
      currency: text(o.currency), planIds: o.plan_ids as string[], startsAt: iso(o.starts_at), endsAt: iso(o.ends_at),
      eligibility: text(o.eligibility), status: text(o.status),
    }) })).filter((f) => Object.keys(f.errors).length > 0);
    expect(failures).toEqual([]);
  });

  it('plans and plan groups', () => {
    expect(world.plans.length).toBeGreaterThan(0);
    const planFailures = world.plans.map((p: Row) => ({ name: p.name, errors: validatePlan({
      name: text(p.name), description: text(p.description),
      prices: (p.prices as { currency: string; amount: number }[]).map((price) => ({ currency: price.currency, amount: formatMoney(price.amount, price.currency) })),
      billingPeriod: text(p.billing_period), trialDays: Number(p.trial_days), deviceLimit: Number(p.device_limit), status: text(p.status),
    }) })).filter((f) => Object.keys(f.errors).length > 0);
    expect(planFailures).toEqual([]);
    const groupFailures = world.plan_groups.map((g: Row) => ({ name: g.name, errors: validatePlanGroup({
      name: text(g.name), description: text(g.description),
      planIds: world.plan_group_plans.filter((m: Row) => m.group_id === g.id).map((m: Row) => text(m.plan_id)),
    }) })).filter((f) => Object.keys(f.errors).length > 0);
    expect(groupFailures).toEqual([]);
  });
});
