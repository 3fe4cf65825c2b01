/**
 * The subscriber machine's actions by name, on its setup (./support-subscriber.setup.ts): `subscriberSetup` is
 * what the states (./support-subscriber.state.*.ts) and the machine (./support-subscriber.machine.ts) are built from.
 */
import { assign, raise } from 'xstate';
import { SUPPORT_MESSAGES, type SubscriberDetail } from '../common/support';
import { failureMessage } from './notify';
import { subscriberBase } from './support-subscriber.setup';
import {
  changedObjectOf, commandOf, doneMessage, draftFor, historyKey, historyObjectsOf, supportDraftOf,
  type ActionDraft, type ActionOutcome, type ActionRequest, type SupportDraft,
} from './support-subscriber.rules';
import { notify } from './system-actions';

export const subscriberSetup = subscriberBase.extend({
  actions: {
    notify,
    setDetail: assign((_, params: { detail: SubscriberDetail }) => ({ detail: params.detail, loadError: null })),
    setLoadError: assign((_, params: { error: unknown }) => ({ loadError: failureMessage(params.error, SUPPORT_MESSAGES.loadFailed) })),
    openDraft: assign(({ context }, params: { request: ActionRequest }) => {
      const draft = draftFor(context.detail, params.request);
      return { draft, draftStart: draft, actionError: null, lastDone: null };
    }),
    /** An edit of the open form (a failure's message goes with it: the agent is trying again). */
    editDraft: assign(({ context }, params: Partial<Omit<ActionDraft, 'request'>>) => ({
      draft: context.draft ? { ...context.draft, ...params } : null,
      actionError: null,
    })),
    closeDraft: assign({ draft: null, draftStart: null, actionError: null }),
    /** Keeps what was typed as the tab's draft of this subscriber, or drops it when nothing differs (provided: src/adapters/support-actors.ts). */
    keepDraft: (_, _params: { subscriberId: string; draft: SupportDraft | null }) => undefined,
    /** Drops the tab's draft of this subscriber's action (provided). */
    forgetDraft: (_, _params: { subscriberId: string }) => undefined,
    storeKeptDraft: assign((_, params: { draft: SupportDraft | null }) => ({ keptDraft: params.draft })),
    /** The kept draft's action opens again with what was typed (the form opens dirty). */
    reopenDraft: assign(({ context }) => {
      const kept = context.keptDraft;
      if (!kept) return {};
      return { draft: { request: kept.request, ...kept.values }, draftStart: draftFor(context.detail, kept.request), keptDraft: null, actionError: null, lastDone: null };
    }),
    dropKeptDraft: assign({ keptDraft: null }),
    /** Asks the page (its `idle` state) whether the kept draft's action opens again. */
    settleDraft: raise({ type: 'draft.settle' }),
    /** The open action's typed input, set aside while the page reads the subscriber again (`idle` reopens it over the same version). */
    shelveDraft: assign(({ context }) => (context.draft ? { keptDraft: supportDraftOf(context), draft: null, draftStart: null } : {})),
    /** A new handle for the action about to run (issue 28: its Undo names it; never sent, issue 37). */
    nameChange: assign(() => ({ changeRequestId: crypto.randomUUID() })),
    forgetUndo: assign({ undoOffer: null }),
    setActionError: assign((_, params: { error: unknown }) => ({ actionError: failureMessage(params.error, SUPPORT_MESSAGES.loadFailed) })),
    applyOutcome: assign((_, params: { outcome: ActionOutcome }) => (params.outcome.kind === 'detail'
      ? { detail: params.outcome.detail }
      : { contact: params.outcome.contact })),
    markDone: assign(({ context, self }) => {
      const command = commandOf(context);
      const requestId = command?.kind === 'cancelSubscription' ? command.requestId : undefined;
      return { lastDone: command ? doneMessage(command) : null, draft: null, draftStart: null, actionError: null, undoOffer: requestId ? { requestId, replyRef: self } : null };
    }),
    hideContact: assign({ contact: null }),
    /** A History disclosure for each object shown that has none yet (those already there keep their state). */
    spawnDisclosures: assign(({ context, spawn }) => {
      const missing = historyObjectsOf(context.detail).filter((o) => !context.disclosures[historyKey(o.kind, o.id)]);
      if (missing.length === 0) return {};
      const added = Object.fromEntries(missing.map((o) => [
        historyKey(o.kind, o.id),
        spawn('historyDisclosure', { id: `history-${o.kind}-${o.id}`, input: { kind: o.kind, objectId: o.id } }),
      ]));
      return { disclosures: { ...context.disclosures, ...added } };
    }),
    /** The object the command under way changed (read from the draft, so before markDone): its open History reads again. */
    tellChanged: ({ context }) => {
      const object = changedObjectOf(commandOf(context));
      const disclosure = object ? context.disclosures[historyKey(object.kind, object.id)] : undefined;
      disclosure?.send({ type: 'disclosure.changed' });
    },
    /** Someone (an Undo, another agent) changed the subscriber: every open History reads again. */
    tellAllChanged: ({ context }) => {
      for (const disclosure of Object.values(context.disclosures)) disclosure.send({ type: 'disclosure.changed' });
    },
  },
});
