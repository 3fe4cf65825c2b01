import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { renderView } from '../../test-support/render-view';
import { ModelsPage } from './ModelsPage';
import { pageFakes } from './page-fakes';
import { authAs } from '../../test-support/monetization-fixtures';

vi.mock('../../adapters/monetization-actors', async (original) => (await import('./page-fakes')).mockedAdapter(original as never));

pageFakes.records.models = { values: { isMonetizationModelEnabled: true, models: ['subscription'] }, version: 4, data: null };

describe('ModelsPage', () => {
  it('shows the site\'s models and saves a change, with a message beside the models when none is left', async () => {
    const view = await renderView(<ModelsPage />, { actors: authAs('write') });
    expect((screen.getByRole('checkbox', { name: 'Subscription (SVOD)' }) as HTMLInputElement).checked).toBe(true);
    await view.user.click(screen.getByRole('checkbox', { name: 'Subscription (SVOD)' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.modelsRequired)).toBeTruthy();
    await view.user.click(screen.getByRole('checkbox', { name: 'Hybrid' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'models', input: { version: 4, draft: { models: ['hybrid'] } } });
  });

  it('disables everything for a read level and offers no Save', async () => {
    await renderView(<ModelsPage />, { actors: authAs('read') });
    expect((screen.getByRole('checkbox', { name: 'Hybrid' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
