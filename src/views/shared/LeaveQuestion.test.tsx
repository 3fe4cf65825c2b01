import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { LeaveQuestion } from './LeaveQuestion';

describe('LeaveQuestion', () => {
  it('shows nothing while the form does not ask', async () => {
    await renderView(<LeaveQuestion open={false} onStay={vi.fn()} onLeave={vi.fn()} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks "Unsaved changes" with the editor\'s words and sends Stay or Leave to the form', async () => {
    const onStay = vi.fn();
    const onLeave = vi.fn();
    const view = await renderView(<LeaveQuestion open onStay={onStay} onLeave={onLeave} />);
    const dialog = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect([onStay.mock.calls.length, onLeave.mock.calls.length]).toEqual([1, 0]);
    await view.user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    expect([onStay.mock.calls.length, onLeave.mock.calls.length]).toEqual([1, 1]);
  });
});
