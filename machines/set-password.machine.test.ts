import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ADMIN_MESSAGES, MESSAGES } from '../common/messages';
import {
  selectSetPasswordError, selectSetPasswordFields, selectSetPasswordPhase, selectSetPasswordUsername, setPasswordMachine,
} from './set-password.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const CHECKED = { success: true, username: 'new@demo.test', displayName: 'New' };

function start(token: string, save: () => unknown = () => undefined) {
  const navigate = vi.fn();
  const savePassword = vi.fn(save);
  const machine = setPasswordMachine.provide({
    actors: { checkToken: fakeActor(() => CHECKED), savePassword: fakeActor(savePassword) },
    actions: { navigate: (_, params) => navigate(params) },
  });
  return { actor: createActor(machine, { input: { token } }).start(), navigate, savePassword };
}

function type(actor: ReturnType<typeof start>['actor'], newPassword: string, confirmPassword: string) {
  actor.send({ type: 'password.field', field: 'newPassword', value: newPassword });
  actor.send({ type: 'password.field', field: 'confirmPassword', value: confirmPassword });
}

describe('set password', () => {
  it('shows whose account it is, checks the spec rules, sets the password and goes to sign in', async () => {
    const { actor, navigate, savePassword } = start('tok');
    await waitFor(actor, (s) => selectSetPasswordPhase(s) === 'editing');
    expect(selectSetPasswordUsername(actor.getSnapshot())).toBe('new@demo.test');
    type(actor, 'Fresh!Pass123', 'Other!Pass123');
    actor.send({ type: 'password.submit' });
    expect(selectSetPasswordError(actor.getSnapshot())).toBe(MESSAGES.passwordMismatch);
    type(actor, 'weak', 'weak');
    actor.send({ type: 'password.submit' });
    expect(selectSetPasswordError(actor.getSnapshot())).toBe(MESSAGES.passwordComplexity);
    type(actor, 'Fresh!Pass123', 'Fresh!Pass123');
    actor.send({ type: 'password.submit' });
    await waitFor(actor, (s) => selectSetPasswordPhase(s) === 'done');
    expect(savePassword).toHaveBeenCalledWith({ token: 'tok', newPassword: 'Fresh!Pass123', confirmPassword: 'Fresh!Pass123' });
    expect(selectSetPasswordFields(actor.getSnapshot())).toEqual({ newPassword: '', confirmPassword: '' });
    actor.send({ type: 'password.signIn' });
    expect(navigate).toHaveBeenCalledWith({ to: '/' });
  });

  it('says the link is dead when the server says so while saving', async () => {
    const { actor } = start('tok', () => { throw new Error(ADMIN_MESSAGES.setPasswordInvalid); });
    await waitFor(actor, (s) => selectSetPasswordPhase(s) === 'editing');
    type(actor, 'Fresh!Pass123', 'Fresh!Pass123');
    actor.send({ type: 'password.submit' });
    await waitFor(actor, (s) => selectSetPasswordPhase(s) === 'invalid');
  });

  it('keeps the form with the message of any other failure', async () => {
    const { actor } = start('tok', () => { throw new Error(MESSAGES.passwordResetFailed); });
    await waitFor(actor, (s) => selectSetPasswordPhase(s) === 'editing');
    type(actor, 'Fresh!Pass123', 'Fresh!Pass123');
    actor.send({ type: 'password.submit' });
    await waitFor(actor, (s) => selectSetPasswordError(s) !== null);
    expect(selectSetPasswordPhase(actor.getSnapshot())).toBe('editing');
  });
});

describe('set password machine: every path', () => {
  const events = [
      { type: 'xstate.done.actor.checkToken', output: CHECKED },
      { type: 'xstate.error.actor.checkToken', error: new Error('x') },
      { type: 'password.field', field: 'newPassword', value: 'Fresh!Pass123' },
      { type: 'password.field', field: 'confirmPassword', value: 'Fresh!Pass123' },
      { type: 'password.field', field: 'newPassword', value: 'weak' },
      { type: 'password.field', field: 'confirmPassword', value: 'weak' },
      { type: 'password.submit' }, { type: 'password.signIn' },
      { type: 'xstate.done.actor.savePassword', output: undefined },
      { type: 'xstate.error.actor.savePassword', error: new Error(ADMIN_MESSAGES.setPasswordInvalid) },
      { type: 'xstate.error.actor.savePassword', error: new Error('x') },
  ];
  itReachesEveryStateAndTransition(setPasswordMachine, {
    input: { token: 'tok' },
    events,
    logic: setPasswordMachine.provide({ actors: { checkToken: pendingActor(), savePassword: pendingActor() } }),
  });
});
