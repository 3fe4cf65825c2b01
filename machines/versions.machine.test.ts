import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { VERSIONS_MESSAGES } from '../common/revisions';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { pendingActor } from './test-support/fakes';
import {
  selectCurrentVersion, selectRestored, selectSelectedVersion, selectVersions, selectVersionsError, selectVersionsPhase,
  versionsMachine, type RestoreInput, type VersionList, type VersionsLoadInput,
} from './versions.machine';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const entry = (version: number, values: Record<string, unknown>, restoredFrom: number | null = null) => ({
  version, createdBy: 'admin@demo.test', createdAt: '2026-11-24T00:00:00.000Z', changed: Object.keys(values), restoredFrom, values,
});
const LIST: VersionList = { current: 3, versions: [entry(3, { a: 3 }), entry(2, { a: 2 }), entry(1, { a: 1 })] };

function start(options: { load?: () => Promise<VersionList>; restore?: (input: RestoreInput) => Promise<unknown> } = {}) {
  const restores: RestoreInput[] = [];
  let announced = 0;
  let list = LIST;
  const actor = createActor(versionsMachine.provide({
    actors: {
      load: fromPromise(options.load ?? (async () => list)),
      restore: fromPromise<unknown, RestoreInput>(async ({ input }) => {
        restores.push(input);
        const answer = await (options.restore ?? (async () => ({})))(input);
        list = { current: 4, versions: [entry(4, { a: 1 }, input.restore), ...LIST.versions] };
        return answer;
      }),
    },
    actions: { announceRestored: () => { announced += 1; } },
  })).start();
  return { actor, restores, announced: () => announced };
}

describe('versions', () => {
  it('passes the scope it was started with (where the document lives) to load and restore', async () => {
    const loads: unknown[] = [];
    const restores: RestoreInput[] = [];
    const actor = createActor(versionsMachine.provide({
      actors: {
        load: fromPromise<VersionList, VersionsLoadInput>(async ({ input }) => { loads.push(input); return LIST; }),
        restore: fromPromise<unknown, RestoreInput>(async ({ input }) => { restores.push(input); return {}; }),
      },
    }), { input: { scope: { site: 'demo', network: 'kids' } } }).start();
    await settle();
    actor.send({ type: 'versions.select', version: 2 });
    actor.send({ type: 'versions.restore' });
    actor.send({ type: 'versions.confirm' });
    await settle();
    expect(loads[0]).toEqual({ scope: { site: 'demo', network: 'kids' } });
    expect(restores).toEqual([{ current: 3, restore: 2, scope: { site: 'demo', network: 'kids' } }]);
  });

  it('lists the versions, shows one against the current, restores it after confirming, and reads the list again', async () => {
    const { actor, restores, announced } = start();
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('loading');
    await settle();
    expect(selectVersions(actor.getSnapshot()).map((v) => v.version)).toEqual([3, 2, 1]);
    expect(selectCurrentVersion(actor.getSnapshot())?.version).toBe(3);
    actor.send({ type: 'versions.select', version: 1 });
    expect(selectSelectedVersion(actor.getSnapshot())?.values).toEqual({ a: 1 });
    actor.send({ type: 'versions.restore' });
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('confirmingRestore');
    actor.send({ type: 'versions.confirm' });
    await settle();
    await settle();
    expect(restores).toEqual([{ current: 3, restore: 1 }]);
    expect(announced()).toBe(1);
    expect(selectRestored(actor.getSnapshot())).toBe(1);
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('listing');
    expect(selectVersions(actor.getSnapshot())[0]).toMatchObject({ version: 4, restoredFrom: 1 });
  });

  it('does not offer to restore the current version, and ignores versions it does not know', async () => {
    const { actor } = start();
    await settle();
    actor.send({ type: 'versions.select', version: 42 });
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('listing');
    actor.send({ type: 'versions.select', version: 3 });
    actor.send({ type: 'versions.restore' });
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('showingDiff');
    actor.send({ type: 'versions.select', version: 2 });
    expect(selectSelectedVersion(actor.getSnapshot())?.version).toBe(2);
    actor.send({ type: 'versions.restore' });
    actor.send({ type: 'versions.cancel' });
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('showingDiff');
    actor.send({ type: 'versions.close' });
    expect(selectSelectedVersion(actor.getSnapshot())).toBeNull();
  });

  it('shows a refused restore, changes nothing, and goes back to the diff on dismiss', async () => {
    const { actor, announced } = start({ restore: () => Promise.reject(new Error('Someone else saved this first. Reload to see their changes.')) });
    await settle();
    actor.send({ type: 'versions.select', version: 2 });
    actor.send({ type: 'versions.restore' });
    actor.send({ type: 'versions.confirm' });
    await settle();
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('restoreFailed');
    expect(selectVersionsError(actor.getSnapshot())).toMatch(/Someone else saved/);
    expect(announced()).toBe(0);
    actor.send({ type: 'versions.dismiss' });
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('showingDiff');
    expect(selectVersionsError(actor.getSnapshot())).toBeNull();
  });

  it('says the list could not be loaded, and tries again on reload', async () => {
    let fail = true;
    const { actor } = start({ load: async () => { if (fail) throw new Error(''); return LIST; } });
    await settle();
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('loadFailed');
    expect(selectVersionsError(actor.getSnapshot())).toBe(VERSIONS_MESSAGES.loadFailed);
    fail = false;
    actor.send({ type: 'versions.reload' });
    await settle();
    expect(selectVersionsPhase(actor.getSnapshot())).toBe('listing');
    expect(selectVersionsError(actor.getSnapshot())).toBeNull();
  });
});

describe('versions: every path', () => {
  const events = [
    { type: 'xstate.done.actor.load', output: LIST },
    { type: 'xstate.error.actor.load', error: new Error('down') },
    { type: 'versions.select', version: 1 },
    { type: 'versions.select', version: 3 },
    { type: 'versions.close' },
    { type: 'versions.restore' },
    { type: 'versions.confirm' },
    { type: 'versions.cancel' },
    { type: 'versions.reload' },
    { type: 'versions.dismiss' },
    { type: 'xstate.done.actor.restore', output: {} },
    { type: 'xstate.error.actor.restore', error: new Error('refused') },
  ];
  itReachesEveryStateAndTransition(versionsMachine, {
    events,
    logic: versionsMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
  });
});
