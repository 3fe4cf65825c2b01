import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type AnyStateMachine } from 'xstate';
import { QOE_MAX_FILTERS, type QoeFilter, type QoeValue } from '../common/qoe';
import { QOE_PAGE_MESSAGES } from '../common/messages/qoe';
import {
  appliedFilters, labelOfValue, qoeFiltersMachine, selectAppliedFilters, selectCanAddFilter, selectMissingSelected, selectPickerView, selectShownValues,
  selectFilterSet, selectTypedValue, selectValueLabels, type LoadLabelsInput, type LoadValuesInput, type QoeFiltersChangedEvent, type QoeValueLabels,
} from './qoe-filters.machine';
import { allStateNodes, createCoverage } from './test-harness/coverage';
import { machineTypes } from './machine-types';

const VALUES: QoeValue[] = [
  { value: 'android', label: 'android', sessions: 120 }, { value: 'ios', label: 'ios', sessions: 80 }, { value: '', label: 'Not reported', sessions: 3 },
];
const QUERY = { from: '2026-11-01', to: '2026-11-30' };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const coverage = createCoverage(qoeFiltersMachine);

function start(filters: QoeFilter[] = [], load: (input: LoadValuesInput) => QoeValue[] = () => VALUES, names: (input: LoadLabelsInput) => QoeValueLabels = () => ({})) {
  const calls: LoadValuesInput[] = [];
  const labelCalls: LoadLabelsInput[] = [];
  const actor = createActor(qoeFiltersMachine.provide({
    actors: {
      loadValues: fromPromise<QoeValue[], LoadValuesInput>(async ({ input }) => { calls.push(input); return load(input); }),
      loadLabels: fromPromise<QoeValueLabels, LoadLabelsInput>(async ({ input }) => { labelCalls.push(input); return names(input); }),
    },
  }), { input: { filters, query: QUERY }, inspect: coverage.inspect }).start();
  return { actor, calls, labelCalls };
}

describe('qoeFilters machine', () => {
  it('describes itself and every state, and names its events with dots', () => {
    const machine: AnyStateMachine = qoeFiltersMachine;
    expect(machine.root.description).toBeTruthy();
    expect(allStateNodes(machine).filter((n) => !n.description).map((n) => n.id)).toEqual([]);
    const events = new Set(allStateNodes(machine).flatMap((n) => n.ownEvents).concat(machine.root.ownEvents));
    expect([...events].filter((t) => !t.startsWith('xstate.') && !/^[a-z]+(\.[a-z][A-Za-z]*)+$/.test(t))).toEqual([]);
  });

  it('opens, reads the values of the chosen dimension under the page query, and applies several included values', async () => {
    const { actor, calls } = start([{ dimension: 'isp', exclude: true, values: ['Slow Net'] }]);
    expect(selectPickerView(actor.getSnapshot())).toBe('closed');
    actor.send({ type: 'picker.open' });
    expect(selectPickerView(actor.getSnapshot())).toBe('choosing');
    actor.send({ type: 'picker.dimension', dimension: 'device' });
    expect(selectPickerView(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(calls).toEqual([{ dimension: 'device', query: QUERY }]);
    expect(selectPickerView(actor.getSnapshot())).toBe('picking');
    actor.send({ type: 'picker.toggle', value: 'android' });
    actor.send({ type: 'picker.toggle', value: 'ios' });
    expect(selectAppliedFilters(actor.getSnapshot())).toEqual([
      { dimension: 'isp', exclude: true, values: ['Slow Net'] }, { dimension: 'device', exclude: false, values: ['android', 'ios'] },
    ]);
    actor.send({ type: 'picker.apply' });
    expect(selectPickerView(actor.getSnapshot())).toBe('applied');
    actor.send({ type: 'picker.open' });
    expect(actor.getSnapshot().context.selected).toEqual([]);
  });

  it('asks for a value when Apply is pressed with none, excludes, finds and unticks', async () => {
    const { actor } = start();
    actor.send({ type: 'picker.open' });
    actor.send({ type: 'picker.dimension', dimension: 'device' });
    await flush();
    actor.send({ type: 'picker.apply' });
    expect(selectPickerView(actor.getSnapshot())).toBe('picking');
    expect(actor.getSnapshot().context.note).toBe(QOE_PAGE_MESSAGES.pickSome);
    expect(selectAppliedFilters(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'picker.mode', exclude: true });
    actor.send({ type: 'picker.toggle', value: 'ios' });
    expect(actor.getSnapshot().context.note).toBeNull();
    actor.send({ type: 'picker.toggle', value: 'android' });
    actor.send({ type: 'picker.toggle', value: 'android' });
    actor.send({ type: 'picker.find', text: 'NOT rep' });
    expect(selectShownValues(actor.getSnapshot()).map((v) => v.value)).toEqual(['']);
    expect(selectAppliedFilters(actor.getSnapshot())).toEqual([{ dimension: 'device', exclude: true, values: ['ios'] }]);
  });

  it('edits the filter already on a dimension (its values ticked, its side kept) instead of doubling it, and keeps a ticked value that has no sessions now', async () => {
    const { actor } = start([{ dimension: 'device', exclude: true, values: ['roku'] }, { dimension: 'cdn', exclude: false, values: ['akamai'] }]);
    actor.send({ type: 'picker.open' });
    actor.send({ type: 'picker.dimension', dimension: 'device' });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ exclude: true, selected: ['roku'] });
    expect(selectMissingSelected(actor.getSnapshot())).toEqual(['roku']);
    actor.send({ type: 'picker.toggle', value: 'ios' });
    actor.send({ type: 'picker.mode', exclude: false });
    expect(selectAppliedFilters(actor.getSnapshot())).toEqual([
      { dimension: 'device', exclude: false, values: ['roku', 'ios'] }, { dimension: 'cdn', exclude: false, values: ['akamai'] },
    ]);
  });

  it('says why the values failed, tries again, switches dimension while reading, and cancels', async () => {
    let fail = true;
    const { actor, calls } = start([], (input) => { if (fail) throw new Error('The server could not be reached.'); return input.dimension === 'cdn' ? [{ value: 'akamai', label: 'akamai', sessions: 9 }] : VALUES; });
    actor.send({ type: 'picker.open' });
    actor.send({ type: 'picker.dimension', dimension: 'isp' });
    await flush();
    expect(selectPickerView(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('The server could not be reached.');
    fail = false;
    actor.send({ type: 'picker.retry' });
    await flush();
    expect(selectPickerView(actor.getSnapshot())).toBe('picking');
    actor.send({ type: 'picker.dimension', dimension: 'country' });
    actor.send({ type: 'picker.dimension', dimension: 'cdn' });
    await flush();
    expect(calls.map((c) => c.dimension)).toEqual(['isp', 'isp', 'country', 'cdn']);
    expect(actor.getSnapshot().context.values).toEqual([{ value: 'akamai', label: 'akamai', sessions: 9 }]);
    fail = true;
    actor.send({ type: 'picker.dimension', dimension: 'os' });
    await flush();
    actor.send({ type: 'picker.dimension', dimension: 'os' });
    actor.send({ type: 'picker.cancel' });
    expect(selectPickerView(actor.getSnapshot())).toBe('closed');
    expect(actor.getSnapshot().context.dimension).toBeNull();
  });

  it('reads the names of the titles, series, plans and networks filtered on, for the chips; ids stay when they cannot be read', async () => {
    const TITLE = '0B6F3C2E-1111-4A4A-9B9B-000000000001';
    const filters: QoeFilter[] = [{ dimension: 'device', exclude: false, values: ['ios'] }, { dimension: 'title', exclude: true, values: [TITLE] }, { dimension: 'plan', exclude: false, values: ['p-1'] }];
    const { actor, labelCalls } = start(filters, () => VALUES, () => ({ title: { [TITLE.toLowerCase()]: 'Night Drive' }, plan: { 'p-1': 'Sports Plus' } }));
    expect(selectValueLabels(actor.getSnapshot())).toEqual({});
    await flush();
    expect(labelCalls).toEqual([{ dimensions: ['title', 'plan'], query: QUERY }]);
    const labels = selectValueLabels(actor.getSnapshot());
    expect(labelOfValue(labels, 'title', TITLE)).toBe('Night Drive');
    expect(labelOfValue(labels, 'plan', 'p-1')).toBe('Sports Plus');
    expect(labelOfValue(labels, 'plan', 'p-2')).toBe('p-2');
    expect(labelOfValue(labels, 'device', 'ios')).toBe('ios');

    const failing = start(filters, () => VALUES, () => { throw new Error('The server could not be reached.'); });
    await flush();
    expect(selectValueLabels(failing.actor.getSnapshot())).toEqual({});
    expect(failing.actor.getSnapshot().status).toBe('active');
    expect(labelOfValue(selectValueLabels(failing.actor.getSnapshot()), 'title', TITLE)).toBe(TITLE);
  });

  it(`does not open past ${QOE_MAX_FILTERS} filters`, () => {
    const filters: QoeFilter[] = (['device', 'os', 'osVersion', 'browser', 'player', 'playerVersion', 'appVersion', 'country', 'region', 'isp'] as const)
      .map((dimension) => ({ dimension, exclude: false, values: ['x'] }));
    const { actor } = start(filters);
    expect(selectCanAddFilter(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'picker.open' });
    expect(selectPickerView(actor.getSnapshot())).toBe('closed');
    expect(appliedFilters({ filters, dimension: null, exclude: false, selected: ['a'] })).toBeNull();
  });

  it('a form owns its set (owner parent): Apply, a chip\'s removal and Clear change it here and tell the parent the new set; a typed value may be picked', async () => {
    const TITLES: QoeValue[] = [{ value: 'c-1', label: 'Night Drive', sessions: 4 }];
    const logic = qoeFiltersMachine.provide({
      actors: {
        loadValues: fromPromise<QoeValue[], LoadValuesInput>(async ({ input }) => (input.dimension === 'title' ? TITLES : VALUES)),
        loadLabels: fromPromise<QoeValueLabels, LoadLabelsInput>(async () => ({})),
      },
    });
    const parent = setup({
      types: machineTypes<{ context: { sets: QoeFilter[][] }; events: QoeFiltersChangedEvent }>(),
      actors: { picker: logic },
    }).createMachine({
      context: { sets: [] },
      invoke: { id: 'picker', src: 'picker', input: { filters: [{ dimension: 'isp', exclude: true, values: ['Slow Net'] }], query: QUERY, owner: 'parent' } },
      on: { 'filters.changed': { actions: assign({ sets: ({ context, event }) => [...context.sets, event.filters] }) } },
    });
    const actor = createActor(parent, { inspect: coverage.inspect }).start();
    const picker = actor.getSnapshot().children.picker!;
    const sets = () => actor.getSnapshot().context.sets;
    picker.send({ type: 'picker.open' });
    picker.send({ type: 'picker.dimension', dimension: 'title' });
    await flush();
    picker.send({ type: 'picker.toggle', value: 'c-1' });
    picker.send({ type: 'picker.apply' });
    expect(selectPickerView(picker.getSnapshot())).toBe('closed');
    expect(sets()).toEqual([[{ dimension: 'isp', exclude: true, values: ['Slow Net'] }, { dimension: 'title', exclude: false, values: ['c-1'] }]]);
    expect(selectFilterSet(picker.getSnapshot())).toEqual(sets()[0]);
    // The picked title's name came with its count: the chip reads it without asking again.
    expect(labelOfValue(selectValueLabels(picker.getSnapshot()), 'title', 'c-1')).toBe('Night Drive');

    // A value no session has had yet: typed, offered, picked.
    picker.send({ type: 'picker.open' });
    picker.send({ type: 'picker.dimension', dimension: 'isp' });
    await flush();
    expect(selectTypedValue(picker.getSnapshot())).toBeNull();
    picker.send({ type: 'picker.find', text: 'iOS' });
    expect(selectTypedValue(picker.getSnapshot())).toBeNull();
    picker.send({ type: 'picker.find', text: ' New Net ' });
    expect(selectTypedValue(picker.getSnapshot())).toBe('New Net');
    picker.send({ type: 'picker.toggle', value: 'New Net' });
    expect(selectTypedValue(picker.getSnapshot())).toBeNull();
    picker.send({ type: 'picker.apply' });
    expect(sets()[1]).toEqual([{ dimension: 'isp', exclude: true, values: ['Slow Net', 'New Net'] }, { dimension: 'title', exclude: false, values: ['c-1'] }]);

    picker.send({ type: 'filters.remove', index: 0 });
    expect(sets()[2]).toEqual([{ dimension: 'title', exclude: false, values: ['c-1'] }]);
    picker.send({ type: 'filters.clear' });
    expect(sets()[3]).toEqual([]);
    expect(selectFilterSet(picker.getSnapshot())).toEqual([]);
    actor.stop();
  });

  it('a page\'s set (its address) is not changed by the machine: removal and Clear are links there, and no typed value is offered', async () => {
    const filters: QoeFilter[] = [{ dimension: 'cdn', exclude: false, values: ['akamai'] }];
    const { actor } = start(filters);
    actor.send({ type: 'filters.remove', index: 0 });
    actor.send({ type: 'filters.clear' });
    expect(selectFilterSet(actor.getSnapshot())).toEqual(filters);
    actor.send({ type: 'picker.open' });
    actor.send({ type: 'picker.dimension', dimension: 'device' });
    await flush();
    actor.send({ type: 'picker.find', text: 'roku' });
    expect(selectTypedValue(actor.getSnapshot())).toBeNull();
  });

  it('takes every state and transition', () => {
    expect(coverage.report().states.missing).toEqual([]);
    expect(coverage.report().transitions.missing).toEqual([]);
  });
});
