import { describe, expect, it } from 'vitest';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { NETWORK_STATE_WORDS } from '../../../common/status-words';
import { SHELL_TEXT } from './shell-text';

describe('shell message catalogue (issue 20)', () => {
  it('keeps the spec\'s English texts verbatim', () => {
    expect(SHELL_TEXT.en.logoutConfirm).toBe(MESSAGES.logoutConfirm);
    expect(SHELL_TEXT.en.logoutCancel).toBe(MESSAGES.logoutCancel);
    expect(SHELL_TEXT.en.logoutConfirmButton).toBe(MESSAGES.logoutConfirmButton);
    expect(SHELL_TEXT.en.otpTitle).toBe(MESSAGES.otpTitle);
    expect(SHELL_TEXT.en.otpConfirm).toBe(MESSAGES.otpConfirm);
    expect(SHELL_TEXT.en.otpInstruction).toBe(MESSAGES.otpInstruction);
    expect(SHELL_TEXT.en.otpResend).toBe(MESSAGES.otpResend);
    expect(SHELL_TEXT.en.otpWrongNumber).toBe(MESSAGES.otpWrongNumber);
    expect(SHELL_TEXT.en.otpRates).toBe(MESSAGES.otpRates);
    expect(SHELL_TEXT.en.networkLaunchTitle).toBe(OWN_MESSAGES.networkLaunchTitle);
    expect(SHELL_TEXT.en.networkCopyTitle('brand')).toBe(OWN_MESSAGES.networkCopyTitle('brand'));
    expect(SHELL_TEXT.en.forbiddenArea('App CMS')).toBe(OWN_MESSAGES.forbiddenArea('App CMS'));
    expect(SHELL_TEXT.en.forbiddenNoRole).toBe(OWN_MESSAGES.forbiddenNoRole);
    expect(SHELL_TEXT.en.staySignedIn).toBe(OWN_MESSAGES.staySignedIn);
    expect(SHELL_TEXT.en.inactivityWarning).toBe(OWN_MESSAGES.inactivityWarning);
    expect(SHELL_TEXT.en.networkLaunched).toBe(NETWORK_STATE_WORDS.launched);
    expect(SHELL_TEXT.en.networkNotLaunched).toBe(NETWORK_STATE_WORDS.not_launched);
    expect(SHELL_TEXT.en.networkLaunchConfirm('Kids')).toBe(OWN_MESSAGES.networkLaunchConfirm('Kids'));
    expect(SHELL_TEXT.en.networkCopyConfirm('settings', 'Main', 'Kids')).toBe(OWN_MESSAGES.networkCopyConfirm('settings', 'Main', 'Kids'));
    expect(SHELL_TEXT.en.networkCopyChanges(3)).toBe(OWN_MESSAGES.networkCopyChanges(3));
    expect(SHELL_TEXT.en.networkCopyNoChanges).toBe(OWN_MESSAGES.networkCopyNoChanges);
    expect(SHELL_TEXT.en.networkCopyCompareFailed).toBe(OWN_MESSAGES.networkCopyCompareFailed);
  });

});
