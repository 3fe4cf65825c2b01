/** `ready.main` of the Alerts machine (assembled in ./qoe-alerts.machine.ts): what the person is doing with the rules and incidents. */
import { and, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { QoeAlertRule } from '../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import { failureMessage } from './notify';
import { idOf, qoeAlertsSetup } from './qoe-alerts.setup';
import { draftOf, EMPTY_DRAFT, inputOf, settingsOf, type IncidentPage, type SavedAlertSettings } from './qoe-alerts.types';

export const mainState = qoeAlertsSetup.createStateConfig({
  description: 'What the person is doing with the rules and incidents.',
  initial: 'idle',
  // The editor's filter picker (`ruleFilters`, alive while the editor is) tells every change of the set.
  on: { 'filters.changed': { actions: 'takeFilters' } },
  states: {
    idle: {
      description: 'Nothing is being edited: a rule may be created (write role), edited, turned on or off, deleted, or its History shown; resolved incidents paged.',
      on: {
        'rules.new': { guard: 'canEdit', target: 'editing', actions: [{ type: 'openEditor', params: { id: null } }, 'startRuleFilters'] },
        'rules.edit': { guard: { type: 'isKnownRule', params: idOf }, target: 'editing', actions: [{ type: 'openEditor', params: idOf }, 'startRuleFilters'] },
        'rules.toggle': { guard: { type: 'isKnownRule', params: idOf }, target: 'toggling', actions: { type: 'setTarget', params: idOf } },
        'rules.delete': { guard: { type: 'isKnownRule', params: idOf }, target: 'confirmingDelete', actions: { type: 'setTarget', params: idOf } },
        'incidents.page': { target: 'paging' },
        'settings.change': { guard: 'canEdit', actions: 'changeSettings' },
        'settings.save': [
          { guard: and(['canEdit', 'settingsAreValid']), target: 'sendingSettings' },
          { guard: 'canEdit', actions: 'showSettingsErrors' },
        ],
        'secret.rotate': { guard: 'canRotate', target: 'confirmingRotate', actions: 'clearMessages' },
      },
    },
    confirmingRotate: {
      description: 'The editor is asked whether to replace the webhook signing secret (the question says what it does to the receiver).',
      on: {
        'rotate.confirm': { target: 'rotatingSecret' },
        'rotate.cancel': { target: 'idle' },
      },
    },
    rotatingSecret: {
      description: 'A new signing secret is being made with the settings\' version as read; it is shown once when it arrives.',
      tags: ['busy'],
      invoke: {
        id: 'rotateSecret', src: 'rotateSecret',
        input: ({ context }) => ({ version: context.settings?.version ?? 0 }),
        onDone: { target: 'idle', actions: { type: 'storeRotated', params: ({ event }: { event: DoneActorEvent<SavedAlertSettings> }) => ({ settings: event.output }) } },
        onError: { target: 'idle', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.rotateFailed) }) } },
      },
    },
    paging: {
      description: 'Another page of resolved incidents is being read.',
      tags: ['busy'],
      invoke: {
        id: 'fetchIncidents', src: 'fetchIncidents',
        input: ({ event }) => ({ page: event.type === 'incidents.page' ? Math.max(1, event.page) : 1 }),
        onDone: { target: 'idle', actions: { type: 'storeResolved', params: ({ event }: { event: DoneActorEvent<IncidentPage> }) => ({ page: event.output }) } },
        onError: { target: 'idle', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.incidentsFailed) }) } },
      },
    },
    editing: {
      description: 'The rule editor is open (a new rule or one of the list) with the person\'s draft.',
      tags: ['editor'],
      on: {
        'draft.change': { actions: 'changeDraft' },
        'editor.save': [
          { guard: 'draftIsValid', target: 'saving' },
          { actions: 'showDraftErrors' },
        ],
        'editor.cancel': [
          { guard: 'hasUnsavedChanges', target: 'confirmingDiscard' },
          { target: 'idle', actions: ['closeEditor', 'stopRuleFilters'] },
        ],
      },
    },
    confirmingDiscard: {
      description: 'Closing the editor would drop unsaved changes: the person confirms or keeps editing.',
      tags: ['editor'],
      on: {
        'discard.confirm': { target: 'idle', actions: ['closeEditor', 'stopRuleFilters'] },
        'discard.cancel': { target: 'editing' },
      },
    },
    saving: {
      description: 'The rule is being created or saved with the version the editor read.',
      tags: ['editor', 'busy'],
      invoke: {
        id: 'saveRule', src: 'saveRule',
        input: ({ context }) => ({ id: context.editingId === '' ? null : context.editingId, version: context.editingVersion, rule: inputOf(context.draft) }),
        onDone: { target: 'idle', actions: [{ type: 'storeSavedRule', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) }, 'closeEditor', 'stopRuleFilters'] },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'conflict' },
          { guard: { type: 'isGone', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'editing', actions: { type: 'setError', params: { message: M.gone } } },
          { target: 'editing', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.saveFailed) }) } },
        ],
      },
    },
    conflict: {
      description: 'The save was refused because someone changed the rule since it was read: reload it (dropping the draft) or keep the draft on screen.',
      tags: ['editor'],
      on: {
        'conflict.reload': { target: 'reloading' },
        'conflict.keep': { target: 'editing' },
      },
    },
    reloading: {
      description: 'The rule is read again; the editor then shows it as it is now, at its new version.',
      tags: ['editor', 'busy'],
      invoke: {
        id: 'fetchRule', src: 'fetchRule',
        input: ({ context }) => ({ id: context.editingId ?? '' }),
        // The picker starts again on the rule as it is now.
        onDone: { target: 'editing', actions: [{ type: 'reloadDraft', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) }, 'startRuleFilters'] },
        onError: { target: 'editing', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
      },
    },
    toggling: {
      description: 'The rule is being turned on or off.',
      tags: ['busy'],
      invoke: {
        id: 'toggleRule', src: 'saveRule',
        input: ({ context }) => {
          const rule = context.rules.find((r) => r.id === context.targetId);
          const draft = rule ? draftOf(rule) : EMPTY_DRAFT;
          return { id: context.targetId, version: rule?.version ?? 0, rule: inputOf({ ...draft, enabled: !draft.enabled }) };
        },
        onDone: { target: 'idle', actions: { type: 'storeToggledRule', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) } },
        onError: {
          target: '#qoeAlerts.loading',
          actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.saveFailed) }) },
        },
      },
    },
    confirmingDelete: {
      description: 'The person is asked whether to delete the rule (the question says what it does).',
      on: {
        'delete.confirm': { target: 'deleting' },
        'delete.cancel': { target: 'idle', actions: { type: 'setTarget', params: { id: null } } },
      },
    },
    deleting: {
      description: 'The rule is being deleted; the list and incidents are read again after it.',
      tags: ['busy'],
      invoke: {
        id: 'deleteRule', src: 'deleteRule',
        input: ({ context }) => ({ id: context.targetId ?? '', version: context.rules.find((r) => r.id === context.targetId)?.version ?? 0 }),
        onDone: { target: '#qoeAlerts.loading', actions: 'dropRule' },
        onError: {
          target: '#qoeAlerts.loading',
          actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.deleteFailed) }) },
        },
      },
    },
    sendingSettings: {
      description: 'The webhook address and e-mail addresses are being stored.',
      tags: ['busy'],
      invoke: {
        id: 'saveSettings', src: 'saveSettings',
        input: ({ context }) => ({ ...settingsOf(context.settingsDraft), version: context.settings?.version ?? 0 }),
        onDone: { target: 'idle', actions: { type: 'storeSettings', params: ({ event }: { event: DoneActorEvent<SavedAlertSettings> }) => ({ settings: event.output }) } },
        onError: { target: 'idle', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.settingsFailed) }) } },
      },
    },
  },
});
