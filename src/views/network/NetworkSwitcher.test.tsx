import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { lastingUndoMachine } from '../../../machines/lasting-undo.machine';
import { NETWORK_STATE_WORDS } from '../../../common/status-words';
import { LAUNCH_READINESS_TEXT } from '../../../common/appcms';
import { renderView, settle } from '../../test-harness/render-view';
import { appCmsUser, KIDS, MAIN, SERVICE, signedInAs } from '../../test-harness/view-fixtures';
import { systemActor } from '../../app-actor';
import { NetworkSwitcher } from './NetworkSwitcher';

const trigger = () => screen.getByTestId('network-switcher').querySelector('summary') as HTMLElement;

describe('NetworkSwitcher', () => {
  it('names the trigger with its visible text (label in name)', async () => {
    await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    expect(trigger().getAttribute('aria-label')).toBeNull();
    expect(trigger().textContent).toBe('Current network: Main Network');
  });

  it('offers no Launch or Copy to a read-only App CMS role', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: { ...appCmsUser(), ...signedInAs({ 'App CMS': 'read' }) },
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(trigger());
    expect(screen.getByRole('button', { name: /Kids/ })).toBeTruthy();
    expect(screen.queryByTestId('network-launch')).toBeNull();
    expect(screen.queryByTestId('network-copy-brand')).toBeNull();
  });

  it('offers Copy but not Launch on a launched network; on the default network both are disabled with the spec\'s reason (issues 30, 38)', async () => {
    const launched = { ...KIDS, isActive: true };
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ fetchService: fakeActor(() => ({ ...SERVICE, networks: [MAIN, launched] })) }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(trigger());
    expect(screen.queryByTestId('network-launch')).toBeNull();
    expect(screen.getByTestId('network-copy-brand')).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: /Main Network/ }));
    await view.user.click(trigger());
    // Spec §5: on the default network Launch and Copy are shown disabled, the refusal their visible reason (issue 38).
    const reason = screen.getByTestId('network-default-refusal');
    expect(reason.textContent).toBe(MESSAGES.isDefaultNetwork('Main Network'));
    for (const id of ['network-launch', 'network-copy-brand', 'network-copy-settings']) {
      expect(screen.getByTestId(id)).toHaveProperty('disabled', true);
      expect(screen.getByTestId(id).getAttribute('aria-describedby')).toBe(reason.id);
    }
    expect(screen.queryByTestId('network-withdraw')).toBeNull();
  });

  it('a reader is offered nothing on the default network, not even the disabled controls', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: { ...signedInAs({ 'App CMS': 'read' }), network: { fetchService: fakeActor(() => SERVICE) } } });
    await view.user.click(trigger());
    expect(screen.queryByTestId('network-default-refusal')).toBeNull();
    expect(screen.queryByTestId('network-launch')).toBeNull();
    expect(screen.queryByTestId('network-copy-brand')).toBeNull();
  });

  it('after a launch, offers its Undo beside the networks (issue 38: the 3-second message carries none); Undo asks the server with its request', async () => {
    const undone: unknown[] = [];
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({
        checkReadiness: fakeActor(() => []), publishNetwork: fakeActor(() => undefined),
        lastChange: lastingUndoMachine.provide({ actors: { applyUndo: fakeActor((input) => { undone.push(input); return {}; }) } }),
      }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    expect(screen.queryByTestId('network-last-change')).toBeNull();
    await view.user.click(trigger());
    await view.user.click(screen.getByTestId('network-launch'));
    const dialog = await screen.findByRole('dialog', { name: OWN_MESSAGES.networkLaunchTitle });
    await within(dialog).findByText(LAUNCH_READINESS_TEXT.ready(KIDS.name));
    await view.user.click(within(dialog).getByRole('button', { name: 'Launch' }));
    await settle();
    await view.user.click(trigger());
    const offer = await screen.findByTestId('network-last-change');
    expect(offer.textContent).toContain(OWN_MESSAGES.networkLastChange.launch(KIDS.name));
    expect(offer.textContent).toContain(OWN_MESSAGES.networkUndoLastHint);
    await view.user.click(within(offer).getByRole('button', { name: OWN_MESSAGES.networkUndoLast.launch }));
    await settle();
    expect(undone).toEqual([{ requestId: expect.any(String) }]);
    expect(screen.queryByTestId('network-last-change')).toBeNull();
  });

  it('shows what the network lacks before the launch can be confirmed, and offers "Launch anyway" (issue 30)', async () => {
    const gaps = [async () => new Promise<never>(() => {}), async () => ['brand', 'platform']];
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ checkReadiness: fromPromise(() => gaps.shift()!()), publishNetwork: pendingActor() }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-launch'));
    let dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkLaunchTitle });
    expect(within(dialog).getByRole('status').textContent).toBe(LAUNCH_READINESS_TEXT.checking);
    expect(within(dialog).getByRole('button', { name: 'Launch' })).toHaveProperty('disabled', true);
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await view.user.click(trigger());
    await view.user.click(screen.getByTestId('network-launch'));
    await settle();
    dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkLaunchTitle });
    expect(within(dialog).getByText(LAUNCH_READINESS_TEXT.lacks('Kids'))).toBeTruthy();
    const list = within(dialog).getByRole('list', { name: LAUNCH_READINESS_TEXT.list });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([LAUNCH_READINESS_TEXT.gap.brand, LAUNCH_READINESS_TEXT.gap.platform]);
    await view.user.click(within(dialog).getByRole('button', { name: LAUNCH_READINESS_TEXT.launchAnyway }));
    expect(view.sentTo('network')).toEqual([
      { type: 'network.launch' }, { type: 'network.cancel' }, { type: 'network.launch' }, { type: 'network.confirm' },
    ]);
  });

  it('closes on Escape and puts focus back on its trigger', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    await view.user.click(trigger());
    const details = screen.getByTestId('network-switcher') as HTMLDetailsElement;
    expect(details.open).toBe(true);
    screen.getByRole('button', { name: /Kids/ }).focus();
    await view.user.keyboard('{Escape}');
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(trigger());
  });

  it('says it is loading rather than "No networks" while the networks are fetched', async () => {
    await renderView(<NetworkSwitcher />, { actors: appCmsUser({ fetchService: pendingActor() }) });
    expect(screen.getByTestId('network-current').textContent).toBe(OWN_MESSAGES.networkLoading);
  });

  it('lists the networks with their marks, the current one first highlighted', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    expect(screen.getByTestId('network-current').textContent).toBe('Main Network');
    await view.user.click(trigger());
    const list = screen.getByRole('list', { name: 'Networks' });
    const main = within(list).getByRole('button', { name: /Main Network/ });
    expect(main.getAttribute('aria-current')).toBe('true');
    expect(within(main).getByText('Default')).toBeTruthy();
    expect(within(within(list).getByRole('button', { name: /Kids/ })).getByText(NETWORK_STATE_WORDS.not_launched)).toBeTruthy();
  });

  it('sends the chosen network', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    await view.user.click(trigger());
    await view.user.click(screen.getByRole('button', { name: /Kids/ }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.select', identifier: 'kids' }]);
    expect(screen.getByTestId('network-current').textContent).toBe('Kids');
  });

  it('offers Withdraw on a launched network, confirmed in a dialog saying what it does (issue 28)', async () => {
    const launched = { ...KIDS, isActive: true };
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ fetchService: fakeActor(() => ({ ...SERVICE, networks: [MAIN, launched] })), withdrawNetwork: pendingActor() }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(trigger());
    await view.user.click(screen.getByTestId('network-withdraw'));
    const dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkWithdrawTitle });
    expect(within(dialog).getByText(OWN_MESSAGES.networkWithdrawConfirm('Kids'))).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: OWN_MESSAGES.networkWithdraw }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.withdraw' }, { type: 'network.confirm' }]);
  });

  it('offers no Withdraw on the default network', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser(),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'main' }),
    });
    await view.user.click(trigger());
    expect(screen.getByTestId('network-copy-brand')).toBeTruthy();
    expect(screen.queryByTestId('network-withdraw')).toBeNull();
  });

  it('offers no Withdraw on a network that is not launched', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser(),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(trigger());
    expect(screen.getByTestId('network-launch')).toBeTruthy();
    expect(screen.queryByTestId('network-withdraw')).toBeNull();
  });

  it('confirms a launch in a dialog, then sends the confirmation', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ publishNetwork: pendingActor(), checkReadiness: fakeActor(() => []) }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-launch'));
    await settle();
    const dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkLaunchTitle });
    expect(within(dialog).getByText(OWN_MESSAGES.networkLaunchConfirm('Kids'))).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toBe(LAUNCH_READINESS_TEXT.ready('Kids'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Launch' }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.launch' }, { type: 'network.confirm' }]);
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Launch' })).toHaveProperty('disabled', true);
  });

  it('confirms a copy from the default network, and Cancel sends network.cancel', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser(),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-copy-settings'));
    const dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkCopyTitle('settings') });
    expect(within(dialog).getByText(OWN_MESSAGES.networkCopyConfirm('settings', 'Main Network', 'Kids'))).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.copy', what: 'settings' }, { type: 'network.cancel' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists in the copy dialog what the copy would change, or says nothing would, or that it could not tell', async () => {
    const changes = [
      { field: 'primaryColor', label: 'Primary colour', from: '#000000', to: '#1370B3' },
      { field: 'fontFamily', label: 'Font', from: 'Inter', to: 'Roboto' },
    ];
    const outcomes: Array<() => Promise<unknown>> = [async () => changes, async () => [], async () => { throw new Error('offline'); }];
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ previewCopy: fromPromise(() => outcomes.shift()!()) }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-copy-brand'));
    await settle();
    let dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkCopyTitle('brand') });
    expect(within(dialog).getByText(OWN_MESSAGES.networkCopyChanges(2))).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'What will change' });
    const rows = within(table).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([['Primary colour', '#000000', '#1370B3'], ['Font', 'Inter', 'Roboto']]);
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await view.user.click(screen.getByTestId('network-copy-brand'));
    await settle();
    dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkCopyTitle('brand') });
    expect(within(dialog).getByText(OWN_MESSAGES.networkCopyNoChanges)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await view.user.click(screen.getByTestId('network-copy-brand'));
    await settle();
    dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkCopyTitle('brand') });
    expect(within(dialog).getByRole('alert').textContent).toBe(OWN_MESSAGES.networkCopyCompareFailed);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toHaveProperty('disabled', false);
  });

  it('says there are no networks while none are known', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: signedInAs({ Content: 'write' }) });
    expect(screen.getByTestId('network-current').textContent).toBe(OWN_MESSAGES.networkNone);
    await view.user.click(trigger());
    expect(screen.queryByRole('list', { name: 'Networks' })).toBeNull();
  });
});

