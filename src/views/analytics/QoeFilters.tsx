/**
 * The filter set of the QoS pages and Views (issue 41): one chip per filter that says what is applied
 * ("Device type is android, ios", "ISP is not Slow Net"), each removable (a link to the same page
 * without it), and the Add filter picker (the qoeFilters machine): a dimension, its values with their
 * session counts, several at once, include or exclude. Everything applied lives in the URL's `f`.
 * A form's filter set (the alert rule editor) uses the same chips and picker through `OwnedQoeFilters`:
 * there the qoeFilters machine keeps the set (owner 'parent') and tells its parent machine each change.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { KeyboardEvent, ReactNode } from 'react';
import {
  QOE_DIMENSIONS, QOE_MESSAGES, QOE_NOT_REPORTED, isQoeDimension, qoeDimensionLabel, type QoeFilter, type QoeQuery,
} from '../../../common/qoe';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import {
  labelOfValue, selectAppliedFilters, selectCanAddFilter, selectFilterSet, selectMissingSelected, selectPickerView, selectShownValues, selectTypedValue, selectValueLabels,
  type QoeFiltersRef, type QoeValueLabels,
} from '../../../machines/qoe-filters.machine';
import { usePageActor } from '../../page-actors';
import { button } from '../../theme/ui.css';
import { withQoeFilters, type AnalyticsSearch } from './search';
import * as css from './analytics.css';
import * as q from './qoe.css';

/** How a value reads on a chip: '' is "not reported". */
export function valueText(value: string): string {
  return value === '' ? QOE_NOT_REPORTED : value;
}

/** A chip's words: "<dimension> is <v1, v2>" or "<dimension> is not <v1>"; ids of titles, series, plans and networks by their names once read. */
export function chipText(filter: QoeFilter, labels: QoeValueLabels = {}): string {
  const values = filter.values.map((v) => valueText(v === '' ? v : labelOfValue(labels, filter.dimension, v)));
  return `${qoeDimensionLabel(filter.dimension)} ${filter.exclude ? QOE_MESSAGES.exclude : QOE_MESSAGES.include} ${values.join(', ')}`;
}

export interface QoeFiltersProps {
  /** The page the chips and the picker write to (its own path). */
  path: string;
  search: AnalyticsSearch;
  filters: QoeFilter[];
  query: QoeQuery;
}

export function QoeFilters({ path, search, filters, query }: QoeFiltersProps) {
  const actor = usePageActor('qoeFilters', { input: { filters, query } });
  const navigate = useNavigate();
  return (
    <FilterSet actor={actor} filters={filters} note={search.fNote}
      remove={(i, text) => (
        <Link to={path} search={withQoeFilters(search, filters.filter((_, j) => j !== i))} className={q.chipRemove} aria-label={M.removeFilter(text)} title={M.removeFilter(text)}>×</Link>
      )}
      clear={<Link to={path} search={withQoeFilters(search, [])} className={css.status}>{M.clearFilters}</Link>}
      onApply={(next) => { void navigate({ to: path, search: withQoeFilters(search, next) }); }} />
  );
}

/** A form's filter set (the alert rule editor): the machine (owner 'parent') keeps it; `help` says over which window the picker counts. */
export function OwnedQoeFilters({ actor, help }: { actor: QoeFiltersRef; help?: string }) {
  const filters = useSelector(actor, selectFilterSet);
  return (
    <FilterSet actor={actor} filters={filters} help={help}
      remove={(index, text) => (
        <button type="button" className={q.chipRemove} aria-label={M.removeFilter(text)} title={M.removeFilter(text)}
          onClick={() => actor.send({ type: 'filters.remove', index })}>×</button>
      )}
      clear={<button type="button" className={button.ghost} onClick={() => actor.send({ type: 'filters.clear' })}>{M.clearFilters}</button>} />
  );
}

interface FilterSetProps {
  actor: QoeFiltersRef;
  filters: QoeFilter[];
  note?: string;
  help?: string;
  /** A chip's remove control (a link on a page, a button in a form). */
  remove: (index: number, text: string) => ReactNode;
  /** Shown with more than one filter. */
  clear: ReactNode;
  /** A page's Apply: the new set into the address (a form's set is the machine's: no callback). */
  onApply?: (filters: QoeFilter[]) => void;
}

/** The chips and the Add filter picker, for a page (address) or a form (machine-kept set). */
function FilterSet({ actor, filters, note, help, remove, clear, onApply }: FilterSetProps) {
  const view = useSelector(actor, selectPickerView);
  const canAdd = useSelector(actor, selectCanAddFilter);
  const labels = useSelector(actor, selectValueLabels);
  const open = view !== 'closed' && view !== 'applied';
  return (
    <section className={q.qoeBar} aria-label={M.filters} data-testid="qoe-filters">
      {note && <p className={css.errorNote} role="alert" style={{ flexBasis: '100%', margin: 0 }} data-testid="qoe-filter-note">{note}</p>}
      {help && <p className={css.status} style={{ flexBasis: '100%', margin: 0 }} data-testid="qoe-filter-help">{help}</p>}
      {filters.length === 0
        ? <span className={css.status}>{M.noFilters}</span>
        : (
          <ul className={q.chips} aria-label={M.filters}>
            {filters.map((filter, i) => {
              const text = chipText(filter, labels);
              return (
                <li key={`${filter.exclude ? '!' : ''}${filter.dimension}`} className={q.chip} data-testid="qoe-chip">
                  <span>{text}</span>
                  {remove(i, text)}
                </li>
              );
            })}
          </ul>
        )}
      {!open && (
        <button type="button" className={button.secondary} disabled={!canAdd} aria-expanded={false} onClick={() => actor.send({ type: 'picker.open' })}>
          {M.addFilter}
        </button>
      )}
      {filters.length > 1 && clear}
      {!canAdd && <span className={css.status}>{M.atLimit}</span>}
      {open && <Picker actor={actor} onApply={onApply} />}
    </section>
  );
}

/** Enter in a form's picker picks, it does not submit the form around it. */
function keepEnter(e: KeyboardEvent<HTMLElement>, apply: () => void) {
  if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
  e.preventDefault();
  apply();
}

function Picker({ actor, onApply }: { actor: QoeFiltersRef; onApply?: (filters: QoeFilter[]) => void }) {
  const view = useSelector(actor, selectPickerView);
  const { dimension, exclude, selected, find, error, note } = useSelector(actor, (s) => s.context);
  const shown = useSelector(actor, selectShownValues);
  const missing = useSelector(actor, selectMissingSelected);
  const labels = useSelector(actor, selectValueLabels);
  const typed = useSelector(actor, selectTypedValue);
  const apply = () => {
    const next = selectAppliedFilters(actor.getSnapshot());
    actor.send({ type: 'picker.apply' });
    if (next && onApply) onApply(next);
  };
  const body = (
    <>
      <div className={q.pickerRow}>
        <label className={css.filterField}>{M.dimension}
          <select className={css.control} value={dimension ?? ''}
            onChange={(e) => { if (isQoeDimension(e.target.value)) actor.send({ type: 'picker.dimension', dimension: e.target.value }); }}>
            <option value="" disabled>{M.chooseDimension}</option>
            {QOE_DIMENSIONS.map((d) => <option key={d.key} value={d.key}>{d.label}</option>)}
          </select>
        </label>
        {dimension && (
          <fieldset className={q.fieldset}>
            <legend className={css.srOnly}>{M.mode}</legend>
            <label><input type="radio" name="qoe-mode" checked={!exclude} onChange={() => actor.send({ type: 'picker.mode', exclude: false })} /> {M.include}</label>
            <label><input type="radio" name="qoe-mode" checked={exclude} onChange={() => actor.send({ type: 'picker.mode', exclude: true })} /> {M.exclude}</label>
          </fieldset>
        )}
      </div>
      {view === 'loading' && <p className={css.status} role="status">{M.valuesLoading}</p>}
      {view === 'failed' && (
        <div className={css.errorNote} role="alert">
          <p style={{ margin: 0 }}>{M.valuesFailed} {error}</p>
          <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'picker.retry' })}>{M.retry}</button>
        </div>
      )}
      {view === 'picking' && (
        <>
          <label className={css.filterField}>{M.search}
            <input className={css.control} type="search" value={find} onChange={(e) => actor.send({ type: 'picker.find', text: e.target.value })} />
          </label>
          {shown.length === 0 && missing.length === 0 && typed === null
            ? <p className={css.status}>{M.noValues}</p>
            : (
              <ul className={q.values} aria-label={dimension ? qoeDimensionLabel(dimension) : M.dimension}>
                {missing.map((value) => (
                  <li key={`missing-${value}`}>
                    <label className={q.value}>
                      <span><input type="checkbox" checked onChange={() => actor.send({ type: 'picker.toggle', value })} /> {valueText(value === '' || !dimension ? value : labelOfValue(labels, dimension, value))}</span>
                      <span className={q.count}>{M.sessionsCount(0)}</span>
                    </label>
                  </li>
                ))}
                {typed !== null && (
                  <li key="typed">
                    <label className={q.value}>
                      <span><input type="checkbox" checked={false} onChange={() => actor.send({ type: 'picker.toggle', value: typed })} /> {M.typedValue(typed)}</span>
                      <span className={q.count}>{M.notSeenYet}</span>
                    </label>
                  </li>
                )}
                {shown.map((v) => (
                  <li key={v.value}>
                    <label className={q.value}>
                      <span><input type="checkbox" checked={selected.includes(v.value)} onChange={() => actor.send({ type: 'picker.toggle', value: v.value })} /> {v.label}</span>
                      <span className={q.count}>{M.sessionsCount(v.sessions)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          {note && <p className={css.errorNote} role="alert" style={{ margin: 0 }}>{note}</p>}
        </>
      )}
      <div className={q.pickerRow}>
        {view === 'picking' && <button type={onApply ? 'submit' : 'button'} className={button.primary} onClick={onApply ? undefined : apply}>{M.apply}</button>}
        <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'picker.cancel' })}>{M.cancel}</button>
      </div>
    </>
  );
  // A page's picker is its own form; a form's picker is a group inside that form (forms do not nest).
  return onApply
    ? <form className={q.picker} aria-label={M.addFilter} onSubmit={(e) => { e.preventDefault(); apply(); }}>{body}</form>
    : <div className={q.picker} role="group" aria-label={M.addFilter} onKeyDown={(e) => keepEnter(e, apply)}>{body}</div>;
}
