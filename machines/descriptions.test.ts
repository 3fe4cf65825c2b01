/**
 * The inspector reads as documentation only if every machine and every state says what it is.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { appMachine } from './app.machine';
import { authMachine } from './auth.machine';
import { forgotPasswordMachine } from './forgot-password.machine';
import { inactivityMachine } from './inactivity.machine';
import { keepaliveMachine } from './keepalive.machine';
import { logoutMachine } from './logout.machine';
import { networkChangeMachine } from './network-change.machine';
import { lastingUndoMachine } from './lasting-undo.machine';
import { networkMachine } from './network.machine';
import { notifierMachine } from './notifier.machine';
import { otpStepMachine } from './otp-step.machine';
import { routeLoadingMachine } from './route-loading.machine';
import { sessionMachine } from './session.machine';
import { allStateNodes } from './test-harness/coverage';

const MACHINES: AnyStateMachine[] = [
  appMachine, authMachine, forgotPasswordMachine, inactivityMachine, logoutMachine, networkMachine, networkChangeMachine, lastingUndoMachine,
  notifierMachine, routeLoadingMachine, sessionMachine, keepaliveMachine, otpStepMachine,
];

describe.each(MACHINES.map((machine) => [machine.id, machine] as const))('%s machine', (_, machine) => {
  it('describes itself and every one of its states', () => {
    expect(machine.root.description, `${machine.id} root`).toBeTruthy();
    const undescribed = allStateNodes(machine).filter((node) => !node.description).map((node) => node.id);
    expect(undescribed).toEqual([]);
  });

  it('names its events with dot-namespaced types', () => {
    const events = new Set(allStateNodes(machine).flatMap((node) => node.ownEvents).concat(machine.root.ownEvents));
    const user = [...events].filter((type) => !type.startsWith('xstate.') && type !== '*');
    expect(user.filter((type) => !/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/.test(type))).toEqual([]);
  });
});
