import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-support/render-view';
import { AppcmsFrame } from './AppcmsFrame';
import { appcmsAs } from './appcms-test-kit';

describe('AppcmsFrame', () => {
  it('gives a per-network page the site, the chosen network and the edit right', async () => {
    await renderView(<AppcmsFrame title="Brand" testId="frame" perNetwork>{(s) => <p>{`${s.site}/${s.network}/${s.canEdit}`}</p>}</AppcmsFrame>, appcmsAs('write'));
    expect(await screen.findByText('demo-site/kids/true')).toBeTruthy();
    expect(screen.getByTestId('appcms-network').textContent).toBe('Kids');
    expect(screen.queryByTestId('appcms-read-only')).toBeNull();
  });

  it('says the default network is not edited here, and tells a read level its controls are disabled', async () => {
    await renderView(<AppcmsFrame title="Brand" testId="frame" perNetwork>{() => <p>editor</p>}</AppcmsFrame>, appcmsAs('read', 'main'));
    expect(await screen.findByTestId('default-network-note')).toBeTruthy();
    expect(screen.queryByText('editor')).toBeNull();
    expect(screen.getByTestId('appcms-read-only')).toBeTruthy();
  });

  it('a site page gets the site whatever network is chosen', async () => {
    await renderView(<AppcmsFrame title="Service" testId="frame" perNetwork={false}>{(s) => <p>{`${s.site}/${s.network}`}</p>}</AppcmsFrame>, appcmsAs('write', 'main'));
    expect(await screen.findByText('demo-site/demo-site')).toBeTruthy();
  });
});
