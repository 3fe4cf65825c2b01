/**
 * Monetization › Coupons: the site's codes with their redemptions; generate a batch for an offer; export as
 * CSV; each code's History (`?history=<couponId>`, the page machine's row History) beside the list, in place
 * of the batch form while it shows (the form keeps its draft and comes back on Close history).
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { formatDate } from '../../../common/display-format';
import { COUPON_STATUSES, MONETIZATION_MESSAGES, couponExpiryText } from '../../../common/monetization-rules';
import { COUPON_STATUS_WORDS, statusWord } from '../../../common/status-words';
import { selectDraft, selectEditorData } from '../../../machines/editor.machine';
import { selectListQuery, selectListRows } from '../../../machines/list.machine';
import { selectActionRunning } from '../../../machines/page-action.machine';
import { COUPON_ACTIONS, type Coupon, type Offer } from '../../../common/monetization-contract';
import {
  selectPageActions, selectPageEditor, selectPageList, selectRowHistory, selectRowHistoryId, type PageHistoryRef,
} from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as ui from '../../theme/ui.css';
import { HistoryPanel } from '../shared/HistoryPanel';
import * as historyCss from '../shared/history.css';
import { ActionOutcome } from './ActionOutcome';
import { EditorPanel } from './EditorPanel';
import { NumberField, SelectField, TextField } from './EditorFields';
import { ListTable } from './ListTable';
import * as couponsCss from './coupons.css';
import * as css from './monetization.css';
import { listStartOf, useCanEditMonetization, type EditorRef } from './page-refs';

const ROUTE = '/monetization/coupon';
const MODES = [{ value: 'batch', label: 'A batch of random codes' }, { value: 'single', label: 'One named code (e.g. SUMMER25)' }];

/** New codes for an offer: one named code (issue 30) or a batch of random ones, with the same limits. */
export function CouponBatchForm({ editor }: { editor: EditorRef }) {
  // The batch form stays on screen (hidden) while a code's History shows: moves on this page let through.
  useEditorLeaveGuard(editor, { samePage: 'lets-through' });
  const data = useSelector(editor, (s) => selectEditorData(s) as { offers?: Offer[]; generated?: number | null; created?: string | null } | null);
  const single = useSelector(editor, (s) => selectDraft(s).mode === 'single');
  const offers = data?.offers ?? [];
  const saved = data?.created ? MONETIZATION_MESSAGES.couponCreated(data.created) : MONETIZATION_MESSAGES.batchGenerated(data?.generated ?? 0);
  return (
    <EditorPanel editor={editor} title="New codes" canEdit saveLabel={single ? 'Create code' : 'Generate'} savedMessage={saved}>
      <SelectField editor={editor} field="mode" label="What to create" required disabled={false} options={MODES} />
      <SelectField editor={editor} field="offerId" label="Offer" required disabled={false} options={offers.map((o) => ({ value: o.id, label: o.name }))} />
      {single ? (
        <TextField editor={editor} field="code" label="Code" required disabled={false} />
      ) : (
        <div className={css.inline}>
          <NumberField editor={editor} field="count" label="How many codes" required disabled={false} />
          <TextField editor={editor} field="prefix" label="Prefix (optional)" disabled={false} />
        </div>
      )}
      <div className={css.inline}>
        <NumberField editor={editor} field="maxRedemptions" label="Redemptions in all (empty: no limit)" disabled={false} />
        <NumberField editor={editor} field="maxPerSubscriber" label="Per customer (1: once per customer)" required disabled={false} />
      </div>
      <TextField editor={editor} field="expiresAt" label="Expires" type="datetime-local" disabled={false} />
    </EditorPanel>
  );
}

/** One code's History beside the list, with the way back to the list (and the batch form). */
function CouponHistory({ history, coupon, onClose }: { history: PageHistoryRef; coupon: Coupon | undefined; onClose: () => void }) {
  const code = coupon?.code ?? 'this code';
  return (
    <section className={`${historyCss.editorColumn} ${couponsCss.historyColumn}`} aria-label={`History of ${code}`}>
      <div className={couponsCss.historyBar}>
        <span><code>{code}</code>{coupon ? ` · ${coupon.offerName}` : ''}</span>
        <Link to={ROUTE} search={{}} className={ui.button.secondary} onClick={onClose}>Close history</Link>
      </div>
      <HistoryPanel history={history} {...(coupon ? { version: coupon.version, names: { [coupon.offerId]: coupon.offerName } } : {})} />
    </section>
  );
}

export function CouponsPage() {
  const address = getRouteApi('/protected/monetization/coupon').useSearch();
  const historyOf = address.history;
  const canEdit = useCanEditMonetization();
  // The batch form is there for a writer only (a read level reads no offers for it).
  const page = usePageActor('coupons', {
    input: {
      // `?search=<code>` (issue 38: the audit log's link to a coupon) opens the list searched for it; its
      // status and page come from the address too, and every later change is written back.
      ...listStartOf(address, COUPON_STATUSES, ['status', 'offerId']), history: 'coupon', ...(canEdit ? { keepEditor: 'batch' } : {}), ...(historyOf ? { showHistory: historyOf } : {}),
    },
  });
  const rowHistory = useSelector(page, selectRowHistory);
  const shownId = useSelector(page, selectRowHistoryId);
  const list = useSelector(page, selectPageList);
  const shownCoupon = useSelector(list, (s) => selectListRows<Coupon>(s).find((c) => c.id === shownId));
  const query = useSelector(list, selectListQuery);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const running = useSelector(actions, selectActionRunning);
  const zone = useSiteTimeZone();
  const exporting = running?.name === COUPON_ACTIONS.exportCsv;
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Coupons</h1>
      <ActionOutcome actions={actions} />
      <div className={canEdit || rowHistory ? css.layout : css.listOnly}>
        <ListTable<Coupon>
          list={list} label="Coupons" statuses={COUPON_STATUS_WORDS} searchLabel="Search by code"
          tools={(
            <button type="button" className={ui.button.secondary} disabled={exporting}
              onClick={() => actions.send({
                type: 'action.request', name: COUPON_ACTIONS.exportCsv, label: 'coupons.csv',
                args: { search: query.search, status: query.filters.status ?? '', offerId: query.filters.offerId ?? '' },
              })}>
              {exporting ? 'Exporting…' : 'Export CSV'}
            </button>
          )}
          columns={[
            { title: 'Code', cell: (c) => <code className={css.nowrap}>{c.code}</code> },
            { title: 'Offer', cell: (c) => c.offerName },
            {
              title: 'Redeemed',
              cell: (c) => (
                <>
                  <div className={css.nowrap}>{`${c.redemptionCount}${c.maxRedemptions === null ? '' : ` / ${c.maxRedemptions}`}`}</div>
                  <div className={`${css.muted} ${css.nowrap}`}>{c.lastRedeemedAt ? `last ${formatDate(c.lastRedeemedAt, zone)}` : 'never'}</div>
                </>
              ),
            },
            { title: 'Per customer', cell: (c) => c.maxPerSubscriber },
            { title: 'Expires', cell: (c) => couponExpiryText(c.expiresAt, c.offerEndsAt ?? null, zone) },
            { title: 'Status', cell: (c) => statusWord(COUPON_STATUS_WORDS, c.status) },
            {
              title: 'Actions',
              cell: (c: Coupon) => {
                const next = c.status === 'disabled' ? 'active' : 'disabled';
                return (
                  <div className={couponsCss.rowActions}>
                    {canEdit && (
                      <button type="button" className={ui.button.ghost} disabled={running !== null} aria-label={`${next === 'disabled' ? 'Disable' : 'Enable'} ${c.code}`}
                        onClick={() => actions.send({ type: 'action.request', name: COUPON_ACTIONS.setStatus, args: { id: c.id, version: c.version, status: next }, label: c.code })}>
                        {next === 'disabled' ? 'Disable' : 'Enable'}
                      </button>
                    )}
                    <Link to={ROUTE} search={{ history: c.id }} className={ui.button.ghost} aria-label={`History of ${c.code}`}
                      onClick={() => page.send({ type: 'page.history', id: c.id })}>
                      History
                    </Link>
                  </div>
                );
              },
            },
          ]}
        />
        {rowHistory && <CouponHistory key={rowHistory.sessionId} history={rowHistory} coupon={shownCoupon} onClose={() => page.send({ type: 'page.closeHistory' })} />}
        {/* Hidden, not unmounted, while a History shows: its draft and its leave guard stay. */}
        {canEdit && editor && <div hidden={rowHistory !== undefined}><CouponBatchForm key={editor.sessionId} editor={editor} /></div>}
      </div>
    </div>
  );
}
