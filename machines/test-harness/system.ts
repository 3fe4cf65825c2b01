/**
 * Runs one machine inside a small actor system, so its cross-actor actions (the shared `notify`,
 * `signalSignedOut`, `tellApp` of machines/system-actions.ts) really run in headless tests: the
 * other system actors it talks to (`notifier`, `auth`, `app`, `keepalive`, ...) are recorders, and
 * `sentTo(systemId)` lists what the machine under test sent each of them.
 */
import {
  createActor, enqueueActions, fromCallback, setup, SimulatedClock,
  type AnyActorRef, type AnyStateMachine, type EventObject, type InspectionEvent,
} from 'xstate';

/** The systemIds a machine under test may send to. */
const PEERS = ['notifier', 'auth', 'app', 'keepalive', 'network', 'passwordChange', 'session', 'inactivity'] as const;

export interface SystemRun<TLogic extends AnyStateMachine> {
  actor: import('xstate').ActorRefFrom<TLogic>;
  clock: SimulatedClock;
  /** Events the machine under test (or its children) sent to the peer with this systemId. */
  sentTo: (systemId: string) => EventObject[];
}

export function startInSystem<TLogic extends AnyStateMachine>(
  logic: TLogic,
  options: { systemId: string; input?: unknown; clock?: SimulatedClock; inspect?: (event: InspectionEvent) => void },
): SystemRun<TLogic> {
  const clock = options.clock ?? new SimulatedClock();
  const peers = PEERS.filter((id) => id !== options.systemId);
  const recorder = fromCallback(() => () => {});
  const harness = setup({ actors: { subject: logic as AnyStateMachine, peer: recorder } }).createMachine({
    id: 'harness',
    entry: enqueueActions(({ enqueue }) => {
      for (const id of peers) enqueue.spawnChild('peer', { id, systemId: id });
      enqueue.spawnChild('subject', { id: 'subject', systemId: options.systemId, input: options.input as never });
    }),
  });
  const sent: Array<{ to: string; event: EventObject }> = [];
  const root = createActor(harness, {
    clock,
    inspect: (event) => {
      options.inspect?.(event);
      if (event.type !== '@xstate.event' || !event.sourceRef || event.event.type.startsWith('xstate.')) return;
      const target = event.actorRef as AnyActorRef & { systemId?: string };
      if (target.systemId && (peers as readonly string[]).includes(target.systemId)) sent.push({ to: target.systemId, event: event.event });
    },
  }).start();
  const actor = root.system.get(options.systemId) as SystemRun<TLogic>['actor'];
  return {
    actor,
    clock,
    sentTo: (systemId) => sent.filter((entry) => entry.to === systemId).map((entry) => entry.event),
  };
}
