/**
 * The filter bar of an analytics page: date presets (7/30/90 days, toggle buttons) and a custom range, granularity,
 * network and the page's own filters (one at a time, as the reports take them: picking one clears the
 * others). Plans and titles to pick come with the page's report answer. Every control only changes the
 * URL's search params; the page follows the URL, so a link reproduces the view.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { DATE_PRESETS, REPORT_FILTER_MESSAGES, type FilterOption, type ReportAnswer, type ReportFilter } from '../../../common/reports';
import type { Network } from '../../../common/contract';
import { COMPARE_MESSAGES as C } from '../../../common/messages/analytics-compare';
import { PAGE_GRANULARITIES, rangeOf, swapped, withComparedDay, withCompare, withFilter, without, type AnalyticsSearch, type CompareMode } from './search';
import { useSiteToday } from './useReport';
import * as css from './analytics.css';

/** Device types of the viewers' world (subscriber_devices.device_type). */
export const DEVICE_TYPES = ['web', 'ios', 'android', 'roku', 'firetv', 'appletv', 'smarttv'] as const;
export const COUNTRY_CODES = ['US', 'GB', 'CA', 'DE', 'FR', 'ES', 'IN', 'BR', 'AU', 'MX'] as const;

export interface FilterBarProps {
  path: string;
  search: AnalyticsSearch;
  filters: ReportFilter[];
  networks: Network[];
  realtime: boolean;
  /** Choices of the plan and content filters, from the page's report answer (none before the first one). */
  options?: ReportAnswer['options'];
  /** false on pages without periods (breakdowns, the cohort triangle): granularity changes nothing there. */
  granularity?: boolean;
  /** Where the plan and content choices stand (the report machine's selectOptionsStatus). */
  optionsStatus?: 'ready' | 'loading' | 'failed' | 'waiting';
  /** The range problem the report machine found: reversed (nothing asked) or clamped (its note). */
  reversed?: boolean;
  rangeNote?: string | null;
  /** Money pages: the currency shown and every currency the site has payments in. */
  currencies?: { currency: string; currencies: string[] } | null;
  /** The 7/30/90-day preset the page's reports cover (the report machine's selectPressedPreset), else null. */
  pressedPreset?: number | null;
  /** Issue 41: the page draws a compared period (search.ts canCompare): "Compare with" beside the range. */
  compare?: boolean;
}

/** The choices of "Compare with" (toggle buttons: the pressed one is the address's). */
const COMPARE_CHOICES: { mode: CompareMode | null; label: string }[] = [
  { mode: null, label: C.none }, { mode: 'previous', label: C.previous }, { mode: 'custom', label: C.custom },
];

const PICKERS = {
  plan: { label: 'Plan', all: 'All plans' },
  content: { label: 'Title', all: 'All titles' },
} as const;

const NO_OPTIONS = { loading: 'Loading…', failed: REPORT_FILTER_MESSAGES.optionsFailed, waiting: REPORT_FILTER_MESSAGES.optionsWaiting } as const;

function Picker({ filter, value, options, status, onPick }: { filter: keyof typeof PICKERS; value: string | undefined; options: FilterOption[] | undefined; status: keyof typeof NO_OPTIONS | 'ready'; onPick: (value: string) => void }) {
  const { label, all } = PICKERS[filter];
  return (
    <label className={css.filterField}>{label}
      <select className={css.control} value={value ?? ''} disabled={!options} onChange={(e) => onPick(e.target.value)}>
        <option value="">{options ? all : NO_OPTIONS[status === 'ready' ? 'failed' : status]}</option>
        {(options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </label>
  );
}

export function FilterBar({ path, search, filters, networks, realtime, options, granularity = true, optionsStatus = 'loading', reversed = false, rangeNote = null, currencies = null, pressedPreset = null, compare = false }: FilterBarProps) {
  const navigate = useNavigate();
  const go = (next: AnalyticsSearch) => navigate({ to: path, search: next });
  const today = useSiteToday();
  const range = rangeOf(search, today);
  return (
    <form className={css.filterBar} aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {!realtime && (
        <>
          <div className={css.filterField} role="group" aria-label="Date range">
            <span>Range</span>
            <div style={{ display: 'flex', gap: '0.25rem' }}>
              {/* Toggle buttons (issue 38): aria-pressed says which preset the reports cover. */}
              {DATE_PRESETS.map((days) => (
                <button key={days} type="button" className={css.preset} aria-pressed={pressedPreset === days}
                  onClick={() => go({ ...without(search, 'from', 'to'), days })}>
                  {days} days
                </button>
              ))}
            </div>
          </div>
          <label className={css.filterField}>From
            <input className={css.control} type="date" value={range.from} max={range.to}
              onChange={(e) => e.target.value && go({ ...without(search, 'days'), from: e.target.value, to: range.to })} />
          </label>
          <label className={css.filterField}>To
            <input className={css.control} type="date" value={range.to} min={range.from}
              onChange={(e) => e.target.value && go({ ...without(search, 'days'), from: range.from, to: e.target.value })} />
          </label>
          {compare && (
            <div className={css.filterField} role="group" aria-label={C.control}>
              <span>{C.control}</span>
              <div style={{ display: 'flex', gap: '0.25rem' }}>
                {COMPARE_CHOICES.map(({ mode, label }) => (
                  <button key={label} type="button" className={css.preset} aria-pressed={(search.compare ?? null) === mode}
                    onClick={() => go(withCompare(search, mode, today))}>
                    {label}
                  </button>
                ))}
              </div>
            </div>
          )}
          {compare && search.compare === 'custom' && search.cfrom && search.cto && (
            <>
              <label className={css.filterField}>{C.from}
                <input className={css.control} type="date" value={search.cfrom} max={search.cto}
                  onChange={(e) => go(withComparedDay(search, 'cfrom', e.target.value))} />
              </label>
              <label className={css.filterField}>{C.to}
                <input className={css.control} type="date" value={search.cto} min={search.cfrom}
                  onChange={(e) => go(withComparedDay(search, 'cto', e.target.value))} />
              </label>
            </>
          )}
          {search.compareNote && <p className={css.errorNote} role="alert" data-testid="compare-note" style={{ flexBasis: '100%', margin: 0 }}>{search.compareNote}</p>}
          {reversed && (
            <p className={css.errorNote} role="alert" data-testid="range-reversed" style={{ flexBasis: '100%', margin: 0 }}>
              {REPORT_FILTER_MESSAGES.reversed(range.from, range.to)}{' '}
              <Link to={path} search={swapped(search)}>{REPORT_FILTER_MESSAGES.swap}</Link>
            </p>
          )}
          {rangeNote && <p className={css.status} role="status" data-testid="range-note" style={{ flexBasis: '100%', margin: 0 }}>{rangeNote}</p>}
          {granularity && (
            <label className={css.filterField}>Granularity
              <select className={css.control} value={search.granularity ?? 'day'}
                onChange={(e) => go({ ...search, granularity: PAGE_GRANULARITIES.find((g) => g === e.target.value) })}>
                {PAGE_GRANULARITIES.map((g) => <option key={g} value={g}>{g[0]!.toUpperCase() + g.slice(1)}</option>)}
              </select>
            </label>
          )}
        </>
      )}
      <label className={css.filterField}>Network
        <select className={css.control} value={search.network ?? ''}
          onChange={(e) => go(e.target.value ? { ...search, network: e.target.value } : without(search, 'network'))}>
          <option value="">All networks</option>
          {networks.map((n) => <option key={n.identifier} value={n.identifier}>{n.name}</option>)}
        </select>
      </label>
      {filters.includes('device') && (
        <label className={css.filterField}>Device
          <select className={css.control} value={search.device ?? ''}
            onChange={(e) => go(withFilter(search, 'device', e.target.value))}>
            <option value="">All devices</option>
            {DEVICE_TYPES.map((d) => <option key={d} value={d}>{d}</option>)}
          </select>
        </label>
      )}
      {filters.includes('country') && (
        <label className={css.filterField}>Country
          <select className={css.control} value={search.country ?? ''}
            onChange={(e) => go(withFilter(search, 'country', e.target.value))}>
            <option value="">All countries</option>
            {COUNTRY_CODES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
      )}
      {(['plan', 'content'] as const).filter((f) => filters.includes(f)).map((f) => (
        <Picker key={f} filter={f} value={search[f]} options={options?.[f]} status={optionsStatus} onPick={(value) => go(withFilter(search, f, value))} />
      ))}
      {currencies && (
        <label className={css.filterField}>{REPORT_FILTER_MESSAGES.currency}
          <select className={css.control} value={currencies.currency}
            onChange={(e) => go({ ...search, currency: e.target.value })}>
            {currencies.currencies.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
      )}
    </form>
  );
}
