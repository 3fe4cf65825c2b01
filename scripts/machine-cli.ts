/**
 * `npm run machine -- <name> [--script file.json]`: runs one machine in the terminal with fake actors
 * (scripts/machine-fakes.ts), prints its state and the events it accepts, and takes events typed as
 * JSON, one per line. An event the machine does not take goes to the child machine that does (the
 * code step of sign-in, for instance). `{"type":"clock.advance","ms":60000}` moves the simulated clock. With --script
 * it replays a JSON array of events and prints the final state.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createActor, SimulatedClock, type AnyActorRef, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { redactForInspector } from '../machines/redact';
import { stateLabel } from '../machines/test-harness/paths';
import { CLI_MACHINES } from './machine-fakes';

export interface MachineSession {
  actor: AnyActorRef;
  clock: SimulatedClock;
  /** Sends one event (or advances the clock) and waits for fake actors to settle. */
  step: (event: EventObject & { ms?: number }) => Promise<void>;
  describe: () => string;
}

/** Event types the current state (and its ancestors) handle. */
export function acceptedEvents(snapshot: AnyMachineSnapshot): string[] {
  const types = new Set<string>();
  for (const node of snapshot._nodes) for (const type of node.ownEvents) if (!type.startsWith('xstate.')) types.add(type);
  return [...types].sort();
}

/** The machine itself if it takes the event, else the first running child machine that does. */
function receiverOf(actor: AnyActorRef, event: EventObject): AnyActorRef {
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  if (snapshot.can(event)) return actor;
  for (const child of Object.values(snapshot.children) as AnyActorRef[]) {
    const childSnapshot = child.getSnapshot() as Partial<AnyMachineSnapshot>;
    if (typeof childSnapshot.can === 'function' && childSnapshot.can(event)) return child;
  }
  return actor;
}

/** The running child machines, for `describe`. */
function childMachines(snapshot: AnyMachineSnapshot): Array<[string, AnyMachineSnapshot]> {
  return Object.entries(snapshot.children as Record<string, AnyActorRef>)
    .map(([id, child]) => [id, child.getSnapshot()] as [string, AnyMachineSnapshot])
    .filter(([, child]) => typeof child.matches === 'function' && child.status === 'active');
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

export function startMachine(name: string): MachineSession {
  const entry = CLI_MACHINES[name];
  if (!entry) throw new Error(`Unknown machine "${name}". Known: ${Object.keys(CLI_MACHINES).join(', ')}`);
  const clock = new SimulatedClock();
  const actor = createActor(entry.logic, { input: entry.input as never, clock }).start();
  return {
    actor,
    clock,
    async step(event) {
      if (event.type === 'clock.advance') {
        // One second at a time, so countdowns tick as they do in the browser.
        for (let left = event.ms ?? 0; left > 0; left -= 1000) {
          clock.increment(Math.min(1000, left));
          await settle();
        }
      } else {
        receiverOf(actor, event).send(event);
      }
      await settle();
    },
    describe() {
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const children = childMachines(snapshot).flatMap(([id, child]) => [
        `child ${id}: ${stateLabel(child.value)} ${JSON.stringify(redactForInspector(child.context))}`,
      ]);
      const accepts = [...acceptedEvents(snapshot), ...childMachines(snapshot).flatMap(([, child]) => acceptedEvents(child))];
      return [
        `state:   ${stateLabel(snapshot.value)}`,
        `context: ${JSON.stringify(redactForInspector(snapshot.context))}`,
        ...children,
        `accepts: ${accepts.join(', ') || '(none)'}  (+ clock.advance {ms})`,
      ].join('\n');
    },
  };
}

export async function replay(name: string, events: readonly (EventObject & { ms?: number })[]): Promise<MachineSession> {
  const session = startMachine(name);
  await session.step({ type: 'xstate.cli.start' });
  for (const event of events) {
    console.log(`> ${JSON.stringify(redactForInspector(event))}`);
    await session.step(event);
    console.log(`  state: ${stateLabel((session.actor.getSnapshot() as AnyMachineSnapshot).value)}`);
  }
  return session;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help') {
    console.log(`usage: npm run machine -- <${Object.keys(CLI_MACHINES).join('|')}> [--script file.json]`);
    return;
  }
  const scriptIndex = rest.indexOf('--script');
  if (scriptIndex >= 0) {
    const file = rest[scriptIndex + 1];
    if (!file) throw new Error('--script needs a file');
    const session = await replay(name, JSON.parse(readFileSync(file, 'utf8')) as EventObject[]);
    console.log(`\nfinal ${session.describe()}`);
    session.actor.stop();
    return;
  }
  const session = startMachine(name);
  await session.step({ type: 'xstate.cli.start' });
  console.log(`${name}: ${CLI_MACHINES[name]?.help ?? ''}\n${session.describe()}`);
  const lines = createInterface({ input: process.stdin, prompt: 'event> ' });
  lines.prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === 'exit' || text === 'quit') break;
    if (text) {
      try {
        await session.step(JSON.parse(text) as EventObject);
        console.log(session.describe());
      } catch (error) {
        console.log(`not an event: ${(error as Error).message} (type JSON like {"type":"login.submit","username":"admin@demo.test","password":"Demo!Pass123"})`);
      }
    }
    lines.prompt();
  }
  session.actor.stop();
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''))) {
  main(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
