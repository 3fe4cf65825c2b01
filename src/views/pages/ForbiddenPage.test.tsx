import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-support/render-view';
import { ForbiddenPage } from './ForbiddenPage';

describe('ForbiddenPage', () => {
  it('says there is no access and whom to ask', async () => {
    await renderView(<ForbiddenPage />);
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.getByText(OWN_MESSAGES.forbidden)).toBeTruthy();
    expect(screen.getByText(/Ask an administrator/)).toBeTruthy();
  });
});
