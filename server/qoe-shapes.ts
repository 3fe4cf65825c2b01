/**
 * The rows the QoE engine (issue 41) reads, shared by the rules that read them (server/domain/qoe.ts,
 * server/domain/reports) and the repository that answers them (server/db/qoe-repository.ts): neither
 * layer imports the other, so the shapes sit beside both, like server/report-shapes.ts.
 */
import type { PlaybackSumsLike } from '../common/playback-measures';
import type { QoeDimension, QoeFilter, QoeViewSort } from '../common/qoe';

/** Which sessions of a site: the filters, a network, and the window. */
export interface QoeSelection {
  siteId: string;
  /** null: every network (a `network` filter may still narrow it). */
  networkId?: string | null;
  filters: readonly QoeFilter[];
  since: Date;
  until: Date;
  /**
   * 'started': sessions started in [since, until) (every report figure); 'active': sessions whose last
   * event is in [since, until) (alert windows), among those started at most a day before `since`.
   */
  select: 'started' | 'active';
}

/** How the sessions of a selection are grouped: by a dimension's value and/or by the site day (in `dayZone`) they started. */
export interface QoeGrouping {
  by?: QoeDimension | null;
  dayZone?: string | null;
}

/** One group of raw sessions: its key ('' without `by`), its site day ('' without days) and sums (viewers: distinct in the group). */
export interface QoeSumsRow extends PlaybackSumsLike {
  key: string;
  day: string;
}

/** One session as the Views list and one view read it (every dimension's stored value as text). */
export interface QoeSessionRow {
  sessionId: string;
  startedAt: string;
  endedAt: string | null;
  lastEventAt: string;
  subscriberId: string;
  viewerEmail: string | null;
  viewerName: string | null;
  contentId: string;
  contentType: string | null;
  title: string | null;
  watchedSeconds: number;
  startupMs: number;
  rebufferCount: number;
  rebufferSeconds: number;
  avgBitrateKbps: number;
  errorCode: string | null;
  dims: Record<QoeDimension, string>;
}

export type QoeSessionSort = QoeViewSort;

/** A stored heartbeat of a session (cumulative counters), oldest first. */
export interface QoeHeartbeatRow {
  at: string;
  playheadSeconds: number;
  watchedSeconds: number;
  bitrateKbps: number;
  rebufferCount: number;
  rebufferMs: number;
}

