/**
 * Words of Dashboard 360's "Player events not placed" panel on the Alerts page (issue 42): the player
 * events a consumer kept in the dead letters instead of the reports (common/ingest-contract.ts,
 * INGEST_DEAD_LETTER_REASONS), per reason, as an operator reads them: what the reason means and what to do.
 */
import type { IngestDeadLetterReason } from '../ingest-contract';

export const INGEST_DEAD_LETTER_MESSAGES = {
  title: 'Player events not placed',
  intro: 'Events the players sent and the server accepted, but that no consumer could place in the reports. They are kept, not dropped; the counts cover every one this site has, per reason.',
  total: (events: number) => `${events.toLocaleString('en-GB')} ${events === 1 ? 'event' : 'events'} not placed`,
  count: (events: number) => `${events.toLocaleString('en-GB')} ${events === 1 ? 'event' : 'events'}`,
  empty: 'No player events were refused by the consumers.',
  loading: 'Loading the events not placed…',
  loadFailed: 'The events not placed could not be loaded.',
  retry: 'Try again',
  refresh: 'Refresh',
  last: 'Last',
  never: '—',
} as const;

/** Each reason's label and its one-line explanation (what it means, what to do). */
export const INGEST_DEAD_LETTER_REASON_WORDS: Readonly<Record<IngestDeadLetterReason, { label: string; help: string }>> = {
  'session-start-missing': {
    label: 'Session start never arrived',
    help: 'Heartbeats or ends of a session whose start no player sent (or that came too late to wait for). Check that the player sends its start event before anything else of the session.',
  },
  'subscriber-missing': {
    label: 'Subscriber not of this site',
    help: 'Starts (and their sessions\' events) naming a subscriber this site does not have, or had deleted since. Check the subscriber id the player sends and the ingestion key it uses.',
  },
  'content-missing': {
    label: 'Title not of this site',
    help: 'Starts (and their sessions\' events) naming a title (content item) this site does not have. Check the content id the player sends.',
  },
  'network-missing': {
    label: 'Network not of this site',
    help: 'Starts (and their sessions\' events) naming a network this site does not have. Check the network the player app is built for.',
  },
  'unreadable-message': {
    label: 'Unreadable message',
    help: 'The event queue held a message that is not a batch of player events, so nothing in it could be read. Tell whoever runs the ingestion workers.',
  },
};
