/** The user menu's logout confirmation (spec §2.9): 'Are you sure you want to logout?', Cancel / 'Yes, Logout'. */
import { useSelector } from '@xstate/react';
import { selectIsConfirming } from '../../../machines/logout.machine';
import { useAppActor } from '../../app-actor';
import { useShellText } from '../shared/shell-text';
import { Modal } from '../shared/Modal';

export function LogoutConfirmDialog() {
  const logout = useAppActor('logout');
  const open = useSelector(logout, selectIsConfirming);
  const text = useShellText();
  return (
    <Modal
      open={open}
      title={text.logoutTitle}
      negativeLabel={text.logoutCancel}
      positiveLabel={text.logoutConfirmButton}
      onNegative={() => logout.send({ type: 'logout.cancel' })}
      onPositive={() => logout.send({ type: 'logout.confirm' })}
    >
      <p>{text.logoutConfirm}</p>
    </Modal>
  );
}
