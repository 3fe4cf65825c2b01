/**
 * The question a form asks before typed input would be lost ("Unsaved changes": Stay or Leave). The form's
 * machine decides when it shows (its confirming state) and what each answer does (the events sent).
 */
import { OWN_MESSAGES } from '../../../common/messages';
import { Modal } from './Modal';

export function LeaveQuestion({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  return (
    <Modal open={open} title="Unsaved changes" negativeLabel="Stay" positiveLabel="Leave" onNegative={onStay} onPositive={onLeave}>
      <p>{OWN_MESSAGES.editorLeaveConfirm}</p>
    </Modal>
  );
}
