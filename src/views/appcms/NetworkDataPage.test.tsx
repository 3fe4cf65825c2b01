import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-support/fakes';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { networkPage } from '../../test-support/network-page';
import { renderView } from '../../test-support/render-view';
import { signedInAs } from '../../test-support/view-fixtures';
import { NetworkDataPage } from './NetworkDataPage';

const page = <NetworkDataPage title="Settings" kind="settings">{(data) => <p>Value: {String(data.language)}</p>}</NetworkDataPage>;

describe('NetworkDataPage', () => {
  it('shows the data the network actor read for the current network, and sends nothing itself', async () => {
    const view = await renderView(page, networkPage('settings', { language: 'en' }));
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(screen.getByTestId('appcms-network').textContent).toBe('Kids');
    expect(screen.getByText('Value: en')).toBeTruthy();
    expect(view.sent).toEqual([]);
  });

  it('says it is loading while the read runs', async () => {
    await renderView(page, networkPage('settings', pendingActor()));
    expect(screen.getByText(OWN_MESSAGES.networkLoadingData).getAttribute('aria-busy')).toBe('true');
  });

  it('says the read failed, naming the network', async () => {
    await renderView(page, networkPage('settings', fakeActor(async () => { throw new Error('offline'); })));
    expect(screen.getByText(MESSAGES.failedToGet('settings', 'Kids'))).toBeTruthy();
  });

  it("explains the default network's data, and says when no network is selected", async () => {
    await renderView(page, networkPage('settings', { language: 'en' }, 'main'));
    expect(screen.getByTestId('default-network-note').textContent).toBe(OWN_MESSAGES.networkDefaultData('Main Network'));
    await renderView(page, { actors: signedInAs({ Content: 'write' }) });
    expect(screen.getByText(MESSAGES.noNetworkSelected)).toBeTruthy();
  });
});
