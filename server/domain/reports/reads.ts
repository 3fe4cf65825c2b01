/**
 * What the report builders read (issue 39): the rollup queries of server/db/report-repository.ts as
 * the rules see them. The composition root (server/composition.ts) binds them to the database
 * (server/db/stores.ts, createReportReads) and hands them in as ReportContext.reads.
 */
import type { PlaybackDimension } from '../../../common/constants';
import type { QoeDimension } from '../../../common/qoe';
import type { ContentInfo, LiveSessionRow, PaymentDayRow, PlaybackSums, ReportScope, SubscriptionDayRow } from '../../report-shapes';
import type { QoeGrouping, QoeSelection, QoeSumsRow } from '../../qoe-shapes';

export type { ContentInfo, LiveSessionRow, PaymentDayRow, PlaybackSums, ReportScope, SubscriptionDayRow };

export interface ReportReads {
  playbackByDay(scope: ReportScope, dimension: PlaybackDimension, key: string): Promise<(PlaybackSums & { day: string })[]>;
  playbackByKey(scope: ReportScope, dimension: PlaybackDimension, onlyKey: string | null, withHistogramSums?: boolean): Promise<(PlaybackSums & { key: string; days: number })[]>;
  subscriptionsByDay(scope: ReportScope, planId: string | null): Promise<SubscriptionDayRow[]>;
  paymentsBy(scope: ReportScope, planId: string | null, group: 'plan' | 'day'): Promise<PaymentDayRow[]>;
  watchByDayAndContent(scope: ReportScope): Promise<{ day: string; key: string; sessions: number; watchedSeconds: number }[]>;
  signupsByDay(scope: ReportScope, country: string | null): Promise<{ day: string; signups: number }[]>;
  cohortRetention(scope: ReportScope, planId: string | null): Promise<{ cohort: string; key: string; offset: number; value: number }[]>;
  cohortRevenue(scope: ReportScope, planId: string | null, currency: string): Promise<{ cohort: string; key: string; subscribers: number; revenue: number }[]>;
  currenciesOf(scope: ReportScope): Promise<string[]>;
  liveSessions(input: { siteId: string; networkId: string | null; since: Date; device: string | null; country: string | null; content: string | null }): Promise<LiveSessionRow[]>;
  contentInfo(siteId: string, ids: string[]): Promise<Map<string, ContentInfo>>;
  planOptions(siteId: string): Promise<{ value: string; label: string }[]>;
  contentOptions(scope: ReportScope, limit: number, include: string | null): Promise<{ value: string; label: string }[]>;
  planNames(siteId: string): Promise<Map<string, string>>;
}

/**
 * Issue 41: what the playback reports read from raw playback sessions when the rollups cannot answer (a
 * filter set `f`, or a breakdown the rollups do not keep): server/db/qoe-repository.ts
 * (createQoeRepository), handed in by the composition root as ReportContext.qoe.
 */
export interface QoeReads {
  sums(selection: QoeSelection, group?: QoeGrouping): Promise<QoeSumsRow[]>;
  siteTimeZone(siteId: string): Promise<string>;
  /** The names of id-valued dimensions' values (titles, series, plans, networks) of the site. */
  names(siteId: string, dimension: QoeDimension, values: readonly string[]): Promise<Map<string, string>>;
  /** The real-time reports' sessions of a selection (select 'active'), as ReportReads.liveSessions gives them. */
  liveSessions(selection: QoeSelection): Promise<LiveSessionRow[]>;
}
