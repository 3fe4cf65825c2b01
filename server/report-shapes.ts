/**
 * The rows a report reads, shared by the rules that read them (server/domain/reports/reads.ts, their
 * port) and the repository that answers them (server/db/report-repository.ts): neither layer imports
 * the other, so the shapes sit beside both, like server/request-scope.ts.
 */
import type { PlaybackSumsLike } from '../common/playback-measures';

export interface ReportScope {
  siteId: string;
  /** null: every network of the site. */
  networkId: string | null;
  from: string;
  to: string;
}

/** A rollup row's playback sums: the one shape of common/playback-measures.ts (raw sessions are counted into it too). */
export type PlaybackSums = PlaybackSumsLike;

export interface PaymentDayRow {
  day: string;
  key: string;
  currency: string;
  status: string;
  payments: number;
  amount: number;
}

export interface SubscriptionDayRow {
  day: string;
  trialsStarted: number;
  paidStarted: number;
  conversions: number;
  cancellations: number;
  expirations: number;
  activeAtEnd: number;
  trialingAtEnd: number;
}

export interface LiveSessionRow {
  contentId: string;
  subscriberId: string;
  startedAt: string;
  lastEventAt: string;
  startupMs: number;
  watchedSeconds: number;
  rebufferSeconds: number;
  errorCode: string | null;
}

export interface ContentInfo { id: string; title: string; kind: string; genre: string; durationSeconds: number }
