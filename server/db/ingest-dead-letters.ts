/**
 * Accepted player events no consumer can place (issue 37; docs/data-model.md "Ingestion"): kept in
 * ingest_dead_letters with their reason, one row per (site, event id), and counted per reason for
 * Dashboard 360. Split out of server/db/ingest-repository.ts, which re-exports both.
 */
import { sql } from 'drizzle-orm';
import { INGEST_DEAD_LETTER_REASONS, type IngestDeadLetterReason } from '../../common/ingest-contract';
import type { Db } from './client';
import type { SqlRunner } from './rollups';
import { queryRows } from './seed-world';

const json = (value: unknown) => sql`${JSON.stringify(value)}::json`;

/** Why an accepted event was not placed (common/ingest-contract.ts lists them for the readers). */
export type DeadLetterReason = IngestDeadLetterReason;

export interface DeadLetter {
  siteId: string;
  reason: DeadLetterReason;
  detail: string;
  /** The event as received (or, for an unreadable message, `{ text }`). */
  payload: unknown;
  eventId: string;
}

/**
 * Records events no consumer can place (issue 37): one row per (site, event id), so a redelivery
 * after a crash records nothing twice; returns how many rows are new. Never drops: the caller
 * acknowledges the message only after this committed.
 */
export async function recordDeadLetters(db: Db | SqlRunner, letters: DeadLetter[]): Promise<number> {
  if (letters.length === 0) return 0;
  const rows = await queryRows<{ event_id: string }>(db, sql`
    INSERT INTO ingest_dead_letters (site_id, event_id, reason, detail, payload)
    SELECT x.site_id::uuid, x.event_id, x.reason, x.detail, x.payload
    FROM json_to_recordset(${json(letters.map((l) => ({ site_id: l.siteId, event_id: l.eventId, reason: l.reason, detail: l.detail, payload: l.payload })))})
      AS x(site_id text, event_id text, reason text, detail text, payload jsonb)
    ORDER BY x.site_id, x.event_id
    ON CONFLICT (site_id, event_id) DO NOTHING
    RETURNING event_id`);
  return rows.length;
}

/** Dead letters of a site per reason (every reason, 0 where none), and the newest one's time. */
export async function deadLetterCounts(db: Db, siteId: string): Promise<{ reason: DeadLetterReason; events: number; lastAt: string | null }[]> {
  const rows = await queryRows<{ reason: string; events: number; last_at: string | null }>(db, sql`
    SELECT reason, count(*)::int AS events, to_char(max(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_at
    FROM ingest_dead_letters WHERE site_id = ${siteId}::uuid GROUP BY reason`);
  const byReason = new Map(rows.map((r) => [r.reason, r]));
  return INGEST_DEAD_LETTER_REASONS.map((reason) => ({ reason, events: byReason.get(reason)?.events ?? 0, lastAt: byReason.get(reason)?.last_at ?? null }));
}
