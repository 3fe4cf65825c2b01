/**
 * /content: the library (issue 13). Tabs per content kind, a search box, a status filter, a
 * sortable paged table and, for write roles, row selection with bulk publish / unpublish. Renders
 * the `contentBrowser` actor's snapshot and sends it events; the menu entries of spec §2.6 stay
 * external links to '/'.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import {
  CONTENT_KINDS, CONTENT_STATUSES, type ContentSort, type ContentSortField, type ContentSummary,
} from '../../../common/content';
import { OWN_MESSAGES } from '../../../common/messages';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import {
  selectAllMatching, selectBulkConfirm, selectCanSelect, selectCanSelectAllMatching, selectContentList, selectContentListError,
  selectContentListIsLoading, selectFilters, selectIsBulkSaving, selectIsEmpty, selectKeyword, selectPaging, selectRows, selectSelected,
  selectSort, selectStatusFilter, selectTab, type ContentBrowserMachine,
} from '../../../machines/content-browser.machine';
import { useAppActor } from '../../app-actor';
import { LastBulkUndo } from './LastBulkUndo';
import { CONTENT_COLUMNS, CONTENT_KIND_LABELS, CONTENT_MENU } from '../../config';
import { formatDateTime } from '../../../common/display-format';
import { CONTENT_STATUS_WORDS } from '../../../common/status-words';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import { button, input, label, page, pageTitle } from '../../theme/ui.css';
import * as css from './content.css';
import { Thumbnail } from './ArtworkImage';
import * as own from './create.css';

type ContentBrowserRef = ActorRefFrom<ContentBrowserMachine>;

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** Selectors that answer a small new object each time compare by value. */
const sameValue = <T,>(a: T, b: T) => JSON.stringify(a) === JSON.stringify(b);

function nextSort(current: ContentSort, field: ContentSortField): ContentSort {
  return current === field ? `-${field}` : field;
}

function ariaSort(current: ContentSort, field: ContentSortField): 'ascending' | 'descending' | 'none' {
  if (current === field) return 'ascending';
  if (current === `-${field}`) return 'descending';
  return 'none';
}

function useCanEditContent(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
}

function Row({ row, selectable, selected, browser, zone }: { row: ContentSummary; selectable: boolean | null; selected: boolean; browser: ContentBrowserRef; zone: string }) {
  return (
    <tr>
      {selectable !== null && (
        <td className={css.cell}>
          <input
            type="checkbox"
            aria-label={`Select ${row.title}`}
            checked={selected}
            disabled={!selectable}
            onChange={(e) => browser.send({ type: 'list.select', id: row.id, selected: e.target.checked })}
          />
        </td>
      )}
      <td className={css.cell}>
        <div className={own.episode}>
          <Thumbnail url={row.artworkUrl} title={row.title} />
          <Link to="/content/$contentType/$id" params={{ contentType: row.kind, id: row.id }}>{row.title}</Link>
        </div>
      </td>
      <td className={`${css.cell} ${css.hideNarrow}`}>{CONTENT_KIND_LABELS[row.kind]}</td>
      <td className={css.cell}><span className={css.statusBadge[row.status]}>{CONTENT_STATUS_WORDS[row.status]}</span></td>
      <td className={`${css.numberCell} ${css.hideNarrow}`}>{formatDuration(row.durationSeconds)}</td>
      <td className={css.numberCell}>{numberFormat.format(row.plays30d)}</td>
      <td className={`${css.cell} ${css.hideNarrow}`}>{formatDateTime(row.updatedAt, zone)}</td>
    </tr>
  );
}

export function ContentLibraryPage() {
  const browser = useAppActor('contentBrowser');
  const writable = useCanEditContent();
  const tab = useSelector(browser, selectTab);
  const keyword = useSelector(browser, selectKeyword);
  const status = useSelector(browser, selectStatusFilter);
  const sort = useSelector(browser, selectSort);
  const rows = useSelector(browser, selectRows);
  const selected = useSelector(browser, selectSelected);
  // The rows' reading, failure and Retry are the library's list child's (issue 39).
  const list = useSelector(browser, selectContentList);
  const reading = useSelector(list, selectContentListIsLoading);
  const error = useSelector(list, selectContentListError);
  const bulkSaving = useSelector(browser, selectIsBulkSaving);
  const loading = reading || bulkSaving;
  const canSelect = useSelector(browser, selectCanSelect) && !reading;
  const zone = useSiteTimeZone();
  const empty = useSelector(browser, selectIsEmpty) && !reading && !error;
  const paging = useSelector(browser, selectPaging);
  const allSelected = rows.length > 0 && rows.every((row) => selected.includes(row.id));
  const allMatching = useSelector(browser, selectAllMatching);
  const canSelectAllMatching = useSelector(browser, selectCanSelectAllMatching);
  const confirm = useSelector(browser, selectBulkConfirm, sameValue);
  const filters = useSelector(browser, selectFilters, sameValue);
  const hasFilters = filters.keyword !== '' || filters.status !== null;
  const selectedCount = allMatching ? paging?.total ?? 0 : selected.length;

  return (
    <main className={page}>
      <h1 className={pageTitle}>Content</h1>
      <nav aria-label="Content menu" className={css.menu}>
        {/* A read role is offered nothing it cannot do: no Create New (issue 29). */}
        {CONTENT_MENU.filter((entry) => writable || entry.label !== 'Create New').map((entry) => <a key={entry.label} href={entry.href}>{entry.label}</a>)}
      </nav>

      <div role="tablist" aria-label="Content kinds" className={css.tabs}>
        {CONTENT_KINDS.map((kind, index) => (
          <button
            key={kind}
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === index}
            onClick={() => browser.send({ type: 'list.tab', index })}
          >
            {CONTENT_KIND_LABELS[kind]}
          </button>
        ))}
      </div>

      <div className={css.toolbar}>
        <label className={css.toolbarField}>
          <span className={label}>Search titles</span>
          <input
            className={input}
            type="search"
            value={keyword}
            placeholder="Title or words of the title"
            onChange={(e) => browser.send({ type: 'list.search', keyword: e.target.value })}
          />
        </label>
        <label className={css.toolbarField}>
          <span className={label}>Status</span>
          <select
            className={input}
            value={status ?? ''}
            onChange={(e) => browser.send({ type: 'list.status', status: CONTENT_STATUSES.find((s) => s === e.target.value) ?? null })}
          >
            <option value="">All statuses</option>
            {CONTENT_STATUSES.map((s) => <option key={s} value={s}>{CONTENT_STATUS_WORDS[s]}</option>)}
          </select>
        </label>
      </div>

      {hasFilters && (
        <ul className={css.chips} aria-label="Filters">
          {filters.keyword && (
            <li className={css.chip}>
              Search: “{filters.keyword}”
              <button type="button" className={css.chipRemove} aria-label={`Remove filter: “${filters.keyword}”`} onClick={() => browser.send({ type: 'list.search', keyword: '' })}>×</button>
            </li>
          )}
          {filters.status && (
            <li className={css.chip}>
              Status: {CONTENT_STATUS_WORDS[filters.status]}
              <button type="button" className={css.chipRemove} aria-label={`Remove filter: ${CONTENT_STATUS_WORDS[filters.status]}`} onClick={() => browser.send({ type: 'list.status', status: null })}>×</button>
            </li>
          )}
        </ul>
      )}

      {writable && (
        <div className={css.bulkBar} role="group" aria-label="Bulk actions">
          <span>{allMatching ? `All ${numberFormat.format(selectedCount)} matching selected` : `${selected.length} selected`}</span>
          {canSelectAllMatching && !allMatching && paging && (
            <button type="button" className={button.ghost} onClick={() => browser.send({ type: 'list.selectAllMatching' })}>
              Select all {numberFormat.format(paging.total)} matching
            </button>
          )}
          <button type="button" className={button.secondary} disabled={!selected.length || !canSelect} onClick={() => browser.send({ type: 'list.bulk', status: 'published' })}>
            Publish
          </button>
          <button type="button" className={button.secondary} disabled={!selected.length || !canSelect} onClick={() => browser.send({ type: 'list.bulk', status: 'unpublished' })}>
            Unpublish
          </button>
          {bulkSaving && <span role="status">Saving…</span>}
          <LastBulkUndo />
        </div>
      )}

      {confirm && (
        <div className={css.confirm} role="alertdialog" aria-labelledby="bulk-confirm-title" aria-describedby="bulk-confirm-text">
          <h2 id="bulk-confirm-title" className={css.confirmTitle}>{confirm.status === 'published' ? 'Publish' : 'Unpublish'} {numberFormat.format(confirm.count)} {confirm.count === 1 ? 'item' : 'items'}?</h2>
          <p id="bulk-confirm-text">
            {confirm.status === 'published'
              ? `${numberFormat.format(confirm.count)} ${confirm.count === 1 ? 'item becomes' : 'items become'} visible to viewers now.`
              : `${numberFormat.format(confirm.count)} ${confirm.count === 1 ? 'item is' : 'items are'} taken off the service now.`}
          </p>
          <div className={css.confirmActions}>
            <button type="button" className={button.primary} onClick={() => browser.send({ type: 'list.confirm' })}>
              {confirm.status === 'published' ? 'Publish' : 'Unpublish'} {numberFormat.format(confirm.count)}
            </button>
            <button type="button" className={button.secondary} onClick={() => browser.send({ type: 'list.cancel' })}>Cancel</button>
          </div>
        </div>
      )}

      {error ? (
        <div className={css.errorMessage} role="alert">
          <p>{error}</p>
          <button type="button" className={button.primary} onClick={() => browser.send({ type: 'list.retry' })}>Try again</button>
        </div>
      ) : (
        <div className={`${css.tableWrap} ${loading ? css.busy : ''}`} aria-busy={loading}>
          <table className={css.table}>
            <thead>
              <tr>
                {writable && (
                  <th className={css.headCell} scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all rows of this page"
                      checked={allSelected}
                      disabled={!canSelect || rows.length === 0}
                      onChange={(e) => browser.send({ type: 'list.selectPage', selected: e.target.checked })}
                    />
                  </th>
                )}
                {CONTENT_COLUMNS.map((column) => (
                  <th
                    key={column.field}
                    scope="col"
                    aria-sort={ariaSort(sort, column.field)}
                    className={`${column.numeric ? css.numberHeadCell : css.headCell} ${column.narrowHidden ? css.hideNarrow : ''}`}
                  >
                    <button type="button" className={css.sortButton} onClick={() => browser.send({ type: 'list.sort', sort: nextSort(sort, column.field) })}>
                      {column.label}{ariaSort(sort, column.field) === 'ascending' ? ' ▲' : ariaSort(sort, column.field) === 'descending' ? ' ▼' : ''}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.id} row={row} browser={browser} zone={zone} selectable={writable ? canSelect : null} selected={selected.includes(row.id)} />
              ))}
            </tbody>
          </table>
          {loading && rows.length === 0 && <p className={css.message} role="status">Loading…</p>}
          {empty && (
            <div className={css.message}>
              <p>{OWN_MESSAGES.contentEmpty}</p>
              {hasFilters && <button type="button" className={button.secondary} onClick={() => browser.send({ type: 'list.clearFilters' })}>Clear filters</button>}
            </div>
          )}
        </div>
      )}

      {paging && paging.total > 0 && (
        <nav className={css.pager} aria-label="Pages">
          <span>{paging.first}–{paging.last} of {numberFormat.format(paging.total)}</span>
          <span>
            <button type="button" className={button.ghost} disabled={paging.previousStart === null || loading} onClick={() => browser.send({ type: 'list.page', start: paging.previousStart ?? 0 })}>
              Previous
            </button>
            <button type="button" className={button.ghost} disabled={paging.nextStart === null || loading} onClick={() => browser.send({ type: 'list.page', start: paging.nextStart ?? 0 })}>
              Next
            </button>
          </span>
        </nav>
      )}
    </main>
  );
}
