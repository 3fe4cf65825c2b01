import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-support/render-view';
import { EmptyStatePage } from './EmptyState';

describe('EmptyStatePage', () => {
  it('names the page and says it is not built yet, or gives the detail', async () => {
    await renderView(<EmptyStatePage title="Template" />);
    expect(screen.getByRole('heading', { name: 'Template' })).toBeTruthy();
    expect(screen.getByTestId('empty-state').textContent).toBe(OWN_MESSAGES.notBuiltYet);
    await renderView(<EmptyStatePage title="AppCMS" detail="Choose a section on the left." />);
    expect(screen.getByText('Choose a section on the left.')).toBeTruthy();
  });
});
