import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SERVICE_TYPE_LABELS } from '../../../common/appcms';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView } from '../../test-harness/render-view';
import { ModelsPage } from './ModelsPage';
import { authAs } from '../../test-harness/monetization-fixtures';
import { revision } from '../../test-harness/history-fakes';

const pageFakes = monetizationFakes();
const pages = monetizationTestPages(pageFakes);

pageFakes.records.models = { values: { isMonetizationModelEnabled: true, models: ['SVOD'] }, version: 4, data: { serviceType: 'SVOD' } };

describe('ModelsPage', () => {
  it('offers the service types by their operator names, shows the main one, and saves a change, with a message beside the models when none is left', async () => {
    const view = await renderView(<ModelsPage />, { pages, actors: authAs('write') });
    expect(screen.getAllByRole('checkbox').slice(1).map((c) => c.parentElement?.textContent?.trim())).toEqual(Object.values(SERVICE_TYPE_LABELS));
    expect((screen.getByRole('checkbox', { name: 'Subscription (SVOD)' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Advertising (AVOD)' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(MONETIZATION_MESSAGES.mainServiceType('Subscription (SVOD)'))).toBeTruthy();
    expect(screen.getByText(MONETIZATION_MESSAGES.modelsHelp)).toBeTruthy();
    await view.user.click(screen.getByRole('checkbox', { name: 'Subscription (SVOD)' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Monetization enabled for this site' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    // At least one type whether monetization is on or off: the service always runs one.
    expect(screen.getByText(MONETIZATION_MESSAGES.modelsRequired)).toBeTruthy();
    expect(pageFakes.saves).toHaveLength(0);
    await view.user.click(screen.getByRole('checkbox', { name: 'Free ad-supported TV (FAST)' }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'models', input: { version: 4, draft: { isMonetizationModelEnabled: false, models: ['FAST'] } } });
  });

  it('disables everything for a read level and offers no Save', async () => {
    await renderView(<ModelsPage />, { pages, actors: authAs('read') });
    expect((screen.getByRole('checkbox', { name: 'Transactional (TVOD)' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('shows the site\'s Models History (asked for as the site\'s object), in words, and restores with the editor\'s version', async () => {
    pageFakes.history.revisions.site = [revision(12, [{ field: 'isMonetizationModelEnabled', before: false, after: true }], { kind: 'models', objectId: 'site-1' })];
    const view = await renderView(<ModelsPage />, { pages, actors: authAs('write') });
    const item = await screen.findByTestId('revision-12');
    expect(item.textContent).toContain('Monetization: No → Yes');
    expect(pageFakes.history.loads.at(-1)).toEqual({ kind: 'models', objectId: 'site', page: 1 });
    await view.user.click(within(item).getByRole('button', { name: 'Compare with now' }));
    await view.user.click(screen.getByRole('button', { name: 'Restore the values before #12' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await screen.findByText('Revision #12 restored: nothing differed from the current values.');
    expect(pageFakes.history.restores.at(-1)).toEqual({ seq: 12, version: 4 });
  });
});
