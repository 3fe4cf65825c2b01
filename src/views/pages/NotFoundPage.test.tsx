import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { NotFoundPage } from './NotFoundPage';

describe('NotFoundPage', () => {
  it('says the page does not exist and links back', async () => {
    await renderView(<NotFoundPage />);
    expect(screen.getByRole('heading', { name: OWN_MESSAGES.pageNotFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to CMS Tools' }).getAttribute('href')).toBe('/');
  });
});
