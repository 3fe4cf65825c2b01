import { describe, expect, it } from 'vitest';
import { isInTrialAt, planChangeProration, prorationOf } from './support';

const DAY = 86_400_000;
const start = Date.UTC(2026, 0, 1);
const end = start + 30 * DAY;
const now = start + 10 * DAY;

describe('plan change proration (issue 38)', () => {
  it('outside a trial is prorationOf: (new − old) × time left ÷ period', () => {
    const paying = { status: 'active', trialEndsAt: null, amount: 1000, periodStart: start, periodEnd: end };
    expect(planChangeProration(paying, 2000, now)).toBe(667);
    expect(planChangeProration(paying, 2000, now)).toBe(prorationOf(1000, 2000, start, end, now));
    expect(planChangeProration(paying, 500, now)).toBe(-333);
  });

  it('in a free trial is 0 whatever the prices: nothing was paid for the period', () => {
    expect(planChangeProration({ status: 'trialing', trialEndsAt: end, amount: 1000, periodStart: start, periodEnd: end }, 2000, now)).toBe(0);
    // A trial that has not ended yet counts even when the status has not been moved on.
    expect(planChangeProration({ status: 'active', trialEndsAt: now + 1, amount: 1000, periodStart: start, periodEnd: end }, 500, now)).toBe(0);
    // An ended trial prorates again.
    expect(planChangeProration({ status: 'active', trialEndsAt: now, amount: 1000, periodStart: start, periodEnd: end }, 2000, now)).toBe(667);
  });

  it('isInTrialAt: the status, or a trial end still ahead', () => {
    expect(isInTrialAt({ status: 'trialing', trialEndsAt: null }, now)).toBe(true);
    expect(isInTrialAt({ status: 'active', trialEndsAt: now + 1 }, now)).toBe(true);
    expect(isInTrialAt({ status: 'active', trialEndsAt: now }, now)).toBe(false);
    expect(isInTrialAt({ status: 'past_due', trialEndsAt: null }, now)).toBe(false);
  });
});

describe('a subscription\'s state in words: the Users list\'s word on the subscriber page too (issue 38)', () => {
  it('reads the list\'s state word, naming a trial that cancels at its end', async () => {
    const { subscriptionStateWords } = await import('./status-words');
    expect(subscriptionStateWords('trialing', false)).toBe('In trial');
    expect(subscriptionStateWords('trialing', true)).toBe('Cancelling at period end (in trial)');
    expect(subscriptionStateWords('active', true)).toBe('Cancelling at period end');
    expect(subscriptionStateWords('active', false)).toBe('Paying');
    expect(subscriptionStateWords('past_due', false)).toBe('Past due');
    expect(subscriptionStateWords('cancelled', false)).toBe('Cancelled');
    expect(subscriptionStateWords('expired', true)).toBe('Expired');
  });
});
