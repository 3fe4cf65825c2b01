import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../test-support/render-view';
import { Modal } from './Modal';

describe('Modal', () => {
  it('shows title, body and both buttons, reporting each choice', async () => {
    const onNegative = vi.fn();
    const onPositive = vi.fn();
    const view = await renderView(
      <Modal open title="Launch network" negativeLabel="Cancel" positiveLabel="Launch" onNegative={onNegative} onPositive={onPositive}>
        <p>Launch Kids?</p>
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Launch network' });
    expect(within(dialog).getByText('Launch Kids?')).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Launch' }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onPositive).toHaveBeenCalledTimes(1);
    expect(onNegative).toHaveBeenCalledTimes(1);
  });

  it('disables both buttons while busy, and renders nothing when closed', async () => {
    await renderView(
      <Modal open busy title="Copy" negativeLabel="Cancel" positiveLabel="Copy" onNegative={() => {}} onPositive={() => {}}>
        <p>Copying…</p>
      </Modal>,
    );
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveProperty('disabled', true);
    await renderView(<Modal open={false} title="Hidden" positiveLabel="OK" onNegative={() => {}} onPositive={() => {}}><p>x</p></Modal>);
    expect(screen.queryByRole('dialog', { name: 'Hidden' })).toBeNull();
  });
});
