/**
 * The frame the AppCMS Brand, Settings and Devices pages share: the honest state of one kind of data
 * of the current network: loading, failed, the default network's explanation, or the data. The
 * `network` actor reads it (the route tells it which kind is on screen; it reads again when the
 * current network or its data changes).
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { selectCurrentNetwork, selectIsReading, selectNetworkData, type NetworkData } from '../../../machines/network.machine';
import { useAppActor } from '../../app-actor';
import type { NetworkDataKind } from '../../../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../../../common/messages';
import { page, pageTitle } from '../../theme/ui.css';
import * as css from './appcms.css';

const selectBrand = selectNetworkData('brand');
const selectSettings = selectNetworkData('settings');
const selectDevices = selectNetworkData('device');
const SELECTORS = { brand: selectBrand, settings: selectSettings, device: selectDevices } as const;

export interface NetworkDataPageProps {
  title: string;
  kind: NetworkDataKind;
  children: (data: NetworkData) => ReactNode;
}

export function NetworkDataPage({ title, kind, children }: NetworkDataPageProps) {
  const network = useAppActor('network');
  const current = useSelector(network, selectCurrentNetwork);
  const entry = useSelector(network, SELECTORS[kind]);
  const reading = useSelector(network, selectIsReading);

  let body: ReactNode;
  if (!current) {
    body = <p className={css.note}>{MESSAGES.noNetworkSelected}</p>;
  } else if (current.isDefault) {
    body = <p className={css.note} data-testid="default-network-note">{OWN_MESSAGES.networkDefaultData(current.name)}</p>;
  } else if (!entry) {
    body = <p className={css.note} aria-busy={reading}>{OWN_MESSAGES.networkLoadingData}</p>;
  } else if (entry.failed || !entry.data) {
    body = <p className={css.errorNote}>{MESSAGES.failedToGet(kind, current.name)}</p>;
  } else {
    body = (
      <>
        {children(entry.data)}
        {typeof entry.data.updatedAt === 'string' && (
          <p className={css.updated}>Last updated {new Date(entry.data.updatedAt).toLocaleString()}</p>
        )}
      </>
    );
  }

  return (
    <main className={page} data-testid={`appcms-${kind}`}>
      <h1 className={pageTitle}>{title}</h1>
      {current && <p className={css.subtitle}>Network: <strong data-testid="appcms-network">{current.name}</strong></p>}
      {body}
    </main>
  );
}
