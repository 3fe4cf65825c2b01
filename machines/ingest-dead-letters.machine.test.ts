import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { IngestDeadLetterCounts } from '../common/ingest-contract';
import { INGEST_DEAD_LETTER_MESSAGES as M } from '../common/messages/ingest-dead-letters';
import {
  deadLetterRows, ingestDeadLettersMachine, selectDeadLetterCounts, selectDeadLettersBusy, selectDeadLettersError, selectDeadLettersPhase, selectDeadLetterTotal,
} from './ingest-dead-letters.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const NONE: IngestDeadLetterCounts = {
  success: true, total: 0,
  reasons: [
    { reason: 'session-start-missing', events: 0, lastAt: null }, { reason: 'subscriber-missing', events: 0, lastAt: null },
    { reason: 'content-missing', events: 0, lastAt: null }, { reason: 'network-missing', events: 0, lastAt: null },
    { reason: 'unreadable-message', events: 0, lastAt: null },
  ],
};
const SOME: IngestDeadLetterCounts = {
  success: true, total: 5,
  reasons: NONE.reasons.map((r) => (r.reason === 'session-start-missing' ? { ...r, events: 4, lastAt: '2026-12-06T20:01:02.000Z' }
    : r.reason === 'unreadable-message' ? { ...r, events: 1, lastAt: '2026-12-05T08:00:00.000Z' } : r)),
};

describe('ingestDeadLetters machine', () => {
  it('reads the counts on opening: some kept → counted, with the total and every reason', async () => {
    const actor = createActor(ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters: fakeActor(() => SOME) } })).start();
    expect(selectDeadLettersPhase(actor.getSnapshot())).toBe('loading');
    expect(selectDeadLettersBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'counted');
    const s = actor.getSnapshot();
    expect(selectDeadLetterTotal(s)).toBe(5);
    expect(selectDeadLettersBusy(s)).toBe(false);
    expect(deadLetterRows(selectDeadLetterCounts(s)).map((r) => [r.reason, r.events, r.lastAt])).toEqual([
      ['session-start-missing', 4, '2026-12-06T20:01:02.000Z'], ['subscriber-missing', 0, null], ['content-missing', 0, null],
      ['network-missing', 0, null], ['unreadable-message', 1, '2026-12-05T08:00:00.000Z'],
    ]);
  });

  it('a total of 0 is the empty state', async () => {
    const actor = createActor(ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters: fakeActor(() => NONE) } })).start();
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'empty');
    expect(selectDeadLetterTotal(actor.getSnapshot())).toBe(0);
  });

  it('a failed read says why in the server\'s words (ours when the server was not reached), and Try again reads again and clears it', async () => {
    let calls = 0;
    const fetchDeadLetters = fromPromise<IngestDeadLetterCounts>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('Forbidden for this site');
      if (calls === 2) throw Object.assign(new Error('fetch failed'), { status: 0 });
      return SOME;
    });
    const actor = createActor(ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters } })).start();
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'failed');
    expect(selectDeadLettersError(actor.getSnapshot())).toBe('Forbidden for this site');
    actor.send({ type: 'deadLetters.retry' });
    expect(selectDeadLettersError(actor.getSnapshot())).toBeNull();
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'failed');
    expect(selectDeadLettersError(actor.getSnapshot())).toBe(M.loadFailed);
    actor.send({ type: 'deadLetters.retry' });
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'counted');
    expect(selectDeadLettersError(actor.getSnapshot())).toBeNull();
    expect(calls).toBe(3);
  });

  it('Refresh reads again and keeps the last answer shown meanwhile; refresh and retry are ignored where they mean nothing', async () => {
    let answer = NONE;
    let calls = 0;
    const actor = createActor(ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters: fakeActor(() => { calls += 1; return answer; }) } })).start();
    actor.send({ type: 'deadLetters.refresh' });
    actor.send({ type: 'deadLetters.retry' });
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'empty');
    expect(calls).toBe(1);
    actor.send({ type: 'deadLetters.retry' });
    expect(selectDeadLettersPhase(actor.getSnapshot())).toBe('empty');
    answer = SOME;
    actor.send({ type: 'deadLetters.refresh' });
    expect(selectDeadLettersPhase(actor.getSnapshot())).toBe('loading');
    expect(selectDeadLetterTotal(actor.getSnapshot())).toBe(0);
    await waitFor(actor, (s) => selectDeadLettersPhase(s) === 'counted');
    expect(selectDeadLetterTotal(actor.getSnapshot())).toBe(5);
    expect(calls).toBe(2);
  });

  it('deadLetterRows lists every reason, 0 and no time for one the answer leaves out, and nothing read yet as all 0', () => {
    const partial: IngestDeadLetterCounts = { success: true, total: 2, reasons: [{ reason: 'content-missing', events: 2, lastAt: '2026-12-06T10:00:00.000Z' }] };
    expect(deadLetterRows(partial).map((r) => r.events)).toEqual([0, 0, 2, 0, 0]);
    expect(deadLetterRows(null).every((r) => r.events === 0 && r.lastAt === null)).toBe(true);
  });
});

describe('ingestDeadLetters: every path', () => {
  const events = [
    { type: 'deadLetters.retry' },
    { type: 'deadLetters.refresh' },
    { type: 'xstate.done.actor.fetchDeadLetters', output: NONE },
    { type: 'xstate.done.actor.fetchDeadLetters', output: SOME },
    { type: 'xstate.error.actor.fetchDeadLetters', error: new Error('down') },
  ];
  itReachesEveryStateAndTransition(ingestDeadLettersMachine, {
    events,
    logic: ingestDeadLettersMachine.provide({ actors: { fetchDeadLetters: pendingActor() } }),
  });
});
