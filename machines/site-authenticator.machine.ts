/**
 * The Admin area's site security switch (issue 19): "Require an authenticator app for everyone on
 * this site". Any Admin role reads it; only an Admin editor (write, contributor) changes it, and the
 * server refuses the change to anyone else anyway. I/O from src/adapters/totp-actors.ts.
 */
import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { TOTP_MESSAGES, type SiteAuthenticatorResponse } from '../common/totp';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export interface SiteAuthenticatorContext {
  required: boolean;
  canEdit: boolean;
  error: string | null;
  notice: string | null;
}

export type SiteAuthenticatorEvent =
  | { type: 'siteAuthenticator.set'; required: boolean }
  | { type: 'siteAuthenticator.retry' };

export interface SetSiteAuthenticatorInput { required: boolean }

function answer({ event }: { event: DoneActorEvent<SiteAuthenticatorResponse> }) {
  return { required: event.output.required, canEdit: event.output.canEdit };
}
function saved({ event }: { event: DoneActorEvent<SiteAuthenticatorResponse> }) {
  return { message: event.output.message };
}
function loadFailure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, TOTP_MESSAGES.siteLoadFailed) };
}
function saveFailure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, TOTP_MESSAGES.requestFailed) };
}
function setInput({ event }: { event: SiteAuthenticatorEvent }): SetSiteAuthenticatorInput {
  return { required: event.type === 'siteAuthenticator.set' ? event.required : false };
}

export const siteAuthenticatorMachine = setup({
  types: {
    context: {} as SiteAuthenticatorContext,
    events: {} as SiteAuthenticatorEvent,
  },
  actors: {
    fetchSiteAuthenticator: providedLater<SiteAuthenticatorResponse>('fetchSiteAuthenticator'),
    setSiteAuthenticator: providedLater<SiteAuthenticatorResponse, SetSiteAuthenticatorInput>('setSiteAuthenticator'),
  },
  actions: {
    setAnswer: assign((_, params: { required: boolean; canEdit: boolean }) => ({ required: params.required, canEdit: params.canEdit })),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    setNotice: assign((_, params: { message: string }) => ({ notice: params.message, error: null })),
    clearMessages: assign({ error: null, notice: null }),
  },
  guards: {
    canEdit: ({ context }) => context.canEdit,
  },
}).createMachine({
  id: 'siteAuthenticator',
  description: "The site's requirement of an authenticator app for everyone, read and switched in the Admin area.",
  context: { required: false, canEdit: false, error: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      description: "The site's setting is being fetched.",
      invoke: {
        id: 'fetchSiteAuthenticator',
        src: 'fetchSiteAuthenticator',
        onDone: { target: 'ready', actions: { type: 'setAnswer', params: answer } },
        onError: { target: 'failed', actions: { type: 'setError', params: loadFailure } },
      },
    },
    failed: {
      description: 'The setting could not be loaded; the admin may try again.',
      on: { 'siteAuthenticator.retry': { target: 'loading', actions: 'clearMessages' } },
    },
    ready: {
      description: 'The setting is shown; an Admin editor may switch it.',
      on: { 'siteAuthenticator.set': { guard: 'canEdit', target: 'saving', actions: 'clearMessages' } },
    },
    saving: {
      description: 'The new setting is with the server.',
      invoke: {
        id: 'setSiteAuthenticator',
        src: 'setSiteAuthenticator',
        input: setInput,
        onDone: { target: 'ready', actions: [{ type: 'setAnswer', params: answer }, { type: 'setNotice', params: saved }] },
        onError: { target: 'ready', actions: { type: 'setError', params: saveFailure } },
      },
    },
  },
});

export type SiteAuthenticatorMachine = typeof siteAuthenticatorMachine;
export type SiteAuthenticatorSnapshot = SnapshotFrom<SiteAuthenticatorMachine>;

export const selectSiteAuthenticator = (snapshot: SiteAuthenticatorSnapshot) => snapshot.context;
export const selectSiteAuthenticatorBusy = (snapshot: SiteAuthenticatorSnapshot) => snapshot.matches('saving') || snapshot.matches('loading');
export const selectSiteAuthenticatorFailed = (snapshot: SiteAuthenticatorSnapshot) => snapshot.matches('failed');
