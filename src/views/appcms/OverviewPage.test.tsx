import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { systemActor } from '../../app-actor';
import { APPCMS_PAGES } from '../../config';
import { renderView, settle } from '../../test-harness/render-view';
import { AppcmsOverviewPage } from './OverviewPage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

beforeEach(() => {
  appcmsFakes.overviewReads.length = 0;
  appcmsFakes.overview = [
    { id: 'template', templateName: 'Kids Template' },
    { id: 'brand', logoUrl: '/v2.0/appcms/files/kids-logo.png', colours: [{ label: 'Primary', value: '#FF6600' }, { label: 'Background', value: '#FFFFFF' }] },
    { id: 'settings', seq: 23, createdBy: 'ada@demo.test', createdAt: '2026-11-20T10:30:00.000Z' },
    { id: 'devices', enabled: ['Web browser', 'Roku'], total: 8 },
    { id: 'service', serviceName: 'Demo TV', serviceType: 'SVOD', domainName: 'demo.example' },
  ];
});

const card = (id: string) => screen.getByTestId(`overview-${id}`);

describe('AppcmsOverviewPage (/appcms)', () => {
  it('shows a card per section with its current data in one line and a link to its page', async () => {
    await renderView(<AppcmsOverviewPage />, appcmsAs('read'));
    await screen.findByText('Kids Template');
    expect(appcmsFakes.overviewReads).toEqual([{ site: 'demo-site', network: 'kids' }]);
    expect(screen.getByTestId('appcms-network').textContent).toBe('Kids');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(APPCMS_PAGES.map((p) => p.title));
    for (const p of APPCMS_PAGES) {
      expect(within(card(p.path.replace('/appcms/', ''))).getByRole('link', { name: `Open ${p.title}` }).getAttribute('href')).toBe(p.path);
    }
    expect(card('template').querySelector('p')?.textContent).toBe('Page template: Kids Template');
    expect(within(card('brand')).getByRole('img', { name: 'Logo' }).getAttribute('src')).toBe('/v2.0/appcms/files/kids-logo.png');
    expect(card('brand').querySelector('p')?.textContent).toBe('Primary #FF6600Background #FFFFFF');
    // A logo the browser cannot load is named, not shown broken.
    fireEvent.error(within(card('brand')).getByRole('img', { name: 'Logo' }));
    expect(card('brand').querySelector('p')?.textContent).toBe('Logo not reachablePrimary #FF6600Background #FFFFFF');
    // Issue 38: the change is numbered as its History numbers it, never a second "Version 4".
    expect(card('settings').querySelector('p')?.textContent).toBe(`Last change #23 (numbered as in the Settings History), saved by ada@demo.test, 20 Nov 2026, 10:30`);
    expect(card('devices').querySelector('p')?.textContent).toBe('2 of 8 platforms enabled: Web browser, Roku');
    expect(card('service').querySelector('p')?.textContent).toBe('Demo TV · SVOD · demo.example');
  });

  it('says so on the card of a section that could not be read, the others still shown', async () => {
    appcmsFakes.overview[3] = { id: 'devices', error: 'Network with identifier kids not found' };
    appcmsFakes.overview[2] = { id: 'settings', seq: null };
    await renderView(<AppcmsOverviewPage />, appcmsAs('write'));
    await screen.findByText('Kids Template');
    expect(card('devices').querySelector('p')?.textContent).toBe('Could not be read: Network with identifier kids not found');
    expect(card('settings').querySelector('p')?.textContent).toBe('No change recorded yet: the settings as the network was set up');
    expect(card('service').querySelector('p')?.textContent).toBe('Demo TV · SVOD · demo.example');
  });

  it('reads again for the network chosen in the header', async () => {
    const view = await renderView(<AppcmsOverviewPage />, appcmsAs('write'));
    await screen.findByText('Kids Template');
    appcmsFakes.overview[0] = { id: 'template', templateName: 'Reference Template' };
    await act(async () => { systemActor(view.root, 'network').send({ type: 'network.select', identifier: 'main' }); });
    await settle();
    expect(appcmsFakes.overviewReads).toEqual([{ site: 'demo-site', network: 'kids' }, { site: 'demo-site', network: 'main' }]);
    expect(screen.getByTestId('appcms-network').textContent).toBe('Main Network');
    expect(screen.getByText('(default network)', { exact: false })).toBeTruthy();
    expect(card('template').querySelector('p')?.textContent).toBe('Page template: Reference Template');
  });
});
