import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { networkPage } from '../../test-support/network-page';
import { renderView } from '../../test-support/render-view';
import { BrandPage } from './BrandPage';

const BRAND = {
  logoUrl: '/kids-logo.png',
  iconUrl: '/kids-icon.png',
  theme: { primaryColor: '#1370B3', secondaryColor: '#FFFFFF', backgroundColor: '#000000', textColor: '#EEEEEE', fontFamily: 'Inter' },
  updatedAt: '2026-01-02T03:04:05.000Z',
};

describe('BrandPage', () => {
  it('shows the logo and icon with their URLs and each theme colour', async () => {
    await renderView(<BrandPage />, networkPage('brand', BRAND));
    expect(screen.getByRole('img', { name: 'Logo' }).getAttribute('src')).toBe('/kids-logo.png');
    expect(screen.getByRole('link', { name: '/kids-icon.png' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Theme' })).toBeTruthy();
    expect(screen.getByTestId('brand-theme-primaryColor').textContent).toBe('#1370B3');
    expect(screen.getByText('Font: Inter')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'OTT theme' })).toBeNull();
    expect(screen.getByText(/^Last updated/)).toBeTruthy();
  });
});
