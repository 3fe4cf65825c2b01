/** Monetization › Plans: the site's plans with search, status filter and paging; create, edit, duplicate, delete (archived when in use). */
import { getRouteApi, Link } from '@tanstack/react-router';
import { BILLING_PERIODS, CURRENCIES, MONETIZATION_MESSAGES, PLAN_STATUSES, formatMoney } from '../../../common/monetization-rules';
import { PLAN_STATUS_WORDS, statusWord } from '../../../common/status-words';
import { PLAN_ACTIONS, type Plan } from '../../../common/monetization-contract';
import { PLAN_FIGURES } from '../../../common/plan-figures';
import { selectDraft, selectEditorData, selectEditorId, selectStoredValues } from '../../../machines/editor.machine';
import { selectListRows } from '../../../machines/list.machine';
import { NEW_RECORD_ID, selectPageActions, selectPageEditor, selectPageHistory, selectPageList } from '../../../machines/list-page.machine';
import { selectActionPending, selectActionRunning } from '../../../machines/page-action.machine';
import type { PageActionsRef, PageListRef } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import { useSelector } from '@xstate/react';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import * as historyCss from '../shared/history.css';
import { Modal } from '../shared/Modal';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { ActionOutcome } from './ActionOutcome';
import { EditorPanel } from './EditorPanel';
import { NumberField, SelectField, TextField } from './EditorFields';
import { ListTable } from './ListTable';
import * as css from './monetization.css';
import { listStartOf, useCanEditMonetization, useOpenFromAddress, type EditorRef } from './page-refs';

const ROUTE = '/monetization/plans';
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));
const words = (map: Readonly<Record<string, string>>) => Object.entries(map).map(([value, label]) => ({ value, label }));

function PriceRows({ editor, disabled }: { editor: EditorRef; disabled: boolean }) {
  const currencies = useSelector(editor, (s) => selectDraft(s).priceCurrencies as readonly string[] ?? []);
  const amounts = useSelector(editor, (s) => selectDraft(s).priceAmounts as readonly string[] ?? []);
  const errors = useSelector(editor, (s) => s.context.fieldErrors);
  const set = (field: 'priceCurrencies' | 'priceAmounts', list: readonly string[], i: number, v: string) =>
    editor.send({ type: 'editor.change', field, value: list.map((x, j) => (j === i ? v : x)) });
  return (
    <fieldset style={{ border: 0, padding: 0 }}>
      <legend className={ui.label}>Prices<span className={css.required} aria-hidden>*</span></legend>
      {currencies.map((currency, i) => (
        <div key={i} className={css.inline}>
          <select className={ui.input} aria-label={`Currency ${i + 1}`} value={currency} disabled={disabled} onChange={(e) => set('priceCurrencies', currencies, i, e.target.value)}>
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
          <input
            className={`${ui.input} ${css.number}`} type="number" min={0} step="any" inputMode="decimal" aria-label={`Amount ${i + 1}`} required
            value={amounts[i] ?? ''} disabled={disabled} aria-invalid={errors[`prices.${i}.amount`] ? true : undefined}
            onChange={(e) => set('priceAmounts', amounts, i, e.target.value)}
          />
          {!disabled && currencies.length > 1 && (
            <button type="button" className={ui.button.ghost} aria-label={`Remove price ${i + 1}`} onClick={() => {
              editor.send({ type: 'editor.change', field: 'priceCurrencies', value: currencies.filter((_, j) => j !== i) });
              editor.send({ type: 'editor.change', field: 'priceAmounts', value: amounts.filter((_, j) => j !== i) });
            }}>✕</button>
          )}
          {(errors[`prices.${i}.currency`] || errors[`prices.${i}.amount`]) && (
            <p className={css.fieldError} role="alert">{errors[`prices.${i}.currency`] ?? errors[`prices.${i}.amount`]}</p>
          )}
        </div>
      ))}
      {errors.prices && <p className={css.fieldError} role="alert">{errors.prices}</p>}
      {!disabled && (
        <button type="button" className={ui.button.ghost} onClick={() => {
          const next = CURRENCIES.find((c) => !currencies.includes(c)) ?? 'USD';
          editor.send({ type: 'editor.change', field: 'priceCurrencies', value: [...currencies, next] });
          editor.send({ type: 'editor.change', field: 'priceAmounts', value: [...amounts, ''] });
        }}>Add a price</button>
      )}
    </fieldset>
  );
}

type PriceCounts = Pick<Plan, 'payingSubscriptionCount' | 'oldPriceSubscriptionCount' | 'movingAtRenewalCount'>;

/**
 * Price versions (issue 30): before a new price is saved, how many paying subscribers stay on the
 * current one; after, how many pay an earlier price, and the confirmed "Move existing subscribers at
 * their next renewal". The counts are the list row's (read again after a save or an action), else the
 * editor's record.
 */
function PriceVersionNote({ editor, list, actions, canEdit }: { editor: EditorRef; list?: PageListRef; actions?: PageActionsRef; canEdit: boolean }) {
  const id = useSelector(editor, selectEditorId);
  const repriced = useSelector(editor, (s) => {
    const draft = selectDraft(s);
    const stored = selectStoredValues(s);
    return JSON.stringify([draft.priceCurrencies, draft.priceAmounts]) !== JSON.stringify([stored.priceCurrencies, stored.priceAmounts]);
  });
  const version = useSelector(editor, (s) => s.context.version);
  const name = useSelector(editor, (s) => String(selectStoredValues(s).name ?? ''));
  const fromRecord = useSelector(editor, (s) => selectEditorData(s) as Partial<PriceCounts> | null);
  const fromList = useSelector(list, (s) => (s ? selectListRows<Plan>(s).find((p) => p.id === id) : undefined));
  if (id === NEW_RECORD_ID) return null;
  const counts = fromList ?? fromRecord;
  const paying = counts?.payingSubscriptionCount ?? 0;
  const old = counts?.oldPriceSubscriptionCount ?? 0;
  const moving = counts?.movingAtRenewalCount ?? 0;
  if (!repriced && old === 0 && moving === 0) return null;
  return (
    <div className={css.banner} data-testid="price-versions">
      {repriced && <p role="status">{MONETIZATION_MESSAGES.priceChangeKeeps(paying)}</p>}
      {old > 0 && <p>{MONETIZATION_MESSAGES.oldPriceSubscribers(old)}</p>}
      {moving > 0 && <p>{MONETIZATION_MESSAGES.movingAtRenewal(moving)}</p>}
      <p className={css.muted}>{PLAN_FIGURES.liveSubscriptions.label}: {PLAN_FIGURES.liveSubscriptions.help}</p>
      {canEdit && actions && old > 0 && !repriced && (
        <button type="button" className={ui.button.secondary}
          onClick={() => actions.send({ type: 'action.request', name: PLAN_ACTIONS.moveAtRenewal, args: { id, version, count: old }, label: name })}>
          {MONETIZATION_MESSAGES.moveAtRenewalLabel}
        </button>
      )}
    </div>
  );
}

export function PlanEditor({ editor, canEdit, list, actions }: { editor: EditorRef; canEdit: boolean; list?: PageListRef; actions?: PageActionsRef }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  const disabled = !canEdit;
  return (
    <EditorPanel editor={editor} title={creating ? 'New plan' : 'Edit plan'} canEdit={canEdit}>
      <TextField editor={editor} field="name" label="Name" required disabled={disabled} />
      <TextField editor={editor} field="description" label="Description" multiline disabled={disabled} />
      <PriceRows editor={editor} disabled={disabled} />
      <PriceVersionNote editor={editor} list={list} actions={actions} canEdit={canEdit} />
      <div className={css.inline}>
        <SelectField editor={editor} field="billingPeriod" label="Billing period" required disabled={disabled} options={options(BILLING_PERIODS)} />
        <NumberField editor={editor} field="trialDays" label="Trial days" required disabled={disabled} />
        <NumberField editor={editor} field="deviceLimit" label="Device limit" required disabled={disabled} />
        <SelectField editor={editor} field="status" label="Status" required disabled={disabled} options={words(PLAN_STATUS_WORDS)} />
      </div>
    </EditorPanel>
  );
}

/** Issue 38: what each count column counts, one definition each (common/plan-figures.ts), beside the list. */
const PLAN_COUNT_COLUMNS = [PLAN_FIGURES.subscriptionsAllTime, PLAN_FIGURES.liveSubscriptions, PLAN_FIGURES.payingSubscribers, PLAN_FIGURES.earlierPrice];

function PlanCountDefinitions() {
  return (
    <div className={css.muted} data-testid="plan-count-definitions">
      <p>What each count counts:</p>
      <dl>
        {PLAN_COUNT_COLUMNS.map((f) => (
          <div key={f.label}><dt><strong>{f.label}</strong></dt><dd>{f.help}</dd></div>
        ))}
      </dl>
    </div>
  );
}

export function PlansPage() {
  const address = getRouteApi('/protected/monetization/plans').useSearch();
  const { edit } = address;
  const canEdit = useCanEditMonetization();
  const page = usePageActor('plans', { input: { ...listStartOf(address, PLAN_STATUSES), confirm: [PLAN_ACTIONS.delete, PLAN_ACTIONS.moveAtRenewal], history: 'plan', ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  const list = useSelector(page, selectPageList);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const history = useSelector(page, selectPageHistory);
  const pending = useSelector(actions, selectActionPending);
  const running = useSelector(actions, selectActionRunning);
  const moving = pending?.name === PLAN_ACTIONS.moveAtRenewal;
  const request = (name: string, p: Plan) => actions.send({ type: 'action.request', name, args: { id: p.id, version: p.version }, label: p.name });
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Plans</h1>
      <ActionOutcome actions={actions} />
      <div className={editor ? css.layout : css.listOnly}>
        <div>
          <ListTable<Plan>
            list={list} label="Plans" statuses={PLAN_STATUS_WORDS}
            tools={canEdit && <Link to={ROUTE} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>New plan</Link>}
            columns={[
              { title: 'Name', cell: (p) => <Link to={ROUTE} search={{ edit: p.id }} className={css.rowLink}>{p.name}</Link> },
              { title: 'Prices', cell: (p) => p.prices.map((x) => <div key={x.currency} className={css.nowrap}>{`${x.currency} ${formatMoney(x.amount, x.currency)}`}</div>) },
              { title: 'Period', cell: (p) => p.billingPeriod },
              { title: 'Status', cell: (p) => statusWord(PLAN_STATUS_WORDS, p.status) },
              { title: PLAN_FIGURES.subscriptionsAllTime.label, cell: (p) => p.subscriptionCount },
              { title: PLAN_FIGURES.liveSubscriptions.label, cell: (p) => p.payingSubscriptionCount },
              { title: PLAN_FIGURES.payingSubscribers.label, cell: (p) => p.payingSubscriberCount },
              { title: PLAN_FIGURES.earlierPrice.label, cell: (p) => p.oldPriceSubscriptionCount },
              ...(canEdit ? [{
                title: 'Actions',
                cell: (p: Plan) => (
                  <span className={css.rowActions}>
                    <button type="button" className={ui.button.ghost} disabled={running !== null} onClick={() => request(PLAN_ACTIONS.duplicate, p)}>Duplicate</button>
                    <button type="button" className={ui.button.ghost} disabled={running !== null} onClick={() => request(PLAN_ACTIONS.delete, p)}>Delete</button>
                  </span>
                ),
              }] : []),
            ]}
          />
          <PlanCountDefinitions />
        </div>
        {editor && (
          <div className={historyCss.editorColumn}>
            <PlanEditor key={editor.sessionId} editor={editor} canEdit={canEdit} list={list} actions={actions} />
            {history && <EditorHistoryPanel key={history.sessionId} history={history} editor={editor} />}
          </div>
        )}
      </div>
      <Modal
        open={pending !== null} title={moving ? MONETIZATION_MESSAGES.moveAtRenewalLabel : 'Delete plan'} negativeLabel="Cancel"
        positiveLabel={moving ? 'Move at next renewal' : 'Delete'}
        onNegative={() => actions.send({ type: 'action.cancel' })} onPositive={() => actions.send({ type: 'action.confirm' })}
      >
        {pending && (moving ? MONETIZATION_MESSAGES.moveAtRenewalConfirm(pending.label, Number(pending.args.count)) : MONETIZATION_MESSAGES.deleteConfirm(pending.label))}
      </Modal>
    </div>
  );
}
