/**
 * The frame of the AppCMS editors: title, the network being edited (for per-network pages), the
 * note when there is nothing to edit (no network chosen), and a note for read-only roles. The
 * default network is edited like any other (issue 28: it is what "Copy from default" copies); its
 * page says so instead of comparing it with itself. The editor inside is keyed by network, so
 * choosing another network opens a fresh editor (and a fresh comparison with the default).
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { NetworkDataKind } from '../../../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { selectNetworkData, type NetworkSnapshot } from '../../../machines/network.machine';
import { useAppActor } from '../../app-actor';
import { page, pageTitle } from '../../theme/ui.css';
import * as css from './appcms.css';
import { useAppcmsScope } from './appcms-page';

export interface AppcmsScope {
  site: string;
  network: string;
  canEdit: boolean;
  /**
   * Changes when the `network` actor reads this network's data again after a change made elsewhere
   * (a copy from the default): the editor is keyed by it, so it opens afresh on the new data.
   */
  revision: string;
  /** The default network is edited: no comparison with the default (it is the copy source). */
  isDefault: boolean;
}

const revisionOf = (kind: NetworkDataKind | undefined) => (s: NetworkSnapshot): string => {
  if (!kind) return '';
  const updated = selectNetworkData(kind)(s)?.data?.updatedAt;
  return typeof updated === 'string' ? updated : '';
};

export function AppcmsFrame({ title, testId, perNetwork, dataKind, children }: {
  title: string;
  testId: string;
  perNetwork: boolean;
  /** The network data this page edits, whose re-reads open the editor afresh. */
  dataKind?: NetworkDataKind;
  children: (scope: AppcmsScope) => ReactNode;
}) {
  const { site, current, canEdit } = useAppcmsScope();
  const revision = useSelector(useAppActor('network'), revisionOf(dataKind));
  let body: ReactNode;
  if (!site) body = <p className={css.note}>{OWN_MESSAGES.networkLoadingData}</p>;
  else if (perNetwork && !current) body = <p className={css.note}>{MESSAGES.noNetworkSelected}</p>;
  else body = children({ site, network: perNetwork ? current?.identifier ?? '' : site, canEdit, revision, isDefault: perNetwork && current?.isDefault === true });
  return (
    <main className={page} data-testid={testId}>
      <h1 className={pageTitle}>{title}</h1>
      {perNetwork && current && <p className={css.subtitle}>Network: <strong data-testid="appcms-network">{current.name}</strong></p>}
      {perNetwork && current?.isDefault && <p className={css.subtitle} data-testid="default-network-note">{OWN_MESSAGES.networkDefaultEditing(current.name)}</p>}
      {!canEdit && <p className={css.subtitle} data-testid="appcms-read-only">You have read access to App CMS: every control is disabled.</p>}
      {body}
    </main>
  );
}
