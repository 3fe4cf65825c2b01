import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RENEWAL_MOVE_WORDS, SUPPORT_MESSAGES, TRIAL_PLAN_CHANGE_RULE } from '../../../common/support';
import type { Roles } from '../../../common/contract';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { SubscriberPage } from './SubscriberPage';
import {
  agentSignedIn, FAMILY_PLAN_ID, fakeSupportLogic, PLAN_ID, SUBSCRIBER_ID, SUBSCRIPTION_ID, subscriberDetail, supportRevision,
} from '../../test-harness/support-fixtures';

async function renderSubscriber(roles: Roles, options: Parameters<typeof fakeSupportLogic>[0] = {}) {
  const fake = fakeSupportLogic(options);
  const view = await renderView(
    <SubscriberPage />,
    {
      pages: fake.pages,
      url: `/users/${SUBSCRIBER_ID}`,
      routePath: '/users/$subscriberId',
      actors: { auth: { readStoredSession: fakeActor(() => agentSignedIn(roles)) } },
    },
  );
  return { ...fake, view };
}

const WRITE: Roles = { 'Customer Support': 'write' };
const READ: Roles = { 'Customer Support': 'read' };

describe('SubscriberPage', () => {
  it('shows profile, subscriptions, payments, devices, playback QoS and notes, with e-mail and phone masked', async () => {
    await renderSubscriber(READ);
    expect(screen.getByRole('heading', { name: 'Maria Lopez' })).toBeTruthy();
    expect(screen.getByText('ma•••@example.com')).toBeTruthy();
    expect(screen.getByText('•••• 4321')).toBeTruthy();
    const subscriptions = screen.getByRole('table', { name: 'Subscriptions' });
    expect(within(subscriptions).getByText('Premium Monthly')).toBeTruthy();
    expect(within(subscriptions).getByText('1 Feb 2026, 10:00')).toBeTruthy();
    expect(within(subscriptions).getByText('€12.99 / month')).toBeTruthy();
    const payments = screen.getByRole('table', { name: 'Payments' });
    expect(within(payments).getByText('Failed')).toBeTruthy();
    expect(within(payments).getByText('PayPal')).toBeTruthy();
    const devices = screen.getByRole('table', { name: 'Devices' });
    expect(within(devices).getByText('Signed in')).toBeTruthy();
    expect(within(devices).getByText('Signed out 1 Sep 2025')).toBeTruthy();
    const playback = screen.getByRole('table', { name: 'Recent playback' });
    expect(within(playback).getByText('6.2 s')).toBeTruthy();
    expect(within(playback).getByText('7× · 1 min 35 s')).toBeTruthy();
    expect(within(playback).getByText('NET-408')).toBeTruthy();
    expect(screen.getByText('Asked about 4K on Roku.')).toBeTruthy();
  });

  it('offers a read-only agent no action controls, only the logged reveal', async () => {
    await renderSubscriber(READ);
    for (const name of ['Cancel subscription', 'Grant days', 'Sign out of all devices', 'Sign out Living room Roku', 'Add note']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.getByRole('button', { name: 'Show full e-mail and phone' })).toBeTruthy();
  });

  it('cancels a subscription at period end after a confirmation with a reason, and shows the change', async () => {
    const { view, commands } = await renderSubscriber(WRITE);
    await view.user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
    const confirm = within(dialog).getByRole('button', { name: 'Cancel subscription' });
    expect(confirm).toHaveProperty('disabled', true);
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Moving abroad');
    await view.user.click(confirm);
    expect(await screen.findByRole('status')).toHaveProperty('textContent', SUPPORT_MESSAGES.cancelledAtPeriodEnd);
    // The cancel at period end names its request (a UUID) so the snackbar can offer Undo (issue 28).
    expect(commands).toEqual([{
      kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID, mode: 'AT_PERIOD_END', reason: 'Moving abroad', version: 1,
      requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Subscriptions' })).getByText('Yes')).toBeTruthy();
  });

  it('reveals the full e-mail and phone after giving a reason, and hides them again', async () => {
    const { view, commands } = await renderSubscriber(READ, { run: () => ({ kind: 'contact', contact: { email: 'maria.lopez@example.com', phone: '+34 600 000 321' } }) });
    await view.user.click(screen.getByRole('button', { name: 'Show full e-mail and phone' }));
    await view.user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'Identity check on a call');
    await view.user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('maria.lopez@example.com')).toBeTruthy();
    expect(commands).toEqual([{ kind: 'revealContact', subscriberId: SUBSCRIBER_ID, reason: 'Identity check on a call' }]);
    await view.user.click(screen.getByRole('button', { name: 'Hide e-mail and phone' }));
    expect(screen.getByText('ma•••@example.com')).toBeTruthy();
  });

  it('shows a subscriber that cannot be read, with Retry', async () => {
    let fail = true;
    const { view } = await renderSubscriber(WRITE, { load: () => { if (fail) throw new Error(SUPPORT_MESSAGES.subscriberNotFound); return subscriberDetail(); } });
    expect(screen.getByRole('alert').textContent).toContain(SUPPORT_MESSAGES.subscriberNotFound);
    expect(screen.getByRole('link', { name: '← Back to search' }).getAttribute('href')).toBe('/users');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Maria Lopez' })).toBeTruthy();
  });

  it('offers no cancel or days on a subscription that has ended', async () => {
    await renderSubscriber(WRITE, { load: () => subscriberDetail({ status: 'cancelled', endedAt: '2026-01-05T12:00:00.000Z' }) });
    expect(screen.getByText('Ended 5 Jan 2026, 12:00')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add note' })).toBeTruthy();
  });

  it('offers Resume on a subscription cancelling at period end, and resumes it after a reason', async () => {
    const { view, commands } = await renderSubscriber(WRITE, {
      load: () => subscriberDetail({ cancelAtPeriodEnd: true }),
      run: () => ({ kind: 'detail', detail: subscriberDetail() }),
    });
    const row = within(screen.getByRole('table', { name: 'Subscriptions' })).getAllByRole('row')[1]!;
    expect(within(row).getByRole('button', { name: 'Cancel now' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    await view.user.click(within(row).getByRole('button', { name: 'Resume subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Resume subscription' });
    expect(within(dialog).getByText(/Premium Monthly will renew at the end of its period \(1 Feb 2026, 10:00\)/)).toBeTruthy();
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Changed their mind');
    await view.user.click(within(dialog).getByRole('button', { name: 'Resume subscription' }));
    expect((await screen.findByRole('status')).textContent).toBe(SUPPORT_MESSAGES.resumed);
    expect(commands).toEqual([{ kind: 'resumeSubscription', subscriptionId: SUBSCRIPTION_ID, reason: 'Changed their mind', version: 1 }]);
    expect(screen.queryByRole('button', { name: 'Resume subscription' })).toBeNull();
  });

  it('refunds part of a payment and shows it partly refunded, with the amount given back', async () => {
    const { view, commands } = await renderSubscriber(WRITE, {
      run: () => ({ kind: 'detail', detail: subscriberDetail({ refundedAmount: 650, paymentStatus: 'partially_refunded' }) }),
    });
    const payments = screen.getByRole('table', { name: 'Payments' });
    // Only the succeeded payment can be refunded, not the failed one.
    expect(within(payments).getAllByRole('button', { name: /^Refund the payment/ })).toHaveLength(1);
    await view.user.click(within(payments).getByRole('button', { name: 'Refund the payment of 1 Dec 2025, 10:00' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund payment' });
    const amount = within(dialog).getByLabelText<HTMLInputElement>('Amount to refund (EUR)');
    expect(amount.value).toBe('12.99');
    await view.user.clear(amount);
    await view.user.type(amount, '13.00');
    expect(within(dialog).getByText('Enter an amount from €0.01 up to €12.99 (what is left of the payment).')).toBeTruthy();
    await view.user.clear(amount);
    await view.user.type(amount, '6.50');
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Outage for half the month');
    expect(within(dialog).getByText(/Gives back €6.50, part of the payment of 1 Dec 2025, 10:00 \(up to €12.99\)\. The refund counts in Net revenue and the Payments report today\./)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect((await screen.findByRole('status', {}, { timeout: 5000 })).textContent).toBe(SUPPORT_MESSAGES.partlyRefunded);
    expect(commands).toEqual([{ kind: 'refundPayment', paymentId: 'p1', amount: 650, full: false, reason: 'Outage for half the month', version: 1 }]);
    expect(within(screen.getByRole('table', { name: 'Payments' })).getByText('Partly refunded')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Payments' })).getByText('€6.50')).toBeTruthy();
  }, 20_000);

  it('changes plan now, stating the proration rule and this change\'s amount, and offers only plans priced in the currency', async () => {
    const { view, commands } = await renderSubscriber(WRITE);
    await view.user.click(screen.getByRole('button', { name: 'Change plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    const select = within(dialog).getByLabelText<HTMLSelectElement>('New plan');
    const options = [...select.options].map((o) => [o.textContent, o.disabled]);
    expect(options).toEqual([['Choose a plan', false], ['Family Monthly · €18.99 / month', false], ['US Basic · no EUR price', true]]);
    await view.user.selectOptions(select, 'Family Monthly · €18.99 / month');
    expect(within(dialog).getByText(/^Proration: the time left in this period is charged at the new price and credited at the old one/)).toBeTruthy();
    expect(within(dialog).getByText(/For this change: [+−]€\d+\.\d\d on the next payment \(1 Feb 2026, 10:00\)\./)).toBeTruthy();
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Wants the family plan');
    await view.user.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(commands).toEqual([expect.objectContaining({ kind: 'changePlan', planName: 'Family Monthly', when: 'NOW', reason: 'Wants the family plan' })]);
  }, 20_000);

  it('changing plan now in a free trial states that there is no proration instead of an amount (issue 38)', async () => {
    const detail = subscriberDetail();
    detail.subscriptions[0] = { ...detail.subscriptions[0]!, status: 'trialing', trialEndsAt: detail.subscriptions[0]!.currentPeriodEnd };
    const { view } = await renderSubscriber(WRITE, { load: () => detail });
    await view.user.click(screen.getByRole('button', { name: 'Change plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    await view.user.selectOptions(within(dialog).getByLabelText<HTMLSelectElement>('New plan'), 'Family Monthly · €18.99 / month');
    expect(within(dialog).getByText(TRIAL_PLAN_CHANGE_RULE)).toBeTruthy();
    expect(within(dialog).queryByText(/For this change:/)).toBeNull();
    expect(within(dialog).queryByText(/^Proration: the time left/)).toBeNull();
  }, 20_000);

  it('reads each subscription\'s state in the Users list\'s words, a trial cancelling at its end included (issue 38)', async () => {
    const detail = subscriberDetail();
    detail.subscriptions[0] = { ...detail.subscriptions[0]!, status: 'trialing', cancelAtPeriodEnd: true };
    await renderSubscriber(READ, { load: () => detail });
    const row = within(screen.getByRole('table', { name: 'Subscriptions' })).getAllByRole('row')[1]!;
    expect(within(row).getByText('Cancelling at period end (in trial)')).toBeTruthy();
  }, 20_000);

  it('shows the next payment with its proration and a plan change waiting for the period end', async () => {
    const detail = subscriberDetail();
    detail.subscriptions[0] = { ...detail.subscriptions[0]!, nextPaymentAdjustment: 400, pendingPlanName: 'Family Monthly' };
    await renderSubscriber(READ, { load: () => detail });
    const row = within(screen.getByRole('table', { name: 'Subscriptions' })).getAllByRole('row')[1]!;
    expect(within(row).getByText(/€16\.99 \(proration \+€4\.00\)/)).toBeTruthy();
    expect(within(row).getByText('Moves to Family Monthly', { exact: false })).toBeTruthy();
  });

  it('a subscription moved to the plan\'s new price at its next renewal shows the next payment at that price, with words saying so (issue 38)', async () => {
    const detail = subscriberDetail();
    detail.subscriptions[0] = { ...detail.subscriptions[0]!, renewalAmount: 1449 };
    await renderSubscriber(READ, { load: () => detail });
    const row = within(screen.getByRole('table', { name: 'Subscriptions' })).getAllByRole('row')[1]!;
    expect(within(row).getByText('€12.99 / month')).toBeTruthy();
    const next = row.querySelector('[data-label="Next payment"]')!;
    expect(next.textContent).toBe(`€14.49${RENEWAL_MOVE_WORDS('€12.99')}`);
    expect(within(row).getByText(/Moves to the plan's new price at renewal \(pays €12\.99 until then\)/)).toBeTruthy();
  });

  it('an unknown or malformed id is a not-found page with a heading and a way back, no Retry', async () => {
    for (const code of ['NOT_FOUND', 'BAD_USER_INPUT']) {
      const { view } = await renderSubscriber(READ, { load: () => { throw Object.assign(new Error('id is not a valid id.'), { code }); } });
      expect(screen.getByRole('heading', { name: SUPPORT_MESSAGES.subscriberNotFound })).toBeTruthy();
      expect(screen.getByText(SUPPORT_MESSAGES.subscriberNotFoundHelp)).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to search' }).getAttribute('href')).toBe('/users');
      expect(screen.queryByText('id is not a valid id.')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      view.unmount();
    }
  });

  describe('History', () => {
    const cancelled = supportRevision({
      kind: 'subscription', objectId: SUBSCRIPTION_ID,
      changes: [{ field: 'cancelAtPeriodEnd', before: false, after: true }, { field: 'version', before: 1, after: 2 }],
    });
    const planChanged = supportRevision({
      seq: 2, kind: 'subscription', objectId: SUBSCRIPTION_ID, reason: 'Wants the family plan',
      changes: [{ field: 'planId', before: PLAN_ID, after: FAMILY_PLAN_ID }, { field: 'amount', before: 1299, after: 1899 }],
    });
    const refund = supportRevision({
      kind: 'payment', objectId: 'p1', reason: 'Charged twice',
      changes: [{ field: 'status', before: 'succeeded', after: 'refunded' }, { field: 'refundedAmount', before: 0, after: 1299 }, { field: 'version', before: 1, after: 2 }],
    });

    it('shows a subscription\'s History in words to a read-only agent, read-only, naming the plans', async () => {
      const { view, historyLoads } = await renderSubscriber(READ, { history: () => [planChanged, cancelled] });
      const region = screen.getByRole('region', { name: 'History of the Premium Monthly subscription' });
      const toggle = within(region).getByRole('button', { name: 'Show history of the Premium Monthly subscription' });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(historyLoads).toEqual([]);
      await view.user.click(toggle);
      expect(await within(region).findByText('Cancels at period end: No → Yes')).toBeTruthy();
      expect(within(region).getByText('Plan: Premium Monthly → Family Monthly')).toBeTruthy();
      expect(within(region).getByText('Price: 12.99 → 18.99')).toBeTruthy();
      expect(within(region).getByText('Reason: Wants the family plan')).toBeTruthy();
      expect(within(region).queryByText(/Version/)).toBeNull();
      expect(within(region).queryByRole('button', { name: /Restore/ })).toBeNull();
      expect(historyLoads).toEqual([expect.objectContaining({ kind: 'subscription', objectId: SUBSCRIPTION_ID })]);
      await view.user.click(within(region).getByRole('button', { name: 'Hide history of the Premium Monthly subscription' }));
      expect(within(region).queryByText('Cancels at period end: No → Yes')).toBeNull();
    });

    it('shows the move to the plan\'s new price at the next renewal in words (issue 38)', async () => {
      const moved = supportRevision({
        seq: 3, kind: 'subscription', objectId: SUBSCRIPTION_ID, reason: 'Premium Monthly: moved to the plan\'s current price at the next renewal',
        changes: [{ field: 'renewalAmount', before: 1299, after: 1449 }, { field: 'renewalPriceVersion', before: null, after: 2 }],
      });
      const { view } = await renderSubscriber(READ, { history: () => [moved] });
      const region = screen.getByRole('region', { name: 'History of the Premium Monthly subscription' });
      expect(screen.queryByText('No changes recorded yet.')).toBeNull();
      await view.user.click(within(region).getByRole('button', { name: 'Show history of the Premium Monthly subscription' }));
      expect(await within(region).findByText('Price at next renewal: 12.99 → 14.49')).toBeTruthy();
      expect(within(region).getByText('Reason: Premium Monthly: moved to the plan\'s current price at the next renewal')).toBeTruthy();
      expect(within(region).queryByText(/version/i)).toBeNull();
    });

    it('gives a refunded payment a History (an untouched one none) that reads the refund in words', async () => {
      const { view } = await renderSubscriber(READ, { load: () => subscriberDetail({ paymentStatus: 'refunded', refundedAmount: 1299 }), history: () => [refund] });
      const payments = screen.getByRole('table', { name: 'Payments' });
      expect(within(payments).getAllByRole('region')).toHaveLength(1);
      const region = within(payments).getByRole('region', { name: 'History of the payment of 1 Dec 2025, 10:00' });
      await view.user.click(within(region).getByRole('button', { name: /^Show history/ }));
      expect(await within(region).findByText('Status: Succeeded → Refunded')).toBeTruthy();
      expect(within(region).getByText('Refunded: 0.00 → 12.99')).toBeTruthy();
    });

    it('an open History shows the new revision at once after a cancel at period end', async () => {
      let revisions = [planChanged];
      const { view, historyLoads } = await renderSubscriber(WRITE, { history: () => revisions });
      const region = screen.getByRole('region', { name: 'History of the Premium Monthly subscription' });
      await view.user.click(within(region).getByRole('button', { name: 'Show history of the Premium Monthly subscription' }));
      await within(region).findByText('Plan: Premium Monthly → Family Monthly');
      revisions = [{ ...cancelled, seq: 3 }, planChanged];
      await view.user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
      const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
      await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Moving abroad');
      await view.user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
      expect(await within(region).findByText('Cancels at period end: No → Yes')).toBeTruthy();
      expect(historyLoads).toHaveLength(2);
    });
  });
});
