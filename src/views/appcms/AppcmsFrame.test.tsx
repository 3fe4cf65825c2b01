import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { OWN_MESSAGES } from '../../../common/messages';
import { AppcmsFrame } from './AppcmsFrame';
import { appcmsAs } from './appcms-test-kit';

describe('AppcmsFrame', () => {
  it('gives a per-network page the site, the chosen network and the edit right', async () => {
    await renderView(<AppcmsFrame title="Brand" testId="frame" perNetwork>{(s) => <p>{`${s.site}/${s.network}/${s.canEdit}`}</p>}</AppcmsFrame>, appcmsAs('write'));
    expect(await screen.findByText('demo-site/kids/true')).toBeTruthy();
    expect(screen.getByTestId('appcms-network').textContent).toBe('Kids');
    expect(screen.queryByTestId('appcms-read-only')).toBeNull();
  });

  it('edits the default network like any other (issue 28), saying it is the copy source, and tells a read level its controls are disabled', async () => {
    await renderView(<AppcmsFrame title="Brand" testId="frame" perNetwork>{(s) => <p>{`editor ${s.network} default=${s.isDefault}`}</p>}</AppcmsFrame>, appcmsAs('read', 'main'));
    expect((await screen.findByTestId('default-network-note')).textContent).toBe(OWN_MESSAGES.networkDefaultEditing('Main Network'));
    expect(screen.getByText('editor main default=true')).toBeTruthy();
    expect(screen.getByTestId('appcms-read-only')).toBeTruthy();
  });

  it('a site page gets the site whatever network is chosen', async () => {
    await renderView(<AppcmsFrame title="Service" testId="frame" perNetwork={false}>{(s) => <p>{`${s.site}/${s.network}`}</p>}</AppcmsFrame>, appcmsAs('write', 'main'));
    expect(await screen.findByText('demo-site/demo-site')).toBeTruthy();
  });
});
