/** Monetization › Offers: percentage or fixed discounts on chosen plans, with a period, eligibility and status. */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { formatDate } from '../../../common/display-format';
import { CURRENCIES, DISCOUNT_DURATIONS, ELIGIBILITIES, OFFER_STATUSES, durationText, formatMoney } from '../../../common/monetization-rules';
import { OFFER_STATUS_WORDS, PLAN_STATUS_WORDS, statusWord } from '../../../common/status-words';
import { selectDraft, selectEditorData, selectEditorId } from '../../../machines/editor.machine';
import type { Offer, Plan } from '../../../common/monetization-contract';
import { NEW_RECORD_ID, selectPageEditor, selectPageHistory, selectPageList, type PageHistoryRef } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as ui from '../../theme/ui.css';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import * as historyCss from '../shared/history.css';
import { EditorPanel } from './EditorPanel';
import { ChoiceList, NumberField, SelectField, TextField } from './EditorFields';
import { ListTable } from './ListTable';
import * as css from './monetization.css';
import { listStartOf, useCanEditMonetization, useOpenFromAddress, type EditorRef } from './page-refs';

const ROUTE = '/monetization/offers';
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));
const words = (map: Readonly<Record<string, string>>) => Object.entries(map).map(([value, label]) => ({ value, label }));
const ELIGIBILITY_LABELS = { new: 'New subscribers only', everyone: 'Everyone' } as const;
const DURATION_LABELS = { once: 'Once (the first payment)', repeating: 'Several months', forever: 'Forever (every payment)' } as const;

export function OfferEditor({ editor, canEdit }: { editor: EditorRef; canEdit: boolean }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  const plans = useSelector(editor, (s) => (selectEditorData(s) as { plans?: Plan[] } | null)?.plans ?? []);
  const fixed = useSelector(editor, (s) => selectDraft(s).discountType === 'fixed');
  const repeating = useSelector(editor, (s) => selectDraft(s).duration === 'repeating');
  // An archived plan cannot be chosen (issue 30); one the offer already has stays listed so it can be removed.
  const chosen = useSelector(editor, (s) => selectDraft(s).planIds as readonly string[] | undefined);
  const offered = plans.filter((p) => p.status !== 'archived' || (chosen ?? []).includes(p.id));
  const disabled = !canEdit;
  return (
    <EditorPanel editor={editor} title={creating ? 'New offer' : 'Edit offer'} canEdit={canEdit}>
      <TextField editor={editor} field="name" label="Name" required disabled={disabled} />
      <div className={css.inline}>
        <SelectField editor={editor} field="discountType" label="Discount" required disabled={disabled}
          options={[{ value: 'percent', label: 'Percentage' }, { value: 'fixed', label: 'Fixed amount' }]} />
        <NumberField editor={editor} field="discountValue" label={fixed ? 'Amount off' : 'Percent off'} required disabled={disabled} step={fixed ? 'any' : '1'} />
        {fixed && <SelectField editor={editor} field="currency" label="Currency" required disabled={disabled} options={options(CURRENCIES)} />}
      </div>
      <ChoiceList editor={editor} field="planIds" label="Plans it applies to" required disabled={disabled}
        options={offered.map((p) => ({ value: p.id, label: p.status === 'archived' ? `${p.name} (${PLAN_STATUS_WORDS.archived})` : p.name }))} />
      <div className={css.inline}>
        <SelectField editor={editor} field="duration" label="Discount applies" required disabled={disabled}
          options={DISCOUNT_DURATIONS.map((d) => ({ value: d, label: DURATION_LABELS[d] }))} />
        {repeating && <NumberField editor={editor} field="durationMonths" label="Months" required disabled={disabled} />}
      </div>
      <div className={css.inline}>
        <TextField editor={editor} field="startsAt" label="Starts" type="datetime-local" required disabled={disabled} />
        <TextField editor={editor} field="endsAt" label="Ends" type="datetime-local" disabled={disabled} />
      </div>
      <div className={css.inline}>
        <SelectField editor={editor} field="eligibility" label="Who may use it" required disabled={disabled}
          options={ELIGIBILITIES.map((e) => ({ value: e, label: ELIGIBILITY_LABELS[e] }))} />
        <SelectField editor={editor} field="status" label="Status" required disabled={disabled} options={words(OFFER_STATUS_WORDS)} />
      </div>
    </EditorPanel>
  );
}

/** The offer's History, its plans named (the editor read them) instead of counted. */
function OfferHistory({ history, editor }: { history: PageHistoryRef; editor: EditorRef }) {
  const plans = useSelector(editor, (s) => (selectEditorData(s) as { plans?: Plan[] } | null)?.plans);
  const names = useMemo(() => Object.fromEntries((plans ?? []).map((p) => [p.id, p.name])), [plans]);
  return <EditorHistoryPanel history={history} editor={editor} names={names} />;
}

export function OffersPage() {
  const address = getRouteApi('/protected/monetization/offers').useSearch();
  const { edit } = address;
  const canEdit = useCanEditMonetization();
  const page = usePageActor('offers', { input: { ...listStartOf(address, OFFER_STATUSES), history: 'offer', ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  const list = useSelector(page, selectPageList);
  const editor = useSelector(page, selectPageEditor);
  const history = useSelector(page, selectPageHistory);
  const zone = useSiteTimeZone();
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Offers</h1>
      <div className={editor ? css.layout : css.listOnly}>
        <ListTable<Offer>
          list={list} label="Offers" statuses={OFFER_STATUS_WORDS}
          tools={canEdit && <Link to={ROUTE} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>New offer</Link>}
          columns={[
            { title: 'Name', cell: (o) => <Link to={ROUTE} search={{ edit: o.id }} className={css.rowLink}>{o.name}</Link> },
            { title: 'Discount', cell: (o) => (o.discountType === 'percent' ? `${o.discountValue}%` : `${o.currency} ${formatMoney(o.discountValue, o.currency ?? 'USD')}`) },
            { title: 'Plans', cell: (o) => o.planIds.length },
            { title: 'Applies', cell: (o) => durationText(o.duration, o.durationMonths) },
            { title: 'Period', cell: (o) => `${formatDate(o.startsAt, zone)} – ${o.endsAt ? formatDate(o.endsAt, zone) : 'open'}` },
            { title: 'Status', cell: (o) => statusWord(OFFER_STATUS_WORDS, o.status) },
          ]}
        />
        {editor && (
          <div className={historyCss.editorColumn}>
            <OfferEditor key={editor.sessionId} editor={editor} canEdit={canEdit} />
            {history && <OfferHistory key={history.sessionId} history={history} editor={editor} />}
          </div>
        )}
      </div>
    </div>
  );
}
