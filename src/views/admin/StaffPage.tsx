/**
 * /admin: the staff of the caller's site. Admin write/contributor see the write controls; Admin read
 * sees the same table without them (the server refuses writes anyway).
 */
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import {
  canResetSecondFactorOf, selectAccess, selectCanEdit, selectIsLoading, selectListError, selectNotice, selectPaging, selectSearch, selectSelfId, selectStaff,
} from '../../../machines/staff-admin.machine';
import { AREA_NAMES } from '../../../common/constants';
import { validateListSearch } from '../../../common/list-search';
import { formatDateTime } from '../../../common/display-format';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { STAFF_HISTORY_TEXT } from '../../../common/staff-revision-words';
import { usePageActor } from '../../page-actors';
import { button, errorText, input, label } from '../../theme/ui.css';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './admin.css';
import { SecondFactorRuleControl } from './SecondFactorRuleControl';
import { StaffDialogs } from './StaffDialogs';
import { StaffPageContext, useStaffList, useStaffPage, useStaffSelector } from './staff-admin-context';

/** The /admin route (its search typed by validateListSearch in the router). */
const staffRoute = getRouteApi('/protected/admin/');

export function StaffPage() {
  // The list opens searched for the address's text (issue 38: the audit log links to an account so);
  // the machine writes each new search back.
  const search = staffRoute.useSearch({ select: validateListSearch });
  const [start] = useState(() => ({ search: search.search ?? '' }));
  const page = usePageActor('staff', { input: start });
  return (
    <StaffPageContext.Provider value={page}>
      <StaffView />
    </StaffPageContext.Provider>
  );
}

/** Last seen in the console's one date format, in the site's zone ('—' when never). */
const formatWhen = (iso: string | null, zone: string): string => formatDateTime(iso, zone);

function StaffView() {
  const actor = useStaffPage();
  const zone = useSiteTimeZone();
  const list = useStaffList();
  const staff = useSelector(list, selectStaff);
  const loading = useSelector(list, selectIsLoading);
  const error = useSelector(list, selectListError);
  const paging = useSelector(list, selectPaging);
  const search = useSelector(list, selectSearch);
  const canEdit = useStaffSelector(selectCanEdit);
  const selfId = useStaffSelector(selectSelfId);
  const access = useStaffSelector(selectAccess);
  const notice = useStaffSelector(selectNotice);

  return (
    <section aria-label="Staff">
      {!canEdit && !loading && !error && <p className={css.muted}>{ADMIN_MESSAGES.noEditRole}</p>}
      {notice && (
        <div role={notice.severity === 'error' ? 'alert' : 'status'} className={`${css.notice} ${notice.severity === 'error' ? css.failure : css.success}`}>
          <span>{notice.text}</span>
          <button type="button" className={`${button.ghost} ${css.small}`} onClick={() => actor.send({ type: 'notice.dismiss' })}>Dismiss</button>
        </div>
      )}
      <div className={css.toolbar}>
        <label className={css.grow}>
          <span className={label}>Search staff</span>
          <input className={input} style={{ width: '100%' }} type="search" value={search} placeholder="Name or e-mail"
            onChange={(e) => actor.send({ type: 'list.search', search: e.target.value })} />
        </label>
        {canEdit && (
          <button type="button" className={button.primary} onClick={() => actor.send({ type: 'staff.create' })}>New account</button>
        )}
      </div>
      <SecondFactorRuleControl />
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'list.reload' })}>Retry</button>
        </div>
      )}
      {loading && <p className={css.muted}>Loading staff…</p>}
      {!loading && !error && (
        <div className={css.tableWrap}>
          <table className={css.table}>
            <thead>
              <tr>
                <th className={css.th}>Name</th>
                <th className={css.th}>Roles</th>
                <th className={css.th}>2FA</th>
                <th className={css.th}>Status</th>
                <th className={css.th}>Last seen</th>
                <th className={css.th}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {staff.length === 0 && <tr><td className={css.td} colSpan={6}>{ADMIN_MESSAGES.noStaff}</td></tr>}
              {staff.map((m) => (
                <tr key={m.id}>
                  <td className={css.td}>
                    <div>{m.displayName}</div>
                    <div className={css.muted}>{m.username}</div>
                  </td>
                  <td className={css.td}>
                    {AREA_NAMES.filter((area) => m.roles[area]).map((area) => (
                      <span key={area} className={css.badge}>{area}: {m.roles[area]}</span>
                    ))}
                    {AREA_NAMES.every((area) => !m.roles[area]) && <span className={css.muted}>No area</span>}
                  </td>
                  <td className={css.td}>{m.twoFactorOnLogin ? 'On' : 'Off'}</td>
                  <td className={css.td}>{m.disabled ? 'Disabled' : 'Active'}</td>
                  <td className={css.td}>
                    <div>{formatWhen(m.lastSeenAt, zone)}</div>
                    <div className={css.muted}>{m.activeSessions} active {m.activeSessions === 1 ? 'session' : 'sessions'}</div>
                  </td>
                  <td className={css.td}>
                    <div className={css.rowActions}>
                      <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`Sessions of ${m.displayName}`}
                        onClick={() => actor.send({ type: 'staff.sessions', id: m.id })}>Sessions</button>
                      <button type="button" className={`${button.ghost} ${css.small}`} aria-label={STAFF_HISTORY_TEXT.rowActionLabel(m.displayName)}
                        onClick={() => actor.send({ type: 'staff.history', id: m.id })}>{STAFF_HISTORY_TEXT.rowAction}</button>
                      {canEdit && (
                        <>
                          <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`Edit ${m.displayName}`}
                            onClick={() => actor.send({ type: 'staff.edit', id: m.id })}>Edit</button>
                          {m.id !== selfId && (
                            <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`${m.disabled ? 'Enable' : 'Disable'} ${m.displayName}`}
                              onClick={() => actor.send({ type: 'staff.confirm', kind: m.disabled ? 'enable' : 'disable', id: m.id })}>{m.disabled ? 'Enable' : 'Disable'}</button>
                          )}
                          <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`End sessions of ${m.displayName}`}
                            onClick={() => actor.send({ type: 'staff.confirm', kind: 'endSessions', id: m.id })}>End sessions</button>
                          <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`Reset password of ${m.displayName}`}
                            onClick={() => actor.send({ type: 'staff.confirm', kind: 'resetPassword', id: m.id })}>Reset password</button>
                          {canResetSecondFactorOf(access, m) && (
                            <button type="button" className={`${button.ghost} ${css.small}`} aria-label={`Reset second factor of ${m.displayName}`}
                              onClick={() => actor.send({ type: 'staff.confirm', kind: 'resetSecondFactor', id: m.id })}>Reset second factor</button>
                          )}
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={css.pager}>
        <span className={css.muted}>Page {paging.page} of {paging.pages} · {paging.total} accounts</span>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.previousOffset === null}
          onClick={() => paging.previousOffset !== null && actor.send({ type: 'list.page', offset: paging.previousOffset })}>Previous</button>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.nextOffset === null}
          onClick={() => paging.nextOffset !== null && actor.send({ type: 'list.page', offset: paging.nextOffset })}>Next</button>
      </div>
      <StaffDialogs />
    </section>
  );
}
