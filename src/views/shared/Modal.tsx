/**
 * The modal dialog of spec §2.10: header, body, negative and positive buttons (max width 30rem).
 * Open state belongs to a machine; the dialog only reports the operator's choice. Closing it puts focus
 * back on the control that had it when it opened (Radix only does that for its own Trigger, which these
 * machine-opened dialogs do not use).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
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
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => { if (!next) onNegative(); }}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.overlay} />
        <Dialog.Content
          className={css.dialog} aria-describedby={undefined}
          onOpenAutoFocus={() => { opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null; }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
        >
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
