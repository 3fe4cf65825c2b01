import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPCMS_MESSAGES, flattenBrand } from '../../../common/appcms';
import { renderView } from '../../test-harness/render-view';
import { BrandPage } from './BrandPage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

const theme = { primaryColor: '#1370B3', secondaryColor: '#0C5177', backgroundColor: '#FFFFFF', textColor: '#111111', fontFamily: 'Inter' };

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.actions.length = 0;
  appcmsFakes.records.brand = {
    values: flattenBrand({ logoUrl: '/kids-logo.png', iconUrl: '/kids-icon.png', theme, themeOtt: theme, themeApps: theme }), version: 3, data: null,
  };
});

describe('BrandPage', () => {
  it('previews each theme in its chosen font, quoted, with a fallback (issue 30)', async () => {
    const view = await renderView(<BrandPage />, appcmsAs('write'));
    const sample = await screen.findByTestId('sample-theme');
    expect(sample.style.fontFamily).toBe('"Inter", system-ui, sans-serif');
    await view.user.selectOptions(within(screen.getByTestId('theme-theme')).getByRole('combobox'), 'SF Pro');
    expect(screen.getByTestId('sample-theme').style.fontFamily).toBe('"SF Pro", system-ui, sans-serif');
    expect(screen.getByTestId('sample-themeOtt').style.fontFamily).toBe('"Inter", system-ui, sans-serif');
  });

  it('edits a colour with its contrast shown, warns under 4.5:1, previews the sample screens, and saves with the version', async () => {
    const view = await renderView(<BrandPage />, appcmsAs('write'));
    expect(await screen.findByTestId('contrast-theme-text')).toHaveProperty('textContent', expect.stringContaining('(WCAG AA)'));
    const text = screen.getByRole('textbox', { name: 'Web text colour' });
    fireEvent.change(text, { target: { value: '#EEEEEE' } });
    expect(screen.getByTestId('contrast-theme-text').textContent).toContain(APPCMS_MESSAGES.lowContrast('1.16'));
    expect(screen.getByTestId('sample-theme').style.color).toBe('rgb(238, 238, 238)');
    // The sample is a picture: its theme name is a caption in the console's colours, its button inactive.
    expect(screen.getByTestId('sample-theme').querySelector('figcaption')?.textContent).toBe('Web');
    expect(within(screen.getByTestId('sample-theme')).getByRole('button', { name: 'Watch now' })).toHaveProperty('disabled', true);
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'brand', input: { version: 3, changes: { 'theme.textColor': '#EEEEEE' } } });
    expect(await screen.findByText(APPCMS_MESSAGES.saved)).toBeTruthy();
  });

  it('lists what Copy from default would change', async () => {
    appcmsFakes.preview.brand = [{ field: 'theme.primaryColor', label: 'Web primary colour', from: '#D62828', to: '#1370B3' }];
    await renderView(<BrandPage />, appcmsAs('write'));
    const preview = await screen.findByTestId('copy-preview-brand');
    expect(await within(preview).findByRole('row', { name: 'Web primary colour #D62828 #1370B3' })).toBeTruthy();
  });

  it('uploads a logo and shows it at the sizes the apps use', async () => {
    const view = await renderView(<BrandPage />, appcmsAs('write'));
    const input = await screen.findByLabelText('Upload logo');
    await view.user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo uploaded. Save to use it.')).toBeTruthy();
    expect(appcmsFakes.actions.at(-1)).toMatchObject({ name: 'upload', args: { slot: 'logo' } });
    expect(screen.getByRole('img', { name: 'Logo at 160 px' }).getAttribute('src')).toBe('/v2.0/appcms/files/new-logo.png');
  });

  it('shows the same page to App CMS read with every control disabled and no Save', async () => {
    await renderView(<BrandPage />, appcmsAs('read'));
    expect(await screen.findByRole('textbox', { name: 'Web text colour' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Upload logo')).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByTestId('appcms-read-only')).toBeTruthy();
  });

  it('edits the default network\'s brand like any other (issue 28), without comparing it with itself', async () => {
    await renderView(<BrandPage />, appcmsAs('write', 'main'));
    expect(await screen.findByTestId('default-network-note')).toBeTruthy();
    expect(await screen.findByRole('textbox', { name: 'Web text colour' })).toHaveProperty('disabled', false);
    expect(screen.queryByText('What Copy from default would change')).toBeNull();
  });
});
