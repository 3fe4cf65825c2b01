/**
 * Dashboard 360's "Player events not placed" panel (issue 42, on the Alerts page): the player events
 * the consumers kept in the dead letters of the signed-in site, per reason (GET INGEST_DEAD_LETTERS_PATH,
 * common/ingest-contract.ts). Read when the panel opens and again when asked; a failed read is shown
 * with a way to try again. Read-only: the server decides who may read (Dashboard 360 roles).
 * I/O: src/adapters/qoe-alert-actors.ts.
 */
import { assign, setup, type ActorRefFrom, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { INGEST_DEAD_LETTER_REASONS, type IngestDeadLetterCounts, type IngestDeadLetterReason } from '../common/ingest-contract';
import { INGEST_DEAD_LETTER_MESSAGES as M } from '../common/messages/ingest-dead-letters';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export interface DeadLettersContext {
  /** The last answer, kept while a refresh reads again; null until the first one. */
  counts: IngestDeadLetterCounts | null;
  /** Why the last read failed, or null. */
  error: string | null;
}

export type DeadLettersEvent =
  | { type: 'deadLetters.retry' }
  | { type: 'deadLetters.refresh' };

export const ingestDeadLettersMachine = setup({
  types: machineTypes<{
    context: DeadLettersContext; events: DeadLettersEvent; tags: 'busy';
    children: { fetchDeadLetters: 'fetchDeadLetters' };
  }>(),
  actors: {
    fetchDeadLetters: providedLater<IngestDeadLetterCounts>('fetchDeadLetters'),
  },
  actions: {
    storeCounts: assign((_, params: { counts: IngestDeadLetterCounts }) => ({ counts: params.counts, error: null })),
    storeError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
  },
  guards: {
    /** Nothing of the site is in the dead letters. */
    isNothingKept: (_, params: { counts: IngestDeadLetterCounts }) => params.counts.total === 0,
  },
}).createMachine({
  id: 'ingestDeadLetters',
  description: 'Player events not placed: the counts per reason of the site\'s dead letters, read on opening and when asked again.',
  context: { counts: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'The counts per reason are being read (an earlier answer stays shown meanwhile).',
      tags: ['busy'],
      invoke: {
        id: 'fetchDeadLetters', src: 'fetchDeadLetters',
        onDone: [
          {
            guard: { type: 'isNothingKept', params: ({ event }: { event: DoneActorEvent<IngestDeadLetterCounts> }) => ({ counts: event.output }) },
            target: 'empty',
            actions: { type: 'storeCounts', params: ({ event }: { event: DoneActorEvent<IngestDeadLetterCounts> }) => ({ counts: event.output }) },
          },
          { target: 'counted', actions: { type: 'storeCounts', params: ({ event }: { event: DoneActorEvent<IngestDeadLetterCounts> }) => ({ counts: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
      },
    },
    failed: {
      description: 'The counts could not be read; the person may try again.',
      on: { 'deadLetters.retry': { target: 'loading', actions: 'clearError' } },
    },
    empty: {
      description: 'No player event of the site was kept in the dead letters.',
      on: { 'deadLetters.refresh': { target: 'loading' } },
    },
    counted: {
      description: 'Some events were kept: the total and every reason\'s count and newest time are shown.',
      on: { 'deadLetters.refresh': { target: 'loading' } },
    },
  },
});

export type IngestDeadLettersMachine = typeof ingestDeadLettersMachine;
export type IngestDeadLettersSnapshot = SnapshotFrom<IngestDeadLettersMachine>;
export type IngestDeadLettersActorRef = ActorRefFrom<IngestDeadLettersMachine>;

export type DeadLettersPhase = 'loading' | 'failed' | 'empty' | 'counted';

export function selectDeadLettersPhase(s: IngestDeadLettersSnapshot): DeadLettersPhase {
  if (s.matches('failed')) return 'failed';
  if (s.matches('empty')) return 'empty';
  if (s.matches('counted')) return 'counted';
  return 'loading';
}

export interface DeadLetterRow { reason: IngestDeadLetterReason; events: number; lastAt: string | null }

/** Every reason in INGEST_DEAD_LETTER_REASONS order, 0 and no time where the answer has none. */
export function deadLetterRows(counts: IngestDeadLetterCounts | null): DeadLetterRow[] {
  const byReason = new Map(counts?.reasons.map((r) => [r.reason, r]) ?? []);
  return INGEST_DEAD_LETTER_REASONS.map((reason) => ({ reason, events: byReason.get(reason)?.events ?? 0, lastAt: byReason.get(reason)?.lastAt ?? null }));
}

/** The last answer (deadLetterRows gives its rows). */
export const selectDeadLetterCounts = (s: IngestDeadLettersSnapshot) => s.context.counts;
export const selectDeadLetterTotal = (s: IngestDeadLettersSnapshot) => s.context.counts?.total ?? null;
export const selectDeadLettersError = (s: IngestDeadLettersSnapshot) => s.context.error;
export const selectDeadLettersBusy = (s: IngestDeadLettersSnapshot) => s.hasTag('busy');
