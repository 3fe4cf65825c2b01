import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../common/appcms';
import { renderView } from '../../test-harness/render-view';
import { TemplatePage } from './TemplatePage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.records.template = { values: { templateName: 'Reference Template' }, version: 2, data: { templates: TEMPLATES } };
});

describe('TemplatePage', () => {
  it('shows the templates with previews, the current one chosen, and saves another', async () => {
    const view = await renderView(<TemplatePage />, appcmsAs('write'));
    expect(await screen.findByRole('radio', { name: /Reference Template/ })).toHaveProperty('checked', true);
    expect(screen.getByTestId('template-grid')).toBeTruthy();
    await view.user.click(screen.getByRole('radio', { name: /Kids Template/ }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'template', input: { version: 2, changes: { templateName: 'Kids Template' } } });
  });

  it('read level: the choices are disabled and there is no Save', async () => {
    await renderView(<TemplatePage />, appcmsAs('read'));
    expect(await screen.findByRole('radio', { name: /Kids Template/ })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
