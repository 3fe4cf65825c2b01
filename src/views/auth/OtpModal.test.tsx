import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { signedInAs } from '../../test-harness/view-fixtures';
import { OtpModal } from './OtpModal';

const changing = (generateOtp = fakeActor(() => ({ success: true, message: '', obscureMobileNumber: '******4321' }))) => ({
  actors: { ...signedInAs({ Content: 'write' }), passwordChange: { generateOtp } },
  given: (root: import('../../app-actor').RootActor) => root.system.get('passwordChange')?.send({ type: 'change.start' }),
});

describe('OtpModal (header Change Password)', () => {
  it('is closed while no change is under way', async () => {
    await renderView(<OtpModal />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says a code is being sent while it goes out', async () => {
    await renderView(<OtpModal />, changing(pendingActor()));
    const dialog = screen.getByRole('dialog', { name: MESSAGES.otpTitle });
    expect(within(dialog).getByRole('status').textContent).toBe('Sending a code to your mobile phone…');
    expect(within(dialog).getByRole('button', { name: MESSAGES.otpConfirm })).toHaveProperty('disabled', true);
  });

  it('takes the code and confirms it to the code step; Cancel goes to the password flow', async () => {
    const view = await renderView(<OtpModal />, changing());
    const dialog = screen.getByRole('dialog', { name: MESSAGES.otpTitle });
    expect(within(dialog).getByTestId('otp-phone').textContent).toBe('•••• 4321');
    await view.user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await view.user.click(within(dialog).getByRole('button', { name: MESSAGES.otpConfirm }));
    expect(view.sentTo('otpStep').at(-1)).toEqual({ type: 'otp.submit' });

    const other = await renderView(<OtpModal />, changing());
    await other.user.click(screen.getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    expect(other.sentTo('otpStep')).toEqual([{ type: 'otp.close' }]);
  });

  it('closes on Cancel or Escape at once with nothing typed (issue 38)', async () => {
    const view = await renderView(<OtpModal />, changing());
    await view.user.click(within(screen.getByRole('dialog', { name: MESSAGES.otpTitle })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    view.unmount();
    const again = await renderView(<OtpModal />, changing());
    screen.getByRole('dialog', { name: MESSAGES.otpTitle });
    await again.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before a typed code is lost (Cancel or Escape): Stay keeps the modal and the code, Leave closes it (issue 38)', async () => {
    const view = await renderView(<OtpModal />, changing());
    const code = () => within(screen.getByRole('dialog', { name: MESSAGES.otpTitle })).getByLabelText('Verification code');
    await view.user.type(code(), '12');
    await view.user.click(within(screen.getByRole('dialog', { name: MESSAGES.otpTitle })).getByRole('button', { name: 'Cancel' }));
    const question = screen.getByRole('dialog', { name: 'Unsaved changes' });
    expect(within(question).getByText(OWN_MESSAGES.editorLeaveConfirm)).toBeTruthy();
    await view.user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect((code() as HTMLInputElement).value).toBe('12');
    await view.user.keyboard('{Escape}');
    await view.user.click(within(screen.getByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

