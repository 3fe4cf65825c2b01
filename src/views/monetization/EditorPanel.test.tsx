import { screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { EditorFailure, editorMachine, type EditorRecord, type EditorSaveInput } from '../../../machines/editor.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView, settle } from '../../test-harness/render-view';
import { EditorPanel } from './EditorPanel';
import { TextField } from './EditorFields';
import type { EditorRef } from './page-refs';

const RECORD: EditorRecord = { values: { name: 'Gold' }, version: 1, data: null };
let editor: EditorRef;

function Panel({ canEdit, conflict = false }: { canEdit: boolean; conflict?: boolean }) {
  editor = useActorRef(editorMachine.provide({
    actors: {
      load: fakeActor(() => RECORD),
      save: fromPromise<EditorRecord, EditorSaveInput>(async () => {
        if (conflict) throw new EditorFailure('conflict', MONETIZATION_MESSAGES.conflict);
        return { ...RECORD, values: { name: 'Silver' }, version: 2 };
      }),
    },
  }), { input: { id: 'x' } });
  return <EditorPanel editor={editor} title="Edit plan" canEdit={canEdit}><TextField editor={editor} field="name" label="Name" disabled={!canEdit} /></EditorPanel>;
}

describe('EditorPanel', () => {
  it('saves and says so', async () => {
    const view = await renderView(<Panel canEdit />);
    await view.user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Silver');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByRole('status').textContent).toBe(MONETIZATION_MESSAGES.saved);
  });

  it('shows a conflict with a Reload button that reloads', async () => {
    const view = await renderView(<Panel canEdit conflict />);
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'X');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(MONETIZATION_MESSAGES.conflict);
    await view.user.click(screen.getByRole('button', { name: 'Reload' }));
    await settle();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Gold');
  });

  it('asks before leaving unsaved changes', async () => {
    const view = await renderView(<Panel canEdit />);
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'X');
    await view.user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.leaveConfirm)).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(editor.getSnapshot().value).toBe('editing');
  });

  it('offers no Save to a read level', async () => {
    await renderView(<Panel canEdit={false} />);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(true);
  });
});
