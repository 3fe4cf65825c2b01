/** /admin/audit: who did what and when on this site, with filters (who, action, dates) and paging. */
import { useSelector } from '@xstate/react';
import {
  selectAuditDraft, selectAuditEntries, selectAuditError, selectAuditFilterError, selectAuditList, selectAuditLoading, selectAuditPaging,
  type AuditFilterField,
} from '../../../machines/staff-admin-audit.machine';
import { AUDIT_FILTER_ACTIONS } from '../../../common/admin-contract';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { usePageActor } from '../../page-actors';
import { button, errorText, input, label } from '../../theme/ui.css';
import * as css from './admin.css';

/** One line of what an entry changed: its target and the before/after of each changed key. */
function describe(detail: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof detail.targetUsername === 'string') parts.push(detail.targetUsername);
  const before = (detail.before ?? {}) as Record<string, unknown>;
  const after = (detail.after ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(after)) {
    const from = JSON.stringify(before[key] ?? null);
    const to = JSON.stringify(after[key]);
    if (from !== to) parts.push(`${key}: ${from} → ${to}`);
  }
  if (typeof detail.ip === 'string') parts.push(`from ${detail.ip}`);
  return parts.join(' · ');
}

export function AuditPage() {
  const actor = usePageActor('audit');
  const list = useSelector(actor, selectAuditList);
  const entries = useSelector(list, selectAuditEntries);
  const error = useSelector(list, selectAuditError);
  const loading = useSelector(list, selectAuditLoading);
  const paging = useSelector(list, selectAuditPaging);
  const draft = useSelector(actor, selectAuditDraft);
  const filterError = useSelector(actor, selectAuditFilterError);
  const set = (field: AuditFilterField) => (e: { target: { value: string } }) => actor.send({ type: 'audit.filter', field, value: e.target.value });

  return (
    <section aria-label="Audit log">
      <form className={css.toolbar} onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'audit.apply' }); }}>
        <label className={css.grow}>
          <span className={label}>Who</span>
          <input className={input} style={{ width: '100%' }} value={draft.who} placeholder="Name or e-mail" onChange={set('who')} />
        </label>
        <label>
          <span className={label}>Action</span>
          <select className={input} value={draft.action} onChange={set('action')} style={{ display: 'block' }}>
            <option value="">Any action</option>
            {AUDIT_FILTER_ACTIONS.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </label>
        <label>
          <span className={label}>From</span>
          <input className={input} type="date" value={draft.from} onChange={set('from')} style={{ display: 'block' }} />
        </label>
        <label>
          <span className={label}>To</span>
          <input className={input} type="date" value={draft.to} onChange={set('to')} style={{ display: 'block' }} />
        </label>
        <button type="submit" className={button.primary}>Apply</button>
        <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'audit.clear' })}>Clear</button>
      </form>
      {filterError && <p role="alert" className={errorText}>{filterError}</p>}
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'list.reload' })}>Retry</button>
        </div>
      )}
      {loading && <p className={css.muted}>Loading the audit log…</p>}
      {!error && (
        <div className={css.tableWrap}>
          <table className={css.table}>
            <thead>
              <tr><th className={css.th}>When</th><th className={css.th}>Who</th><th className={css.th}>Action</th><th className={css.th}>What</th></tr>
            </thead>
            <tbody>
              {!loading && entries.length === 0 && <tr><td className={css.td} colSpan={4}>{ADMIN_MESSAGES.noAudit}</td></tr>}
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className={css.td} style={{ whiteSpace: 'nowrap' }}>{new Date(e.at).toLocaleString()}</td>
                  <td className={css.td}>{e.actor?.username ?? 'System'}</td>
                  <td className={css.td}>{e.action}</td>
                  <td className={css.td}>{describe(e.detail)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={css.pager}>
        <span className={css.muted}>Page {paging.page} of {paging.pages} · {paging.total} entries</span>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.previousOffset === null}
          onClick={() => paging.previousOffset !== null && actor.send({ type: 'list.page', offset: paging.previousOffset })}>Previous</button>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.nextOffset === null}
          onClick={() => paging.nextOffset !== null && actor.send({ type: 'list.page', offset: paging.nextOffset })}>Next</button>
      </div>
    </section>
  );
}
