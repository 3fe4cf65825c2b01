import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { OWN_MESSAGES } from '../../../common/messages';
import { SUPPORT_MESSAGES } from '../../../common/support';
import type { ActionRequest, SupportDraft } from '../../../machines/support-subscriber.machine';
import { renderView, settle } from '../../test-harness/render-view';
import { SubscriberContext, SubscriberHost } from './support-logic';
import { SupportActionDialog } from './SupportActionDialog';
import { DEVICE_ID, fakeSupportLogic, SUBSCRIBER_ID, SUBSCRIPTION_ID } from '../../test-harness/support-fixtures';

/** The dialog over a subscriber machine that has loaded and was asked to start `request`. */
async function renderDialog(request: ActionRequest, options: Parameters<typeof fakeSupportLogic>[0] & { url?: string } = {}) {
  const fake = fakeSupportLogic(options);
  function Starter() {
    const actor = SubscriberContext.useActorRef();
    return <button type="button" onClick={() => actor.send({ type: 'action.start', request })}>Start</button>;
  }
  const view = await renderView(
    <SubscriberHost input={{ subscriberId: SUBSCRIBER_ID, canAct: true }}>
      <Starter />
      <SupportActionDialog />
    </SubscriberHost>,
    { pages: fake.pages, ...(options.url ? { url: options.url } : {}) },
  );
  await view.user.click(screen.getByRole('button', { name: 'Start' }));
  return { ...fake, view };
}

describe('SupportActionDialog', () => {
  it('cancels now when the agent picks it, naming what happens', async () => {
    const { view, commands } = await renderDialog({ kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID });
    const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
    expect(within(dialog).getByText('When should Premium Monthly end?')).toBeTruthy();
    await view.user.click(within(dialog).getByLabelText('Now: it ends at once and stops counting as active today'));
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Charged twice');
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await settle();
    expect(commands).toEqual([{ kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID, mode: 'NOW', reason: 'Charged twice', version: 1 }]);
  });

  it('grants days, showing the new period end, and refuses days out of range', async () => {
    const { view, commands } = await renderDialog({ kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID });
    const dialog = screen.getByRole('dialog', { name: 'Grant complimentary days' });
    const days = within(dialog).getByLabelText('Days (1–365)');
    await view.user.type(days, '400');
    expect(within(dialog).getByText(SUPPORT_MESSAGES.daysRange)).toBeTruthy();
    await view.user.clear(days);
    await view.user.type(days, '14');
    expect(within(dialog).getByText('The period of Premium Monthly will end 15 Feb 2026, 10:00 instead of 1 Feb 2026, 10:00.')).toBeTruthy();
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Outage on Sunday');
    await view.user.click(within(dialog).getByRole('button', { name: 'Grant days' }));
    await settle();
    expect(commands).toEqual([{ kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID, days: 14, reason: 'Outage on Sunday', version: 1 }]);
  });

  it('signs out one device by name', async () => {
    const { view, commands } = await renderDialog({ kind: 'signOutDevices', deviceId: DEVICE_ID });
    const dialog = screen.getByRole('dialog', { name: 'Sign out device' });
    expect(within(dialog).getByText('Living room Roku will have to sign in again.')).toBeTruthy();
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Lost remote');
    await view.user.click(within(dialog).getByRole('button', { name: 'Sign out device' }));
    await settle();
    expect(commands[0]).toMatchObject({ kind: 'signOutDevices', deviceId: DEVICE_ID, reason: 'Lost remote' });
  });

  it('adds a note: the note is the only field', async () => {
    const { view, commands } = await renderDialog({ kind: 'addNote' });
    const dialog = screen.getByRole('dialog', { name: 'Add a support note' });
    expect(within(dialog).queryByLabelText('Reason (kept in the audit log)')).toBeNull();
    await view.user.type(within(dialog).getByLabelText('Note'), 'Explained how to reset the app.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add note' }));
    await settle();
    expect(commands).toEqual([{ kind: 'addNote', subscriberId: SUBSCRIBER_ID, body: 'Explained how to reset the app.' }]);
  });

  it('keeps the dialog open with the server\'s refusal, and Go back asks before it closes (a reason was typed)', async () => {
    const { view } = await renderDialog({ kind: 'signOutDevices', deviceId: null }, { run: () => { throw new Error('You do not have access to this area.'); } });
    const dialog = screen.getByRole('dialog', { name: 'Sign out of all devices' });
    expect(within(dialog).getByText('Every device of this subscriber will have to sign in again.')).toBeTruthy();
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Account shared');
    await view.user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('You do not have access to this area.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    const question = screen.getByRole('dialog', { name: 'Unsaved changes' });
    await view.user.click(within(question).getByRole('button', { name: 'Leave' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes at once with nothing typed', async () => {
    const { view } = await renderDialog({ kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID });
    await view.user.click(within(screen.getByRole('dialog', { name: 'Grant complimentary days' })).getByRole('button', { name: 'Go back' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape with typed input asks; Stay brings the form back as it was typed', async () => {
    const { view } = await renderDialog({ kind: 'addNote' });
    await view.user.type(screen.getByLabelText('Note'), 'Explained the refund.');
    await view.user.keyboard('{Escape}');
    const question = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(question).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    await view.user.click(within(question).getByRole('button', { name: 'Stay' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a support note' });
    expect((within(dialog).getByLabelText('Note') as HTMLTextAreaElement).value).toBe('Explained the refund.');
  });

  it('a navigation away with typed input waits for the answer: Stay keeps the page, Leave goes', async () => {
    const { view } = await renderDialog({ kind: 'revealContact' }, { url: '/users/x' });
    await view.user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'Verify the caller');
    await view.navigate('/users');
    expect(view.location()).toBe('/users/x');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await settle();
    expect(view.location()).toBe('/users/x');
    expect((screen.getByLabelText('Reason (kept in the audit log)') as HTMLTextAreaElement).value).toBe('Verify the caller');
    await view.navigate('/users');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await settle();
    expect(view.location()).toBe('/users');
  });

  it('a navigation away with nothing typed goes at once', async () => {
    const { view } = await renderDialog({ kind: 'revealContact' }, { url: '/users/x' });
    await view.navigate('/users');
    expect(view.location()).toBe('/users');
  });

  it('opens the action kept before a reload, with what was typed, and keeps each edit', async () => {
    const fake = fakeSupportLogic();
    const kept = vi.fn();
    const draft: SupportDraft = {
      request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID }, version: 1,
      values: { reason: 'Outage', mode: 'AT_PERIOD_END', days: '14', note: '', planId: '', when: 'NOW', amount: '' },
    };
    const subscriber = fake.pages.subscriber.provide({
      actors: { readActionDraft: fromPromise<SupportDraft | null, { subscriberId: string }>(async () => draft) },
      actions: { keepDraft: (_, params) => kept(params) },
    });
    const view = await renderView(
      <SubscriberHost input={{ subscriberId: SUBSCRIBER_ID, canAct: true }}><SupportActionDialog /></SubscriberHost>,
      { pages: { ...fake.pages, subscriber } },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Grant complimentary days' });
    expect((within(dialog).getByLabelText('Days (1–365)') as HTMLInputElement).value).toBe('14');
    expect((within(dialog).getByLabelText('Reason (kept in the audit log)') as HTMLTextAreaElement).value).toBe('Outage');
    await view.user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), '!');
    expect(kept).toHaveBeenLastCalledWith({ subscriberId: SUBSCRIBER_ID, draft: { ...draft, values: { ...draft.values, reason: 'Outage!' } } });
  });
});
