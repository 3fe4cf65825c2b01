import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SUPPORT_MESSAGES } from '../../../common/support';
import type { Roles } from '../../../common/contract';
import { fakeActor } from '../../../machines/test-support/fakes';
import { renderView } from '../../test-support/render-view';
import { SubscriberPage } from './SubscriberPage';
import { agentSignedIn, fakeSupportLogic, SUBSCRIBER_ID, SUBSCRIPTION_ID, subscriberDetail } from '../../test-support/support-fixtures';

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
    expect(within(subscriptions).getByText('1 Feb 2026, 10:00 UTC')).toBeTruthy();
    expect(within(subscriptions).getByText('€12.99 / month')).toBeTruthy();
    const payments = screen.getByRole('table', { name: 'Payments' });
    expect(within(payments).getByText('Failed')).toBeTruthy();
    expect(within(payments).getByText('PayPal')).toBeTruthy();
    const devices = screen.getByRole('table', { name: 'Devices' });
    expect(within(devices).getByText('Signed in')).toBeTruthy();
    expect(within(devices).getByText('Signed out 1 Sept 2025')).toBeTruthy();
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
    expect(commands).toEqual([{ kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID, mode: 'AT_PERIOD_END', reason: 'Moving abroad', version: 1 }]);
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
    expect(screen.getByText('Ended 5 Jan 2026, 12:00 UTC')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add note' })).toBeTruthy();
  });
});
