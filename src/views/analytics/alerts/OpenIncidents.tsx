/**
 * Open incidents outside the Alerts page (issue 41): the header's count for Dashboard 360 users (read
 * every 30 seconds while the page is visible: machines/qoe-alert-count.machine.ts), linking to the
 * Alerts page, and the Dashboard overview's list of open incidents.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectOpenIncidentCount } from '../../../../machines/qoe-alert-count.machine';
import { selectAlertsContext, selectAlertsPhase } from '../../../../machines/qoe-alerts.machine';
import { QOE_ALERT_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { usePageActor } from '../../../page-actors';
import { IncidentItem } from './AlertsPage';
import * as css from './alerts.css';
import { useHasPageLogic } from './provided';

/** The header's count: shown only while incidents are open (nothing to read otherwise). */
export function OpenIncidentsBadge() {
  return useHasPageLogic('qoeAlertCount') ? <OpenIncidentsCount /> : null;
}

function OpenIncidentsCount() {
  const actor = usePageActor('qoeAlertCount');
  const open = useSelector(actor, selectOpenIncidentCount);
  if (!open) return null;
  return (
    <Link to="/analytics/alerts" className={css.headerCount} data-testid="open-incidents-count" title={M.headerCount(open)}>
      <span aria-hidden>⚠</span> {M.headerCount(open)}
    </Link>
  );
}

/** The Dashboard overview's open incidents (or that none is), with the ways to Alerts and Saved views. */
export function OpenIncidentsPanel() {
  return useHasPageLogic('qoeAlerts') ? <OverviewIncidents /> : null;
}

function OverviewIncidents() {
  const actor = usePageActor('qoeAlerts', { input: { canEdit: false, openOnly: true } });
  const phase = useSelector(actor, selectAlertsPhase);
  const { open } = useSelector(actor, selectAlertsContext);
  const shown = phase !== 'loading' && phase !== 'failed' && open.length > 0;
  return (
    <section className={css.section} aria-labelledby="overview-open-incidents" style={{ marginBottom: '1rem' }}>
      <div className={css.sectionHead}>
        <h2 id="overview-open-incidents" className={css.sectionTitle}>{shown ? `${M.overviewTitle} (${open.length})` : M.headerNone}</h2>
        <span className={css.actions}>
          <Link to="/analytics/alerts">{M.overviewAll}</Link>
          <Link to="/analytics/saved">{M.overviewSaved}</Link>
        </span>
      </div>
      {shown && <ul className={css.list} aria-label={M.overviewTitle}>{open.map((i) => <IncidentItem key={i.id} incident={i} />)}</ul>}
    </section>
  );
}
