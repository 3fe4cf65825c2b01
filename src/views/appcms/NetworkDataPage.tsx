/**
 * The frame the AppCMS Brand, Settings and Devices pages share: it asks the `network` actor for one
 * kind of data of the current network whenever that network (or its data, after a copy) changes,
 * and shows the honest state of it: loading, failed, the default network's explanation, or the data.
 */
import { useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import {
  selectCurrentNetwork, selectDataRevision, selectIsReading, selectNetworkData, type NetworkActorRef, type NetworkData,
} from '../../../machines/network.machine';
import { useSystemActor } from '../../app-actor';
import type { NetworkDataKind } from '../../api/contract';
import { MESSAGES, OWN_MESSAGES } from '../../messages';
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
  const network = useSystemActor<NetworkActorRef>('network');
  const current = useSelector(network, selectCurrentNetwork);
  const revision = useSelector(network, selectDataRevision);
  const entry = useSelector(network, SELECTORS[kind]);
  const reading = useSelector(network, selectIsReading);
  const identifier = current?.identifier;

  useEffect(() => {
    if (identifier) network.send({ type: 'network.read', kind });
  }, [network, kind, identifier, revision]);

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
