import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOTP_MESSAGES, type TotpStatusResponse } from '../../../common/totp';
import { totpEnrolmentMachine } from '../../../machines/totp-enrolment.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView, settle } from '../../test-harness/render-view';
import { TwoFactorPage } from './TwoFactorPage';
import { TOTP_TEXT } from './totp-text';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/CMS%20Tools%3Aada?secret=${SECRET}&issuer=CMS+Tools&algorithm=SHA1&digits=6&period=30`;
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const EN = TOTP_TEXT.en;

function status(overrides: Partial<TotpStatusResponse> = {}): TotpStatusResponse {
  return { success: true, message: '', enabled: false, pending: false, recoveryCodesLeft: 0, required: false, ...overrides };
}

function renderPage(initial: TotpStatusResponse = status(), actors: Record<string, ReturnType<typeof fakeActor>> = {}) {
  let current = initial;
  const spies = { copyCodes: vi.fn() };
  const io = {
    confirmEnrolment: vi.fn((_: { code: string }) => {
      current = status({ enabled: true, recoveryCodesLeft: 10 });
      return { success: true, message: TOTP_MESSAGES.enrolled, recoveryCodes: CODES };
    }),
    disableAuthenticator: vi.fn((_: { password: string; code: string }) => {
      current = status();
      return { success: true, message: TOTP_MESSAGES.disabled };
    }),
  };
  const logic = totpEnrolmentMachine.provide({
    actors: {
      fetchStatus: fakeActor(() => current),
      startEnrolment: fakeActor(() => ({ success: true, message: '', secret: SECRET, otpauthUri: URI })),
      confirmEnrolment: fakeActor(io.confirmEnrolment),
      disableAuthenticator: fakeActor(io.disableAuthenticator),
      regenerateCodes: fakeActor(() => ({ success: true, message: TOTP_MESSAGES.recoveryRegenerated, recoveryCodes: CODES })),
      ...actors,
    },
    actions: { copyCodes: (_, params) => spies.copyCodes(params) },
  });
  return { spies, io, view: renderView(<TwoFactorPage />, { pages: { twoFactor: logic } }) };
}

describe('TwoFactorPage (/account/security)', () => {
  it('off: shows the status and the SMS note; set-up shows the QR code and the secret, then a code confirms it', async () => {
    const { view: pending, io, spies } = renderPage();
    const view = await pending;
    expect(screen.getByRole('heading', { level: 1, name: EN.pageTitle })).toBeTruthy();
    expect(screen.getByTestId('totp-status').textContent).toBe(EN.statusOff);
    expect(screen.getByText(EN.smsNote)).toBeTruthy();
    expect(screen.queryByRole('button', { name: EN.disable })).toBeNull();

    await view.user.click(screen.getByRole('button', { name: EN.setUp }));
    await settle();
    expect(screen.getByRole('heading', { name: EN.scanTitle })).toBeTruthy();
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(screen.getByTestId('totp-secret').getAttribute('data-secret')).toBe(SECRET);
    // The QR code renders from the lazily loaded library: an SVG, labelled.
    expect(screen.getByRole('img', { name: EN.qrLabel })).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByRole('img', { name: EN.qrLabel }).querySelector('svg')).not.toBeNull(), { timeout: 5000 });

    await view.user.type(screen.getByLabelText(EN.confirmLabel), '123456');
    await view.user.click(screen.getByRole('button', { name: EN.confirm }));
    await settle();
    expect(io.confirmEnrolment).toHaveBeenCalledWith({ code: '123456' });
    expect(view.sentTo('auth')).not.toContainEqual({ type: 'authenticator.enrolled' });
    const list = screen.getByRole('list', { name: EN.recoveryTitle });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(screen.getByText(EN.recoveryNote)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(TOTP_MESSAGES.enrolled);
    expect(screen.getByTestId('totp-status').textContent).toBe(EN.statusOn);

    await view.user.click(screen.getByRole('button', { name: EN.copyCodes }));
    expect(spies.copyCodes).toHaveBeenCalledWith({ codes: CODES });
    expect(screen.getByRole('button', { name: EN.copied })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: EN.done }));
    await settle();
    // Shown once: gone after Done; the status now says on.
    expect(screen.queryByRole('list', { name: EN.recoveryTitle })).toBeNull();
    expect(screen.getByTestId('totp-status').textContent).toBe(EN.statusOn);
    expect(screen.getByText(EN.recoveryLeft(10))).toBeTruthy();
    // The session-wide auth actor hears of it once (a site that requires the app lets the user on).
    expect(view.sentTo('auth').filter((e) => e.type === 'authenticator.enrolled')).toHaveLength(1);
  });

  it('a wrong first code shows the server\'s message as an alert and keeps the secret on screen', async () => {
    const { view: pending } = renderPage(status(), { confirmEnrolment: fakeActor(() => { throw new Error(TOTP_MESSAGES.codeWrong); }) });
    const view = await pending;
    await view.user.click(screen.getByRole('button', { name: EN.setUp }));
    await settle();
    await view.user.type(screen.getByLabelText(EN.confirmLabel), '000000');
    await view.user.click(screen.getByRole('button', { name: EN.confirm }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(TOTP_MESSAGES.codeWrong);
    expect(screen.getByTestId('totp-secret')).toBeTruthy();
  });

  it('on: disable asks for the password and a code or recovery code; new recovery codes ask for a code', async () => {
    const { view: pending, io } = renderPage(status({ enabled: true, recoveryCodesLeft: 4 }));
    const view = await pending;
    expect(screen.getByTestId('totp-status').textContent).toBe(EN.statusOn);
    expect(screen.queryByRole('button', { name: EN.setUp })).toBeNull();

    await view.user.click(screen.getByRole('button', { name: EN.regenerate }));
    expect(screen.getByRole('heading', { name: EN.regenerateTitle })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: EN.cancel }));

    await view.user.click(screen.getByRole('button', { name: EN.disable }));
    await view.user.type(screen.getByLabelText(EN.passwordLabel), 'Secret!123');
    await view.user.type(screen.getByLabelText(EN.codeOrRecoveryLabel), 'abcde-23456');
    await view.user.click(screen.getByRole('button', { name: EN.disableConfirm }));
    await settle();
    expect(io.disableAuthenticator).toHaveBeenCalledWith({ password: 'Secret!123', code: 'abcde-23456' });
    expect(screen.getByRole('status').textContent).toBe(TOTP_MESSAGES.disabled);
    expect(screen.getByTestId('totp-status').textContent).toBe(EN.statusOff);
  });

  it('says when the site requires the app', async () => {
    await renderPage(status({ required: true })).view;
    expect(screen.getByText(EN.requiredNote)).toBeTruthy();
  });

});
