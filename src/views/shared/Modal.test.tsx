import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { Modal } from './Modal';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Open</button>
      <Modal open={open} title="Logout" negativeLabel="Cancel" positiveLabel="Yes" onNegative={() => setOpen(false)} onPositive={() => setOpen(false)}>
        <p>Sure?</p>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('gives focus back to the control that opened it when it closes', async () => {
    const view = await renderView(<Opener />);
    await view.user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'Logout' })).toBeTruthy();
    await view.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
  });

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
