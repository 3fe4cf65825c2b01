/**
 * The Add filter picker of the QoS pages and Views (issue 41): choose a dimension (QOE_DIMENSIONS),
 * read its values with their session counts in the page's range under the other filters
 * (GET /qoe/values, the `loadValues` actor supplied by src/adapters/qoe-actors.ts), pick several,
 * include or exclude, apply. The filter set itself lives in the URL (`f`): the page reads it, and
 * after `picker.apply` the view writes `selectAppliedFilters` there; a new `f` starts a new page
 * body and so a new picker (nothing syncs the URL into the machine).
 * A form owns its filter set instead (`owner: 'parent'`, the alert rule editor): the machine keeps the
 * set, Apply and a chip's removal change it here and tell the parent `filters.changed` with the new set.
 */
import { and, assign, sendParent, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { QOE_MAX_FILTERS, QOE_MAX_FILTER_VALUES, type QoeDimension, type QoeFilter, type QoeQuery, type QoeValue } from '../common/qoe';
import { QOE_PAGE_MESSAGES } from '../common/messages/qoe';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export interface QoeFiltersInput {
  /** The filter set applied now (the URL's `f`). */
  filters: QoeFilter[];
  /** The page's range, network and `f`: the values are counted under it. */
  query: QoeQuery;
  /** Who keeps the filter set: the page address (default; Apply hands it to the view), or the parent machine (told `filters.changed`). */
  owner?: 'address' | 'parent';
}

/** What a parent-owned picker tells its parent after every change of the set. */
export interface QoeFiltersChangedEvent { type: 'filters.changed'; filters: QoeFilter[] }

export interface LoadValuesInput {
  dimension: QoeDimension;
  query: QoeQuery;
}

/** Dimensions whose values are ids (titles, series, plans, networks): their chips read the names. */
export const NAMED_QOE_DIMENSIONS: readonly QoeDimension[] = ['title', 'series', 'plan', 'network'];

export interface LoadLabelsInput {
  /** The named dimensions filtered on (none: nothing is asked). */
  dimensions: QoeDimension[];
  query: QoeQuery;
}

/** Names of filtered-on values: dimension → value → label (GET /qoe/values answers them with the counts). */
export type QoeValueLabels = Partial<Record<QoeDimension, Record<string, string>>>;

export interface QoeFiltersContext extends QoeFiltersInput {
  owner: 'address' | 'parent';
  /** The names of the applied filters' id values, once read (a chip shows the id until then, or if they cannot be read). */
  labels: QoeValueLabels;
  dimension: QoeDimension | null;
  exclude: boolean;
  selected: string[];
  values: QoeValue[] | null;
  /** Narrows the values shown (case-insensitive, on the label). */
  find: string;
  error: string | null;
  /** Said when Apply is pressed with no value picked. */
  note: string | null;
}

export type QoeFiltersEvent =
  | { type: 'picker.open' }
  | { type: 'picker.cancel' }
  | { type: 'picker.dimension'; dimension: QoeDimension }
  | { type: 'picker.toggle'; value: string }
  | { type: 'picker.mode'; exclude: boolean }
  | { type: 'picker.find'; text: string }
  | { type: 'picker.retry' }
  | { type: 'picker.apply' }
  /** Parent-owned set only (a page removes a filter by its address). */
  | { type: 'filters.remove'; index: number }
  | { type: 'filters.clear' };

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : QOE_PAGE_MESSAGES.valuesFailed;
}

/** The filter of the set on `dimension` and side `exclude`, if any. */
function filterOn(filters: readonly QoeFilter[], dimension: QoeDimension, exclude: boolean): QoeFilter | undefined {
  return filters.find((f) => f.dimension === dimension && f.exclude === exclude);
}

export const qoeFiltersMachine = setup({
  types: machineTypes<{ context: QoeFiltersContext; events: QoeFiltersEvent; input: QoeFiltersInput; children: { loadValues: 'loadValues'; loadLabels: 'loadLabels' } }>(),
  actors: {
    loadValues: providedLater<QoeValue[], LoadValuesInput>('loadValues'),
    loadLabels: providedLater<QoeValueLabels, LoadLabelsInput>('loadLabels'),
  },
  guards: {
    hasRoom: ({ context }) => context.filters.length < QOE_MAX_FILTERS,
    hasSelection: ({ context }) => context.selected.length > 0,
    ownedByParent: ({ context }) => context.owner === 'parent',
  },
  actions: {
    chooseDimension: assign((_, params: { dimension: QoeDimension }) => ({ dimension: params.dimension, values: null, error: null, note: null, find: '' })),
    /** Starts from what is applied on this dimension (its include filter, else its exclude one), so a filter is edited, not doubled. */
    preselect: assign(({ context }) => {
      if (!context.dimension) return {};
      const existing = filterOn(context.filters, context.dimension, false) ?? filterOn(context.filters, context.dimension, true);
      return { selected: existing ? [...existing.values] : [], exclude: existing?.exclude ?? false };
    }),
    storeValues: assign({ values: (_, params: { values: QoeValue[] }) => params.values, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error) }),
    toggleValue: assign({
      selected: ({ context }, params: { value: string }) => (context.selected.includes(params.value)
        ? context.selected.filter((v) => v !== params.value)
        : context.selected.length < QOE_MAX_FILTER_VALUES ? [...context.selected, params.value] : context.selected),
      note: null,
    }),
    setMode: assign({ exclude: (_, params: { exclude: boolean }) => params.exclude }),
    setFind: assign({ find: (_, params: { text: string }) => params.text }),
    askForValues: assign({ note: QOE_PAGE_MESSAGES.pickSome }),
    storeLabels: assign({ labels: (_, params: { labels: QoeValueLabels }) => params.labels }),
    /** The picked filter into the set kept here; the picked values' names kept for the chips. */
    commitApplied: assign(({ context }) => {
      const { dimension } = context;
      const named = dimension && NAMED_QOE_DIMENSIONS.includes(dimension)
        ? { ...context.labels, [dimension]: { ...context.labels[dimension], ...Object.fromEntries((context.values ?? []).map((v) => [v.value, v.label])) } }
        : context.labels;
      return { filters: appliedFilters(context) ?? context.filters, labels: named };
    }),
    removeFilter: assign({ filters: ({ context }, params: { index: number }) => context.filters.filter((_, i) => i !== params.index) }),
    clearFilters: assign({ filters: [] }),
    tellParent: sendParent(({ context }): QoeFiltersChangedEvent => ({ type: 'filters.changed', filters: context.filters })),
    reset: assign({ dimension: null, selected: [], exclude: false, values: null, find: '', error: null, note: null }),
  },
}).createMachine({
  id: 'qoeFilters',
  description: 'The Add filter picker: a dimension, then its values with their session counts, several at once, included or excluded.',
  context: ({ input }) => ({
    filters: input.filters, query: input.query, owner: input.owner ?? 'address', labels: {}, dimension: null, exclude: false, selected: [], values: null, find: '', error: null, note: null,
  }),
  initial: 'closed',
  // For as long as the chips show: the names of the titles, series, plans and networks filtered on.
  invoke: {
    id: 'loadLabels',
    src: 'loadLabels',
    input: ({ context }) => ({ dimensions: NAMED_QOE_DIMENSIONS.filter((d) => context.filters.some((f) => f.dimension === d)), query: context.query }),
    onDone: { actions: { type: 'storeLabels', params: ({ event }) => ({ labels: event.output }) } },
    // Unread names leave the chips with the ids: the filters themselves still apply.
    onError: {},
  },
  on: {
    'picker.cancel': { target: '.closed', actions: 'reset' },
    'filters.remove': { guard: 'ownedByParent', actions: [{ type: 'removeFilter', params: ({ event }) => ({ index: event.index }) }, 'tellParent'] },
    'filters.clear': { guard: 'ownedByParent', actions: ['clearFilters', 'tellParent'] },
  },
  states: {
    closed: {
      description: 'Only the chips of the filters applied and the Add filter button show.',
      on: { 'picker.open': { guard: 'hasRoom', target: 'choosing' } },
    },
    choosing: {
      description: 'The picker is open: the operator chooses what to filter by.',
      on: { 'picker.dimension': { target: 'loading', actions: [{ type: 'chooseDimension', params: ({ event }) => ({ dimension: event.dimension }) }, 'preselect'] } },
    },
    loading: {
      description: 'Reading the values of the dimension with their session counts in the range under the other filters.',
      on: { 'picker.dimension': { target: 'loading', reenter: true, actions: [{ type: 'chooseDimension', params: ({ event }) => ({ dimension: event.dimension }) }, 'preselect'] } },
      invoke: {
        id: 'loadValues',
        src: 'loadValues',
        input: ({ context }) => ({ dimension: context.dimension ?? 'device', query: context.query }),
        onDone: { target: 'picking', actions: { type: 'storeValues', params: ({ event }) => ({ values: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    picking: {
      description: 'The values with their counts: several can be ticked, included or excluded; Apply writes the filter set into the address.',
      on: {
        'picker.dimension': { target: 'loading', actions: [{ type: 'chooseDimension', params: ({ event }) => ({ dimension: event.dimension }) }, 'preselect'] },
        'picker.toggle': { actions: { type: 'toggleValue', params: ({ event }) => ({ value: event.value }) } },
        'picker.mode': { actions: { type: 'setMode', params: ({ event }) => ({ exclude: event.exclude }) } },
        'picker.find': { actions: { type: 'setFind', params: ({ event }) => ({ text: event.text }) } },
        'picker.apply': [
          // A parent-owned set changes here, and the picker closes for the next filter.
          { guard: and(['hasSelection', 'ownedByParent']), target: 'closed', actions: ['commitApplied', 'tellParent', 'reset'] },
          { guard: 'hasSelection', target: 'applied' },
          { actions: 'askForValues' },
        ],
      },
    },
    failed: {
      description: 'The values could not be read: the reason and Try again.',
      on: {
        'picker.retry': 'loading',
        'picker.dimension': { target: 'loading', actions: [{ type: 'chooseDimension', params: ({ event }) => ({ dimension: event.dimension }) }, 'preselect'] },
      },
    },
    applied: {
      description: 'The new filter set was handed to the address; the page reloads under it (a new page body starts a new picker).',
      on: { 'picker.open': { target: 'choosing', actions: 'reset' } },
    },
  },
});

export type QoeFiltersMachine = typeof qoeFiltersMachine;
export type QoeFiltersRef = ActorRefFrom<QoeFiltersMachine>;
type Snapshot = SnapshotFrom<QoeFiltersMachine>;

export type QoePickerView = 'closed' | 'choosing' | 'loading' | 'picking' | 'failed' | 'applied';
export function selectPickerView(s: Snapshot): QoePickerView {
  for (const view of ['choosing', 'loading', 'picking', 'failed', 'applied'] as const) if (s.matches(view)) return view;
  return 'closed';
}

/** The filter set the picker's choice makes: the filter on its dimension and side replaced, or added. */
export function appliedFilters(context: Pick<QoeFiltersContext, 'filters' | 'dimension' | 'exclude' | 'selected'>): QoeFilter[] | null {
  const { dimension, exclude, selected } = context;
  if (!dimension || selected.length === 0) return null;
  const next: QoeFilter = { dimension, exclude, values: [...selected] };
  // One filter per dimension from the picker: its other side is dropped (it was edited into this one).
  const others = context.filters.filter((f) => f.dimension !== dimension);
  const at = context.filters.findIndex((f) => f.dimension === dimension);
  if (at < 0) return [...others, next];
  const kept = [...others];
  kept.splice(Math.min(at, kept.length), 0, next);
  return kept;
}

/** What Apply writes into the address (null while nothing is picked: the machine asks for a value). */
export const selectAppliedFilters = (s: Snapshot): QoeFilter[] | null => appliedFilters(s.context);

/** The values shown: those whose label or value holds the search text, the ticked ones first kept in place. */
export function selectShownValues(s: Snapshot): QoeValue[] {
  const { values, find } = s.context;
  const text = find.trim().toLowerCase();
  return (values ?? []).filter((v) => !text || v.label.toLowerCase().includes(text) || v.value.toLowerCase().includes(text));
}

/** Ticked values that are not among those read (filtered on before, now without sessions): still shown, so they can be unticked. */
export function selectMissingSelected(s: Snapshot): string[] {
  const known = new Set((s.context.values ?? []).map((v) => v.value));
  return s.context.selected.filter((v) => !known.has(v));
}

export const selectCanAddFilter = (s: Snapshot): boolean => s.context.filters.length < QOE_MAX_FILTERS;

/** How a chip names a value: its name when it is an id whose name was read, else the value itself. */
export function labelOfValue(labels: QoeValueLabels, dimension: QoeDimension, value: string): string {
  const names = labels[dimension];
  return names?.[value] ?? names?.[value.toLowerCase()] ?? value;
}

export const selectValueLabels = (s: Snapshot): QoeValueLabels => s.context.labels;
export const selectFilterSet = (s: Snapshot): QoeFilter[] => s.context.filters;

/**
 * A parent-owned set may name a value no session has had yet (a rule written before the traffic): the
 * search text, offered as a value when it is none of those read. A page's picker offers only what was counted.
 */
export function selectTypedValue(s: Snapshot): string | null {
  const text = s.context.find.trim();
  if (s.context.owner !== 'parent' || text === '') return null;
  const lower = text.toLowerCase();
  const known = (s.context.values ?? []).some((v) => v.value.toLowerCase() === lower || v.label.toLowerCase() === lower);
  return known || s.context.selected.includes(text) ? null : text;
}
