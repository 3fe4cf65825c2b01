import { screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { editorMachine, type EditorRecord } from '../../../machines/editor.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { fieldRuleImplementations } from '../../test-harness/monetization-pages';
import { renderView, settle } from '../../test-harness/render-view';
import { ChoiceList, NumberField, OrderedList, TextField } from './EditorFields';
import type { EditorRef } from './page-refs';

const RECORD: EditorRecord = { values: { name: 'Gold', trialDays: '7', planIds: ['a', 'b', 'c'], models: ['subscription'] }, version: 1, data: null };
const OPTIONS = [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }, { value: 'c', label: 'Gamma' }];
let editor: EditorRef;

function Form({ disabled = false }: { disabled?: boolean }) {
  const rules = fieldRuleImplementations('planGroup');
  editor = useActorRef(editorMachine.provide({ actors: { load: fakeActor(() => RECORD) }, ...rules }), { input: { id: 'x' } });
  return (
    <>
      <TextField editor={editor} field="name" label="Name" required disabled={disabled} />
      <NumberField editor={editor} field="trialDays" label="Trial days" required disabled={disabled} />
      <ChoiceList editor={editor} field="models" label="Models" disabled={disabled} options={[{ value: 'subscription', label: 'Subscription' }, { value: 'hybrid', label: 'Hybrid' }]} />
      <OrderedList editor={editor} field="planIds" label="Plans" disabled={disabled} options={OPTIONS} />
    </>
  );
}

describe('EditorFields', () => {
  it('shows the draft, marks required fields with an asterisk, and makes numbers min 0 number inputs', async () => {
    await renderView(<Form />);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Gold');
    expect(screen.getByText('Name').querySelector('[aria-hidden]')?.textContent).toBe('*');
    const days = screen.getByRole('spinbutton', { name: 'Trial days' });
    expect(days.getAttribute('min')).toBe('0');
    expect((screen.getByRole('checkbox', { name: 'Subscription' }) as HTMLInputElement).checked).toBe(true);
  });

  it('sends changes and shows a field message beside the field after a save with a bad field', async () => {
    const view = await renderView(<Form />);
    await view.user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Hybrid' }));
    expect(editor.getSnapshot().context.draft.models).toEqual(['subscription', 'hybrid']);
    editor.send({ type: 'editor.save' });
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('This field is required.');
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('reorders by buttons and by Alt+arrow keys, and removes', async () => {
    const view = await renderView(<Form />);
    await view.user.click(screen.getByRole('button', { name: 'Move Gamma up' }));
    expect(editor.getSnapshot().context.draft.planIds).toEqual(['a', 'c', 'b']);
    screen.getByRole('listitem', { name: '1. Alpha' }).focus();
    await view.user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(editor.getSnapshot().context.draft.planIds).toEqual(['c', 'a', 'b']);
    await view.user.click(screen.getByRole('button', { name: 'Remove Beta' }));
    expect(editor.getSnapshot().context.draft.planIds).toEqual(['c', 'a']);
  });

  it('offers no reorder or remove controls when disabled', async () => {
    await renderView(<Form disabled />);
    expect(screen.queryByRole('button', { name: /Move|Remove/ })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(true);
  });
});
