/** Monetization › Plans: the site's plans with search, status filter and paging; create, edit, duplicate, delete (archived when in use). */
import { getRouteApi, Link } from '@tanstack/react-router';
import { BILLING_PERIODS, CURRENCIES, MONETIZATION_MESSAGES, PLAN_STATUSES, formatMoney } from '../../../common/monetization-rules';
import { PLAN_ACTIONS, type Plan } from '../../../common/monetization-contract';
import { selectDraft, selectEditorId } from '../../../machines/editor.machine';
import { NEW_RECORD_ID, selectPageActions, selectPageEditor, selectPageHistory, selectPageList } from '../../../machines/list-page.machine';
import { selectActionPending, selectActionRunning } from '../../../machines/page-action.machine';
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
import { useCanEditMonetization, useOpenFromAddress, type EditorRef } from './page-refs';

const ROUTE = '/monetization/plans';
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

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

export function PlanEditor({ editor, canEdit }: { editor: EditorRef; canEdit: boolean }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  const disabled = !canEdit;
  return (
    <EditorPanel editor={editor} title={creating ? 'New plan' : 'Edit plan'} canEdit={canEdit}>
      <TextField editor={editor} field="name" label="Name" required disabled={disabled} />
      <TextField editor={editor} field="description" label="Description" multiline disabled={disabled} />
      <PriceRows editor={editor} disabled={disabled} />
      <div className={css.inline}>
        <SelectField editor={editor} field="billingPeriod" label="Billing period" required disabled={disabled} options={options(BILLING_PERIODS)} />
        <NumberField editor={editor} field="trialDays" label="Trial days" required disabled={disabled} />
        <NumberField editor={editor} field="deviceLimit" label="Device limit" required disabled={disabled} />
        <SelectField editor={editor} field="status" label="Status" required disabled={disabled} options={options(PLAN_STATUSES)} />
      </div>
    </EditorPanel>
  );
}

export function PlansPage() {
  const { edit } = getRouteApi('/protected/monetization/plans').useSearch();
  const canEdit = useCanEditMonetization();
  const page = usePageActor('plans', { input: { filters: { status: '' }, confirm: [PLAN_ACTIONS.delete], history: 'plan', ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  const list = useSelector(page, selectPageList);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const history = useSelector(page, selectPageHistory);
  const pending = useSelector(actions, selectActionPending);
  const running = useSelector(actions, selectActionRunning);
  const request = (name: string, p: Plan) => actions.send({ type: 'action.request', name, args: { id: p.id, version: p.version }, label: p.name });
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Plans</h1>
      <ActionOutcome actions={actions} />
      <div className={editor ? css.layout : css.listOnly}>
        <ListTable<Plan>
          list={list} label="Plans" statuses={PLAN_STATUSES}
          tools={canEdit && <Link to={ROUTE} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>New plan</Link>}
          columns={[
            { title: 'Name', cell: (p) => <Link to={ROUTE} search={{ edit: p.id }} className={css.rowLink}>{p.name}</Link> },
            { title: 'Prices', cell: (p) => p.prices.map((x) => <div key={x.currency} className={css.nowrap}>{`${x.currency} ${formatMoney(x.amount, x.currency)}`}</div>) },
            { title: 'Period', cell: (p) => p.billingPeriod },
            { title: 'Status', cell: (p) => p.status },
            { title: 'Subscriptions', cell: (p) => p.subscriptionCount },
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
        {editor && (
          <div className={historyCss.editorColumn}>
            <PlanEditor key={editor.sessionId} editor={editor} canEdit={canEdit} />
            {history && <EditorHistoryPanel key={history.sessionId} history={history} editor={editor} />}
          </div>
        )}
      </div>
      <Modal
        open={pending !== null} title="Delete plan" negativeLabel="Cancel" positiveLabel="Delete"
        onNegative={() => actions.send({ type: 'action.cancel' })} onPositive={() => actions.send({ type: 'action.confirm' })}
      >
        {pending && MONETIZATION_MESSAGES.deleteConfirm(pending.label)}
      </Modal>
    </div>
  );
}
