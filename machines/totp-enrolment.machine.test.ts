import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyActorLogic } from 'xstate';
import { TOTP_MESSAGES, type TotpStatusResponse } from '../common/totp';
import {
  groupSecret, selectCodesCopied, selectRecoveryCodes, selectTotpCode, selectTotpError, selectTotpNotice, selectTotpPassword,
  selectTotpPhase, selectTotpSecret, selectTotpStatus, totpEnrolmentMachine,
} from './totp-enrolment.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/CMS%20Tools%3Aada?secret=${SECRET}&issuer=CMS+Tools`;
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

function status(overrides: Partial<TotpStatusResponse> = {}): TotpStatusResponse {
  return { success: true, message: '', enabled: false, pending: false, recoveryCodesLeft: 0, required: false, ...overrides };
}

function start(overrides: Record<string, AnyActorLogic> = {}, initial: TotpStatusResponse = status()) {
  let current = initial;
  const spies = { copyCodes: vi.fn(), reportEnrolled: vi.fn() };
  const io = {
    fetchStatus: vi.fn(async () => current),
    startEnrolment: vi.fn(async () => ({ success: true, message: TOTP_MESSAGES.enrolmentStarted, secret: SECRET, otpauthUri: URI })),
    confirmEnrolment: vi.fn(async (_: { code: string }) => {
      current = status({ enabled: true, recoveryCodesLeft: 10 });
      return { success: true, message: TOTP_MESSAGES.enrolled, recoveryCodes: CODES };
    }),
    disableAuthenticator: vi.fn(async (_: { password: string; code: string }) => {
      current = status();
      return { success: true, message: TOTP_MESSAGES.disabled };
    }),
    regenerateCodes: vi.fn(async (_: { code: string }) => ({ success: true, message: TOTP_MESSAGES.recoveryRegenerated, recoveryCodes: CODES.slice().reverse() })),
  };
  const machine = totpEnrolmentMachine.provide({
    actors: {
      fetchStatus: fakeActor(io.fetchStatus), startEnrolment: fakeActor(io.startEnrolment), confirmEnrolment: fakeActor(io.confirmEnrolment),
      disableAuthenticator: fakeActor(io.disableAuthenticator), regenerateCodes: fakeActor(io.regenerateCodes), ...overrides,
    },
    actions: { copyCodes: (_, params) => spies.copyCodes(params), reportEnrolled: () => spies.reportEnrolled() },
  });
  const actor = createActor(machine).start();
  return { actor, io, spies };
}

const rejecting = (message: string) => fakeActor(async () => { throw new Error(message); });

describe('totp enrolment machine', () => {
  it('loads the status; off: set-up goes through the secret, a first code, then the recovery codes shown once', async () => {
    const { actor, io, spies } = start();
    expect(selectTotpPhase(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (s) => s.matches('idle'));
    expect(selectTotpStatus(actor.getSnapshot())).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0, required: false });
    expect(spies.reportEnrolled).not.toHaveBeenCalled();

    actor.send({ type: 'totp.start' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('starting');
    await waitFor(actor, (s) => s.matches('showingSecret'));
    expect(selectTotpSecret(actor.getSnapshot())).toEqual({ secret: SECRET, otpauthUri: URI });

    actor.send({ type: 'totp.edit', code: '12345' });
    actor.send({ type: 'totp.submit' });
    expect(selectTotpError(actor.getSnapshot())).toBe(TOTP_MESSAGES.codeFormat);
    actor.send({ type: 'totp.edit', code: ' 123 456 ' });
    actor.send({ type: 'totp.submit' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('confirming');
    await waitFor(actor, (s) => s.matches('showingRecoveryCodes'));
    expect(io.confirmEnrolment).toHaveBeenCalledWith({ code: '123456' });
    expect(selectRecoveryCodes(actor.getSnapshot())).toEqual(CODES);
    expect(selectTotpNotice(actor.getSnapshot())).toBe(TOTP_MESSAGES.enrolled);
    // Reported only after Done: a required enrolment must not leave the page before the codes are read.
    expect(spies.reportEnrolled).not.toHaveBeenCalled();
    expect(selectTotpStatus(actor.getSnapshot())).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10, required: false });

    actor.send({ type: 'totp.copy' });
    expect(spies.copyCodes).toHaveBeenCalledWith({ codes: CODES });
    expect(selectCodesCopied(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'totp.done' });
    await waitFor(actor, (s) => s.matches('idle'));
    // The codes and the secret are gone; the status now says on.
    expect(selectRecoveryCodes(actor.getSnapshot())).toEqual([]);
    expect(selectTotpSecret(actor.getSnapshot())).toEqual({ secret: '', otpauthUri: '' });
    expect(selectTotpStatus(actor.getSnapshot())?.enabled).toBe(true);
    expect(spies.reportEnrolled).toHaveBeenCalledTimes(1);
  });

  it('a wrong first code stays on the secret with the server\'s message; cancel forgets the secret', async () => {
    const { actor } = start({ confirmEnrolment: rejecting(TOTP_MESSAGES.codeWrong) });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'totp.start' });
    await waitFor(actor, (s) => s.matches('showingSecret'));
    actor.send({ type: 'totp.edit', code: '654321' });
    actor.send({ type: 'totp.submit' });
    await waitFor(actor, (s) => s.matches('showingSecret') && s.context.error !== null);
    expect(selectTotpError(actor.getSnapshot())).toBe(TOTP_MESSAGES.codeWrong);
    expect(selectTotpCode(actor.getSnapshot())).toBe('');
    actor.send({ type: 'totp.cancel' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('idle');
    expect(selectTotpSecret(actor.getSnapshot()).secret).toBe('');
  });

  it('on: reports the enrolment (a required one ends), and start is not offered', async () => {
    const { actor, spies, io } = start({}, status({ enabled: true, recoveryCodesLeft: 7, required: true }));
    await waitFor(actor, (s) => s.matches('idle'));
    expect(spies.reportEnrolled).toHaveBeenCalledTimes(1);
    actor.send({ type: 'totp.start' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('idle');
    expect(io.startEnrolment).not.toHaveBeenCalled();
  });

  it('disable needs the password and a code or a recovery code; then the status is off with a note', async () => {
    const { actor, io } = start({}, status({ enabled: true, recoveryCodesLeft: 10 }));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'totp.disable' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('disabling');
    actor.send({ type: 'totp.edit', code: 'abcde-23456' });
    actor.send({ type: 'totp.submit' });
    expect(selectTotpError(actor.getSnapshot())).toBe(TOTP_MESSAGES.disableNeedsCode);
    actor.send({ type: 'totp.editPassword', password: 'Secret!123' });
    expect(selectTotpPassword(actor.getSnapshot())).toBe('Secret!123');
    actor.send({ type: 'totp.submit' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('disablingSubmit');
    await waitFor(actor, (s) => s.matches('idle') && s.context.status?.enabled === false);
    expect(io.disableAuthenticator).toHaveBeenCalledWith({ password: 'Secret!123', code: 'abcde-23456' });
    expect(selectTotpNotice(actor.getSnapshot())).toBe(TOTP_MESSAGES.disabled);
    expect(selectTotpPassword(actor.getSnapshot())).toBe('');
  });

  it('a refused disable stays on the form with the message; cancel goes back', async () => {
    const { actor } = start({ disableAuthenticator: rejecting('The current password is not correct.') }, status({ enabled: true }));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'totp.disable' });
    actor.send({ type: 'totp.editPassword', password: 'x' });
    actor.send({ type: 'totp.edit', code: '123456' });
    actor.send({ type: 'totp.submit' });
    await waitFor(actor, (s) => s.matches({ disabling: 'form' }) && s.context.error !== null);
    expect(selectTotpError(actor.getSnapshot())).toBe('The current password is not correct.');
    actor.send({ type: 'totp.cancel' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('idle');
    expect(selectTotpError(actor.getSnapshot())).toBeNull();
  });

  it('new recovery codes need an authenticator code and are shown once', async () => {
    const { actor, io } = start({}, status({ enabled: true, recoveryCodesLeft: 2 }));
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'totp.regenerate' });
    actor.send({ type: 'totp.edit', code: 'abcde-23456' });
    actor.send({ type: 'totp.submit' });
    expect(selectTotpError(actor.getSnapshot())).toBe(TOTP_MESSAGES.codeFormat);
    actor.send({ type: 'totp.edit', code: '111222' });
    actor.send({ type: 'totp.submit' });
    expect(selectTotpPhase(actor.getSnapshot())).toBe('regeneratingSubmit');
    await waitFor(actor, (s) => s.matches('showingRecoveryCodes'));
    expect(io.regenerateCodes).toHaveBeenCalledWith({ code: '111222' });
    expect(selectRecoveryCodes(actor.getSnapshot())).toEqual(CODES.slice().reverse());
    expect(selectTotpNotice(actor.getSnapshot())).toBe(TOTP_MESSAGES.recoveryRegenerated);
  });

  it('failures: the status load offers a retry; a failed start shows its message', async () => {
    let calls = 0;
    const { actor } = start({
      fetchStatus: fakeActor(async () => { calls += 1; if (calls === 1) throw new Error(''); return status(); }),
      startEnrolment: rejecting('Too many attempts'),
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectTotpError(actor.getSnapshot())).toBe(TOTP_MESSAGES.statusLoadFailed);
    actor.send({ type: 'totp.retry' });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'totp.start' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(selectTotpError(actor.getSnapshot())).toBe('Too many attempts');
  });

  it('groups the secret in fours for reading', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });
});

describe('totp enrolment machine: every path', () => {
  const events = [
    { type: 'xstate.done.actor.fetchStatus', output: status() },
    { type: 'xstate.done.actor.fetchStatus', output: status({ enabled: true, recoveryCodesLeft: 10 }) },
    { type: 'xstate.error.actor.fetchStatus', error: new Error('down') },
    { type: 'totp.retry' },
    { type: 'totp.start' },
    { type: 'xstate.done.actor.startEnrolment', output: { success: true, message: '', secret: SECRET, otpauthUri: URI } },
    { type: 'xstate.error.actor.startEnrolment', error: new Error('no') },
    { type: 'totp.edit', code: '123456' },
    { type: 'totp.editPassword', password: 'Secret!123' },
    { type: 'totp.submit' },
    { type: 'totp.cancel' },
    { type: 'xstate.done.actor.confirmEnrolment', output: { success: true, message: '', recoveryCodes: CODES } },
    { type: 'xstate.error.actor.confirmEnrolment', error: new Error('wrong') },
    { type: 'totp.copy' },
    { type: 'totp.done' },
    { type: 'totp.disable' },
    { type: 'xstate.done.actor.disableAuthenticator', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.disableAuthenticator', error: new Error('wrong') },
    { type: 'totp.regenerate' },
    { type: 'xstate.done.actor.regenerateCodes', output: { success: true, message: '', recoveryCodes: CODES } },
    { type: 'xstate.error.actor.regenerateCodes', error: new Error('wrong') },
  ];
  const logic = totpEnrolmentMachine.provide({
    actors: {
      fetchStatus: pendingActor(), startEnrolment: pendingActor(), confirmEnrolment: pendingActor(),
      disableAuthenticator: pendingActor(), regenerateCodes: pendingActor(),
    },
  });
  // What is typed does not change where the machine can go: states differ by value and status only.
  const serializeState = (snapshot: { value: unknown; context: { status: unknown; code: string; password: string } }) =>
    JSON.stringify([snapshot.value, snapshot.context.status, snapshot.context.code !== '', snapshot.context.password !== '']);
  itReachesEveryStateAndTransition(totpEnrolmentMachine, { events, logic, serializeState: serializeState as never });
});
