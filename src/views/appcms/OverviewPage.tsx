/**
 * AppCMS overview (/appcms, spec §2.7 lists only the sub-pages; this index is ours): a card per section,
 * Template, Brand, Settings, Devices and Service, each with its current data in one line and a link to
 * its editor. Brand, Settings and Devices are the current network's (chosen in the header); Template and
 * Service are the site's. Read with the editors' own calls (appcmsOverviewFetch) through a list actor.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { formatDateTime } from '../../../common/display-format';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { selectListError, selectListIsLoading, selectListRows } from '../../../machines/list.machine';
import { APPCMS_OVERVIEW_TEXT, type AppcmsOverviewRow } from '../../../common/appcms';
import { usePageActor } from '../../page-actors';
import { APPCMS_PAGES } from '../../config';
import { page, pageTitle } from '../../theme/ui.css';
import * as css from './appcms.css';
import { useAppcmsScope } from './appcms-page';
import { useSiteTimeZone } from '../shared/use-site-time-zone';

const PER_NETWORK = new Set(['brand', 'settings', 'devices']);
/** The brand's logo, or a word where there is none or it does not load (an address the browser cannot reach). */
function LogoThumb({ url }: { url: string | undefined }) {
  const [broken, setBroken] = useState(false);
  if (!url) return <span className={css.overviewNoLogo}>No logo</span>;
  if (broken) return <span className={css.overviewNoLogo} title={url}>Logo not reachable</span>;
  return <img className={css.overviewLogo} src={url} alt="Logo" onError={() => setBroken(true)} />;
}

/** The one line of a section's card. */
function summaryOf(row: AppcmsOverviewRow, zone: string): ReactNode {
  switch (row.id) {
    case 'template':
      return <>Page template: <strong>{row.templateName}</strong></>;
    case 'brand':
      return (
        <span className={css.overviewBrand}>
          <LogoThumb url={row.logoUrl} />
          {(row.colours ?? []).map((c) => (
            <span key={c.label} className={css.overviewColour} title={`${c.label} ${c.value}`}>
              <span className={css.swatch} style={{ background: c.value }} aria-hidden />
              <span className={css.visuallyHidden}>{c.label} </span><code>{c.value}</code>
            </span>
          ))}
        </span>
      );
    case 'settings':
      // The change's number is its History's ("#23"), the one numbering of every change (issue 38).
      return row.seq != null
        ? <>{APPCMS_OVERVIEW_TEXT.settingsChanged(row.seq)}, {row.createdBy ? <>{APPCMS_OVERVIEW_TEXT.savedBy} <strong>{row.createdBy}</strong></> : APPCMS_OVERVIEW_TEXT.bySystem}{row.createdAt ? `, ${formatDateTime(row.createdAt, zone)}` : ''}</>
        : <>{APPCMS_OVERVIEW_TEXT.settingsUnchanged}</>;
    case 'devices':
      return (row.enabled ?? []).length === 0
        ? <>No platform enabled (of {row.total})</>
        : <><strong>{row.enabled!.length} of {row.total}</strong> platforms enabled: {row.enabled!.join(', ')}</>;
    case 'service':
      return <><strong>{row.serviceName}</strong> · {row.serviceType} · {row.domainName}</>;
  }
}

function Overview({ site, network }: { site: string; network: string }) {
  const list = usePageActor('appcmsOverview', { input: { filters: { site, network }, limit: 10 } });
  const rows = useSelector(list, (s) => selectListRows<AppcmsOverviewRow>(s));
  const loading = useSelector(list, selectListIsLoading);
  const error = useSelector(list, selectListError);
  const zone = useSiteTimeZone();
  return (
    <div className={css.grid} aria-busy={loading}>
      {APPCMS_PAGES.map((p) => {
        const id = p.path.replace('/appcms/', '');
        const row = rows.find((r) => r.id === id);
        let line: ReactNode;
        if (PER_NETWORK.has(id) && !network) line = MESSAGES.noNetworkSelected;
        else if (row?.error) line = <span className={css.contrastLow}>Could not be read: {row.error}</span>;
        else if (row) line = summaryOf(row, zone);
        else if (error) line = <span className={css.contrastLow}>{error}</span>;
        else line = OWN_MESSAGES.networkLoadingData;
        return (
          <section key={p.path} className={css.card} aria-labelledby={`overview-${id}`} data-testid={`overview-${id}`}>
            <h2 className={css.cardTitle} id={`overview-${id}`}>{p.title}</h2>
            <p className={css.overviewLine}>{line}</p>
            <Link to={p.path} className={css.overviewLink}>Open {p.title}</Link>
          </section>
        );
      })}
    </div>
  );
}

export function AppcmsOverviewPage() {
  const { site, current } = useAppcmsScope();
  const network = current?.identifier ?? '';
  return (
    <main className={page} data-testid="appcms-overview">
      <h1 className={pageTitle}>AppCMS</h1>
      {current && <p className={css.subtitle}>Network: <strong data-testid="appcms-network">{current.name}</strong>{current.isDefault ? ' (default network)' : ''}</p>}
      {site
        ? <Overview key={`${site}:${network}`} site={site} network={network} />
        : <p className={css.note}>{OWN_MESSAGES.networkLoadingData}</p>}
    </main>
  );
}
