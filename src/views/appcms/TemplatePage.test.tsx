import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../common/appcms';
import { renderView } from '../../test-harness/render-view';
import { TemplatePage } from './TemplatePage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

beforeEach(() => {
  sessionStorage.clear();
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

  it('keeps a chosen template across a reload, per site, until it is saved (issue 38)', async () => {
    const first = await renderView(<TemplatePage />, appcmsAs('write', 'kids', { drafts: true }));
    await first.user.click(await screen.findByRole('radio', { name: /Kids Template/ }));
    const keys = Object.keys({ ...sessionStorage });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^formDraft:appcms\.template:site=[^:]+:[^:]+$/);
    first.unmount();

    // The reload: a fresh page machine reads the record and opens with the kept choice, unsaved.
    const again = await renderView(<TemplatePage />, appcmsAs('write', 'kids', { drafts: true }));
    expect(await screen.findByRole('radio', { name: /Kids Template/ })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
    await again.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'template', input: { version: 2, changes: { templateName: 'Kids Template' } } });
    expect(sessionStorage.length).toBe(0);
  });
});
