/**
 * The `network` machine's own messages (spec §4.6, §5), each the params of its `setMessage` action.
 * The messages of a change made or failed come from the `change` child (machines/network-change.machine.ts).
 */
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import { currentNetworkOf, type NetworkContext, type NetworkMessage } from './network.types';

type MessageArgs = { context: NetworkContext };

export const fetchFailedMessage: NetworkMessage = { text: MESSAGES.failedToFetchNetworks, severity: 'error' };
export const credentialsMissingMessage: NetworkMessage = { text: MESSAGES.credentialsMissing, severity: 'error' };
export const siteNotFoundMessage: NetworkMessage = { text: MESSAGES.siteNotFound, severity: 'error' };
export const noSelectionMessage: NetworkMessage = { text: MESSAGES.noNetworkSelected, severity: 'error' };
export const readOnlyMessage: NetworkMessage = { text: OWN_MESSAGES.networkReadOnly, severity: 'error' };

export const isDefaultMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.isDefaultNetwork(currentNetworkOf(context)?.name ?? ''), severity: 'warning' });
export const unknownSelectionMessage = (identifier: string): NetworkMessage =>
  ({ text: MESSAGES.networkNotFound(identifier), severity: 'error' });
export const savedNetworkNotFoundMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: MESSAGES.networkNotFound(context.selectedId ?? ''), severity: 'error' });
export const alreadyLaunchedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: OWN_MESSAGES.networkAlreadyLaunched(currentNetworkOf(context)?.name ?? ''), severity: 'info' });
export const notLaunchedMessage = ({ context }: MessageArgs): NetworkMessage =>
  ({ text: OWN_MESSAGES.networkIsNotLaunched(currentNetworkOf(context)?.name ?? ''), severity: 'info' });
export const readFailedMessage = ({ context }: MessageArgs): NetworkMessage => {
  const request = context.readRequest;
  const network = context.networks.find((n) => n.identifier === request?.identifier);
  return { text: MESSAGES.failedToGet(request?.kind ?? '', network?.name ?? request?.identifier ?? ''), severity: 'error' };
};
