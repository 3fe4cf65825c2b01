/** `ready.history` of the Alerts machine (assembled in ./qoe-alerts.machine.ts): one rule's History beside the list, or none. */
import type { HistoryInput } from './history.machine';
import { idOf, qoeAlertsSetup } from './qoe-alerts.setup';
import { ruleRevisionKind } from './qoe-alerts.types';

export const historyState = qoeAlertsSetup.createStateConfig({
  description: 'One rule\'s History beside the list, or none.',
  initial: 'hidden',
  states: {
    hidden: {
      description: 'No rule\'s History is shown.',
      on: { 'rules.history': { guard: { type: 'isRule', params: idOf }, target: 'shown', actions: { type: 'setHistoryOf', params: idOf } } },
    },
    shown: {
      description: 'One rule\'s History is shown; another rule shows its own afresh.',
      invoke: {
        id: 'ruleHistory', src: 'ruleHistory',
        input: ({ context }): HistoryInput => ({ kind: ruleRevisionKind() ?? 'content', objectId: context.historyOf ?? '' }),
      },
      on: {
        'rules.history': { guard: { type: 'isRule', params: idOf }, target: 'shown', reenter: true, actions: { type: 'setHistoryOf', params: idOf } },
        'rules.closeHistory': { target: 'hidden', actions: { type: 'setHistoryOf', params: { id: null } } },
        'history.restored': { target: '#qoeAlerts.loading' },
        'history.stale': { target: '#qoeAlerts.loading' },
      },
    },
  },
});
