/** The user menu's logout confirmation (spec §2.9): 'Are you sure you want to logout?', Cancel / 'Yes, Logout'. */
import { useSelector } from '@xstate/react';
import { selectIsConfirming } from '../../../machines/logout.machine';
import { useAppActor } from '../../app-actor';
import { MESSAGES } from '../../../common/messages';
import { Modal } from '../shared/Modal';

export function LogoutConfirmDialog() {
  const logout = useAppActor('logout');
  const open = useSelector(logout, selectIsConfirming);
  return (
    <Modal
      open={open}
      title="Logout"
      negativeLabel={MESSAGES.logoutCancel}
      positiveLabel={MESSAGES.logoutConfirmButton}
      onNegative={() => logout.send({ type: 'logout.cancel' })}
      onPositive={() => logout.send({ type: 'logout.confirm' })}
    >
      <p>{MESSAGES.logoutConfirm}</p>
    </Modal>
  );
}
