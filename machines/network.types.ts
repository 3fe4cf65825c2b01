/**
 * The words of the `network` machine (machines/network.machine.ts) and of its `change` child
 * (machines/network-change.machine.ts): context, events, I/O inputs, and the two rules every part
 * asks (which network is current, which is the default).
 */
import type { Network, NetworkDataKind, Service } from '../common/contract';
import { MESSAGES } from '../common/messages';
import type { Severity } from './notifier.machine';

export type CopyWhat = 'brand' | 'settings';
export type NetworkData = Record<string, unknown>;

/** Thrown by the I/O actors when the access token or the API key is missing (spec §5). */
export const CREDENTIALS_MISSING = 'credentials-missing';
export class CredentialsMissingError extends Error {
  readonly code = CREDENTIALS_MISSING;
  constructor() {
    super(MESSAGES.credentialsMissing);
    this.name = 'CredentialsMissingError';
  }
}

/** An I/O actor refused for want of credentials: its error carries CREDENTIALS_MISSING as its code. */
export function isCredentialsMissingError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === CREDENTIALS_MISSING;
}

/** The text of a failed call: the error's own message, else the spec's "Something went wrong!". */
export function networkErrorMessage(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : MESSAGES.genericGraphqlError;
}

export interface NetworkMachineInput {
  site: string | null;
  /** The identifier saved in session storage, if any. */
  savedNetworkId: string | null;
  canWrite?: boolean;
}

export type PendingChange =
  | { kind: 'launch'; identifier: string; name: string }
  /** Issue 28: a launched network goes back to not launched. */
  | { kind: 'withdraw'; identifier: string; name: string }
  | { kind: 'copy'; what: CopyWhat; identifier: string; name: string; defaultName: string };

export interface NetworkDataEntry {
  identifier: string;
  /** null: nothing to show (the default network, missing credentials, or the read failed). */
  data: NetworkData | null;
  failed: boolean;
}

export interface NetworkMessage {
  text: string;
  severity: Severity;
}

export interface NetworkContext {
  site: string | null;
  /** The signed-in role may launch and copy (common/roles canEdit on App CMS); read-only users are refused. */
  canWrite: boolean;
  service: Service | null;
  networks: Network[];
  /** The chosen identifier; null means the default network is current. */
  selectedId: string | null;
  /** The change the `change` child asks about and makes (its refusals passed); null while none. */
  pending: PendingChange | null;
  syncSuccess: boolean;
  message: NetworkMessage | null;
  readRequest: { identifier: string; kind: NetworkDataKind } | null;
  networkData: Partial<Record<NetworkDataKind, NetworkDataEntry>>;
  /** The kind of data the page on screen shows, or null when no such page is open. */
  viewing: NetworkDataKind | null;
}

export type NetworkEvent =
  | { type: 'network.select'; identifier: string }
  | { type: 'network.launch' }
  /** Issue 28: withdraw the current (launched) network, after confirmation. */
  | { type: 'network.withdraw' }
  /** The snackbar's Undo of a change of this actor went through: the networks and their data are read again. */
  | { type: 'undo.done'; requestId: string }
  /** Issue 38: undo the last launch, withdrawal or copy (offered beside the networks, not in the 3-second message). */
  | { type: 'network.undoLast' }
  | { type: 'network.copy'; what: CopyWhat }
  /** The operator's answer to the `change` child's question, passed on to it. */
  | { type: 'network.confirm' }
  | { type: 'network.cancel' }
  | { type: 'network.read'; kind: NetworkDataKind }
  /** A page showing one kind of the current network's data opened (kind) or closed (null). */
  | { type: 'network.view'; kind: NetworkDataKind | null }
  /** Fetch the site's networks again; also raised on start-up. */
  | { type: 'network.reload' }
  | { type: 'network.siteChanged'; site: string | null; canWrite?: boolean }
  /** Internal: raised whenever a message is posted, to restart its display timer. */
  | { type: 'network.message.posted' };

export interface FetchServiceInput { site: string }
export interface PublishNetworkInput { site: string; network: string; requestId?: string }
export interface CopyFromDefaultInput { site: string; network: string; what: CopyWhat; requestId?: string }
export interface FetchNetworkDataInput { site: string; network: string; kind: NetworkDataKind }

export function currentNetworkOf(context: Pick<NetworkContext, 'networks' | 'selectedId'>): Network | null {
  const chosen = context.selectedId === null ? undefined : context.networks.find((n) => n.identifier === context.selectedId);
  return chosen ?? context.networks.find((n) => n.isDefault) ?? null;
}

export function defaultNetworkOf(context: Pick<NetworkContext, 'networks'>): Network | null {
  return context.networks.find((n) => n.isDefault) ?? null;
}

/** A site is known (not signed out, not empty). */
export function hasSite(context: Pick<NetworkContext, 'site'>): boolean {
  return context.site !== null && context.site !== '';
}
