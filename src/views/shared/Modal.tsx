/**
 * The modal dialog of spec §2.10: header, body, negative and positive buttons (max width 30rem).
 * Open state belongs to a machine; the dialog only reports the operator's choice.
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { button } from '../../theme/ui.css';
import * as css from './shared.css';

export interface ModalProps {
  open: boolean;
  title: string;
  children: ReactNode;
  negativeLabel?: string;
  positiveLabel: string;
  onNegative: () => void;
  onPositive: () => void;
  positiveDisabled?: boolean;
  busy?: boolean;
}

export function Modal({ open, title, children, negativeLabel, positiveLabel, onNegative, onPositive, positiveDisabled, busy }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => { if (!next) onNegative(); }}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.overlay} />
        <Dialog.Content className={css.dialog} aria-describedby={undefined}>
          <Dialog.Title className={css.dialogHeader}>{title}</Dialog.Title>
          <div className={css.dialogBody}>{children}</div>
          <div className={css.dialogFooter}>
            {negativeLabel && (
              <button type="button" className={button.secondary} onClick={onNegative} disabled={busy}>{negativeLabel}</button>
            )}
            <button type="button" className={button.primary} onClick={onPositive} disabled={positiveDisabled || busy}>{positiveLabel}</button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
