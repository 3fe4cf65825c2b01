import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { SHELL_TEXT } from './shell-text';

describe('shell message catalogue (issue 20)', () => {
  it('keeps the spec\'s English texts verbatim', () => {
    expect(SHELL_TEXT.en.logoutConfirm).toBe(MESSAGES.logoutConfirm);
    expect(SHELL_TEXT.en.logoutCancel).toBe(MESSAGES.logoutCancel);
    expect(SHELL_TEXT.en.logoutConfirmButton).toBe(MESSAGES.logoutConfirmButton);
  });

  it('has every text in French too, none left in English by mistake', () => {
    const en = SHELL_TEXT.en as unknown as Record<string, string>;
    const fr = SHELL_TEXT.fr as unknown as Record<string, string>;
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const same = Object.keys(en).filter((key) => en[key] === fr[key] && key !== 'menu');
    expect(same).toEqual([]);
  });
});
