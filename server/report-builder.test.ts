/**
 * The reports builder (server/domain/reports/build.ts and build/*) over rollup rows given by hand: every
 * figure of every report recomputed here from the raw rows, with the edges (empty ranges, missing days,
 * removed titles and plans, boundaries of the real-time window, caps). The repository is replaced, so
 * these run in milliseconds (the mutation run of the builder leans on them); reports.test.ts and
 * reconciliation.test.ts check the same reports end to end over the database.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentDayRow, PlaybackSums } from './db/report-repository';
import type * as repository from './db/report-repository';
import type { Db } from './db/client';
import { buildReport, type ReportContext } from './domain/reports/build';
import { bindDb } from './db/bound-store';
import type { ParsedReportParams } from './domain/reports/params';

/**
 * The repository's reads, replaced by hand: mock functions given to the reads' port as createReportReads
 * (server/db/stores.ts) gives the real ones (bindDb), not a module mock, so the file runs in a worker that
 * other test files share (vitest.config.ts: the server tests are not isolated).
 */
const playbackByDay = vi.fn<typeof repository.playbackByDay>();
const playbackByKey = vi.fn<typeof repository.playbackByKey>();
const subscriptionsByDay = vi.fn<typeof repository.subscriptionsByDay>();
const paymentsBy = vi.fn<typeof repository.paymentsBy>();
const watchByDayAndContent = vi.fn<typeof repository.watchByDayAndContent>();
const signupsByDay = vi.fn<typeof repository.signupsByDay>();
const cohortRetention = vi.fn<typeof repository.cohortRetention>();
const cohortRevenue = vi.fn<typeof repository.cohortRevenue>();
const currenciesOf = vi.fn<typeof repository.currenciesOf>();
const liveSessions = vi.fn<typeof repository.liveSessions>();
const contentInfo = vi.fn<typeof repository.contentInfo>();
const planOptions = vi.fn<typeof repository.planOptions>();
const contentOptions = vi.fn<typeof repository.contentOptions>();
const planNames = vi.fn<typeof repository.planNames>();
const REPOSITORY = {
  playbackByDay, playbackByKey, subscriptionsByDay, paymentsBy, watchByDayAndContent, signupsByDay, cohortRetention, cohortRevenue, currenciesOf,
  liveSessions, contentInfo, planOptions, contentOptions, planNames,
};

const db = {} as Db;
const SITE = 'site-1';
const NETWORK = 'net-1';
const NOW = new Date('2026-03-10T12:00:30.000Z');
const SCOPE = { siteId: SITE, networkId: NETWORK, from: '2026-03-02', to: '2026-03-04' };

function ctx(params: Partial<ParsedReportParams> = {}, now = NOW): ReportContext {
  return { reads: bindDb(db, REPOSITORY), siteId: SITE, networkId: NETWORK, now, params: { from: '2026-03-02', to: '2026-03-04', granularity: 'day', filter: null, ...params } };
}

function sums(over: Partial<PlaybackSums> = {}): PlaybackSums {
  return {
    sessions: 0, viewers: 0, watchedSeconds: 0, startupMsSum: 0, rebufferCount: 0, rebufferSeconds: 0, errorSessions: 0, bitrateKbpsSum: 0,
    startupHistogram: [], rebufferHistogram: [], ...over,
  };
}

const info = (entries: [string, { title: string; kind: string; genre: string; durationSeconds: number }][]) =>
  new Map(entries.map(([id, rest]) => [id, { id, ...rest }]));

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(contentInfo).mockResolvedValue(new Map());
  vi.mocked(planNames).mockResolvedValue(new Map());
});

const ENGAGEMENT_COLUMNS = [
  { key: 'period', label: 'Period', kind: 'period' },
  { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
  { key: 'viewers', label: 'Viewers (daily average)', kind: 'count', figure: 'viewers' },
  { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours', figure: 'watchHours' },
  { key: 'avgMinutes', label: 'Minutes per session', kind: 'minutes', figure: 'avgMinutes' },
];

describe('user_behavior (the playback series)', () => {
  it('sums each period, zeros for a day without rows, viewers averaged over the days', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([
      { day: '2026-03-02', ...sums({ sessions: 4, viewers: 3, watchedSeconds: 7200 }) },
      { day: '2026-03-04', ...sums({ sessions: 2, viewers: 2, watchedSeconds: 1800 }) },
    ]);
    const answer = await buildReport('user_behavior', ctx());
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'all', '');
    expect(answer.columns).toEqual(ENGAGEMENT_COLUMNS);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', sessions: 4, viewers: 3, watchHours: 2, avgMinutes: 30 },
      { period: '2026-03-03', sessions: 0, viewers: 0, watchHours: 0, avgMinutes: null },
      { period: '2026-03-04', sessions: 2, viewers: 2, watchHours: 0.5, avgMinutes: 15 },
    ]);
    expect(answer.totals).toEqual({ sessions: 6, viewers: 1.7, watchHours: 2.5, avgMinutes: 25 });
  });

  it('weeks: a period of the range counts only its days inside the range', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([
      { day: '2026-03-01', ...sums({ sessions: 1, viewers: 4, watchedSeconds: 60 }) },
      { day: '2026-03-02', ...sums({ sessions: 1, viewers: 3, watchedSeconds: 60 }) },
      { day: '2026-03-03', ...sums({ sessions: 1, viewers: 2, watchedSeconds: 60 }) },
    ]);
    const answer = await buildReport('user_behavior', ctx({ from: '2026-03-01', to: '2026-03-03', granularity: 'week' }));
    expect(answer.rows).toEqual([
      { period: '2026-02-23', sessions: 1, viewers: 4, watchHours: 0, avgMinutes: 1 },
      { period: '2026-03-02', sessions: 2, viewers: 2.5, watchHours: 0, avgMinutes: 1 },
    ]);
    expect(answer.totals).toEqual({ sessions: 3, viewers: 3, watchHours: 0.1, avgMinutes: 1 });
  });

  it('a filter reads its slice; no sessions at all answers no rows and empty totals', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([]);
    const answer = await buildReport('user_behavior', ctx({ filter: { name: 'device', value: 'tv' } }));
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'device', 'tv');
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toEqual({ sessions: 0, viewers: 0, watchHours: 0, avgMinutes: null });
    expect(answer.columns).toEqual(ENGAGEMENT_COLUMNS);
  });
});

const QOS_FIGURES = [
  { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
  { key: 'startupAvgMs', label: 'Startup avg (ms)', kind: 'ms', figure: 'startupAvgMs' },
  { key: 'startupP50Ms', label: 'Startup p50 (ms)', kind: 'ms', figure: 'startupP50Ms' },
  { key: 'startupP95Ms', label: 'Startup p95 (ms)', kind: 'ms', figure: 'startupP95Ms' },
  { key: 'rebufferPct', label: 'Rebuffer ratio (%)', kind: 'percent', figure: 'rebufferPct' },
  { key: 'rebufferP50Pct', label: 'Rebuffer p50 (%)', kind: 'percent', figure: 'rebufferP50Pct' },
  { key: 'rebufferP95Pct', label: 'Rebuffer p95 (%)', kind: 'percent', figure: 'rebufferP95Pct' },
  { key: 'errorPct', label: 'Error sessions (%)', kind: 'percent', figure: 'errorPct' },
  { key: 'bitrateKbps', label: 'Bitrate avg (kbps)', kind: 'kbps', figure: 'bitrateKbps' },
];

/** Four sessions: startups 2 in 500-1000 ms and 2 in 1-2 s; rebuffer ratios 2 under 0.1 % and 2 in 0.1-1 %. */
const QOS_SLICE = sums({
  sessions: 4, viewers: 3, watchedSeconds: 3564, rebufferSeconds: 36, startupMsSum: 6000, errorSessions: 1, bitrateKbpsSum: 12000,
  startupHistogram: [0, 2, 2, 0, 0, 0], rebufferHistogram: [2, 2, 0, 0, 0, 0],
});
const QOS_MEASURES = {
  sessions: 4, startupAvgMs: 1500, startupP50Ms: 1000, startupP95Ms: 1900, rebufferPct: 1, rebufferP50Pct: 0.1, rebufferP95Pct: 0.91,
  errorPct: 25, bitrateKbps: 3000,
};
const QOS_NONE = {
  sessions: 0, startupAvgMs: null, startupP50Ms: null, startupP95Ms: null, rebufferPct: null, rebufferP50Pct: null, rebufferP95Pct: null,
  errorPct: null, bitrateKbps: null,
};

/** Issue 41: the breakdowns' share of sessions. */
const SHARE_COLUMN = { key: 'sharePct', label: 'Share of sessions (%)', kind: 'percent', figure: 'sessionSharePct' };

describe('qos', () => {
  it('by period (the default): every measure of each day, from sums and histograms', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([{ day: '2026-03-03', ...QOS_SLICE }]);
    const answer = await buildReport('qos', ctx());
    expect(answer.columns).toEqual([{ key: 'period', label: 'Period', kind: 'period' }, ...QOS_FIGURES]);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', ...QOS_NONE }, { period: '2026-03-03', ...QOS_MEASURES }, { period: '2026-03-04', ...QOS_NONE },
    ]);
    expect(answer.totals).toEqual(QOS_MEASURES);
  });

  it('two days add up, histograms included', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([
      { day: '2026-03-02', ...sums({ sessions: 2, startupMsSum: 1400, startupHistogram: [0, 2], rebufferCount: 1 }) },
      { day: '2026-03-03', ...sums({ sessions: 2, startupMsSum: 3000, startupHistogram: [0, 0, 2], rebufferHistogram: [0, 2], watchedSeconds: 100 }) },
    ]);
    const answer = await buildReport('qos', ctx({ by: 'period' }));
    expect(answer.totals).toMatchObject({ sessions: 4, startupAvgMs: 1100, startupP50Ms: 1000, startupP95Ms: 1900, rebufferP50Pct: 0.55, rebufferPct: 0 });
  });

  it('by a breakdown: one row per key, most sessions first, viewers averaged over the range', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([
      { key: 'tv', days: 1, ...sums({ sessions: 1, viewers: 3, startupMsSum: 700, startupHistogram: [0, 1] }) },
      { key: 'web', days: 3, ...QOS_SLICE },
    ]);
    const answer = await buildReport('qos', ctx({ by: 'device' }));
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'device', null);
    expect(contentInfo).not.toHaveBeenCalled();
    // Issue 41: each row's share of the sessions (a column) and its stored value (not a column: pages filter on it).
    expect(answer.columns).toEqual([{ key: 'key', label: 'Device', kind: 'text' }, ...QOS_FIGURES, SHARE_COLUMN]);
    expect(answer.rows).toEqual([
      { key: 'web', value: 'web', ...QOS_MEASURES, sharePct: 80 },
      { key: 'tv', value: 'tv', ...QOS_NONE, sessions: 1, startupAvgMs: 700, startupP50Ms: 750, startupP95Ms: 975, rebufferPct: null, errorPct: 0, bitrateKbps: 0, sharePct: 20 },
    ]);
    expect(answer.totals).toEqual({ ...QOS_MEASURES, sessions: 5, startupAvgMs: 1340, startupP50Ms: 917, startupP95Ms: 1875, errorPct: 20, bitrateKbps: 2400, sharePct: 100 });
  });

  it.each([['country', 'Country'], ['isp', 'ISP'], ['cdn', 'CDN'], ['content', 'Title']] as const)('by %s: the key column is "%s"', async (by, label) => {
    vi.mocked(playbackByKey).mockResolvedValue([]);
    const answer = await buildReport('qos', ctx({ by }));
    expect(answer.columns[0]).toEqual({ key: 'key', label, kind: 'text' });
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toEqual({ ...QOS_NONE, sharePct: null });
  });

  it('by a breakdown with a filter on the same dimension reads only that key; another dimension is refused', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([]);
    await buildReport('qos', ctx({ by: 'country', filter: { name: 'country', value: 'FR' } }));
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'country', 'FR');
    await expect(buildReport('qos', ctx({ by: 'country', filter: { name: 'device', value: 'tv' } }))).rejects.toMatchObject({
      message: "device: cannot be combined with by=country; filter on the breakdown's own dimension",
    });
  });

  it('by period with a filter reads the filtered series', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([]);
    await buildReport('qos', ctx({ filter: { name: 'country', value: 'FR' } }));
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'country', 'FR');
  });

  it('qos_video_level_report: by title, a removed title named so', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([
      { key: 'c1', days: 1, ...sums({ sessions: 2 }) }, { key: 'gone', days: 1, ...sums({ sessions: 1 }) },
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', { title: 'Alpha', kind: 'movie', genre: 'Drama', durationSeconds: 60 }]]));
    const answer = await buildReport('qos_video_level_report', ctx());
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'content', null);
    expect(contentInfo).toHaveBeenCalledWith(db, SITE, ['c1', 'gone']);
    expect(answer.columns[0]).toEqual({ key: 'key', label: 'Title', kind: 'text' });
    expect(answer.rows.map((r) => [r.key, r.sessions])).toEqual([['Alpha', 2], ['Removed title', 1]]);
  });
});

describe('qos_bucket_metric_report', () => {
  const BUCKET_LABELS = ['< 0.5 s', '0.5 s–1 s', '1 s–2 s', '2 s–4 s', '4 s–8 s', '≥ 8 s'];

  it('the share of sessions in each startup bucket, per device by default, and over all', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([
      { key: 'tv', days: 1, ...sums({ sessions: 1, startupHistogram: [0, 0, 0, 0, 0, 1] }) },
      { key: 'web', days: 1, ...QOS_SLICE },
    ]);
    const answer = await buildReport('qos_bucket_metric_report', ctx());
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'device', null);
    expect(answer.columns).toEqual([
      { key: 'key', label: 'Device', kind: 'text' }, { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
      ...BUCKET_LABELS.map((label, i) => ({ key: `b${i}`, label: `Startup ${label} (%)`, kind: 'percent', figure: 'startupBucketPct' })),
      { key: 'startupP50Ms', label: 'Startup p50 (ms)', kind: 'ms', figure: 'startupP50Ms' },
      { key: 'startupP95Ms', label: 'Startup p95 (ms)', kind: 'ms', figure: 'startupP95Ms' },
    ]);
    expect(answer.rows).toEqual([
      { key: 'web', sessions: 4, b0: 0, b1: 50, b2: 50, b3: 0, b4: 0, b5: 0, startupP50Ms: 1000, startupP95Ms: 1900 },
      { key: 'tv', sessions: 1, b0: 0, b1: 0, b2: 0, b3: 0, b4: 0, b5: 100, startupP50Ms: 8000, startupP95Ms: 8000 },
    ]);
    expect(answer.totals).toEqual({ sessions: 5, b0: 0, b1: 40, b2: 40, b3: 0, b4: 0, b5: 20, startupP50Ms: 1250, startupP95Ms: 8000 });
  });

  it('by another dimension; nothing in the range: no rows, shares unknown', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([]);
    const answer = await buildReport('qos_bucket_metric_report', ctx({ by: 'cdn' }));
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'cdn', null);
    expect(answer.columns[0]).toEqual({ key: 'key', label: 'CDN', kind: 'text' });
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toEqual({ sessions: 0, b0: null, b1: null, b2: null, b3: null, b4: null, b5: null, startupP50Ms: null, startupP95Ms: null });
  });
});

describe('user_base', () => {
  const signups = [{ day: '2026-03-02', signups: 2 }, { day: '2026-03-04', signups: 1 }];
  const playback = [{ day: '2026-03-02', ...sums({ viewers: 3 }) }, { day: '2026-03-03', ...sums({ viewers: 1 }) }];
  const subs = (day: string, activeAtEnd: number, trialingAtEnd: number) => ({
    day, trialsStarted: 0, paidStarted: 0, conversions: 0, cancellations: 0, expirations: 0, activeAtEnd, trialingAtEnd,
  });

  it('sign-ups and viewers per period, subscribers and trials at the end of each', async () => {
    vi.mocked(signupsByDay).mockResolvedValue(signups);
    vi.mocked(playbackByDay).mockResolvedValue(playback);
    vi.mocked(subscriptionsByDay).mockResolvedValue([subs('2026-03-02', 5, 2), subs('2026-03-04', 7, 1)]);
    const answer = await buildReport('user_base', ctx());
    expect(signupsByDay).toHaveBeenCalledWith(db, SCOPE, null);
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'all', '');
    expect(subscriptionsByDay).toHaveBeenCalledWith(db, SCOPE, null);
    expect(answer.columns).toEqual([
      { key: 'period', label: 'Period', kind: 'period' }, { key: 'signups', label: 'Sign-ups', kind: 'count', figure: 'signups' },
      { key: 'viewers', label: 'Viewers (daily average)', kind: 'count', figure: 'viewers' },
      { key: 'subscribers', label: 'Paying subscribers (end)', kind: 'count', figure: 'subscribers' },
      { key: 'trialing', label: 'In trial (end)', kind: 'count', figure: 'trialing' },
    ]);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', signups: 2, viewers: 3, subscribers: 5, trialing: 2 },
      { period: '2026-03-03', signups: 0, viewers: 1, subscribers: 0, trialing: 0 },
      { period: '2026-03-04', signups: 1, viewers: 0, subscribers: 7, trialing: 1 },
    ]);
    expect(answer.totals).toEqual({ signups: 3, viewers: 1.3, subscribers: 7, trialing: 1 });
  });

  it('weeks: subscribers at the last day of each period inside the range', async () => {
    vi.mocked(signupsByDay).mockResolvedValue([{ day: '2026-03-01', signups: 1 }, { day: '2026-03-02', signups: 2 }, { day: '2026-03-03', signups: 3 }]);
    vi.mocked(playbackByDay).mockResolvedValue([
      { day: '2026-03-02', ...sums({ viewers: 3 }) }, { day: '2026-03-04', ...sums({ viewers: 3 }) },
    ]);
    vi.mocked(subscriptionsByDay).mockResolvedValue([subs('2026-03-01', 4, 3), subs('2026-03-03', 6, 2), subs('2026-03-04', 9, 1)]);
    const answer = await buildReport('user_base', ctx({ from: '2026-03-01', granularity: 'week' }));
    expect(answer.rows).toEqual([
      { period: '2026-02-23', signups: 1, viewers: 0, subscribers: 4, trialing: 3 },
      { period: '2026-03-02', signups: 5, viewers: 2, subscribers: 9, trialing: 1 },
    ]);
    expect(answer.totals).toEqual({ signups: 6, viewers: 1.5, subscribers: 9, trialing: 1 });
  });

  it('a country: its sign-ups and viewers, no subscription columns', async () => {
    vi.mocked(signupsByDay).mockResolvedValue(signups);
    vi.mocked(playbackByDay).mockResolvedValue(playback);
    const answer = await buildReport('user_base', ctx({ filter: { name: 'country', value: 'FR' } }));
    expect(signupsByDay).toHaveBeenCalledWith(db, SCOPE, 'FR');
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'country', 'FR');
    expect(subscriptionsByDay).not.toHaveBeenCalled();
    expect(answer.columns.map((c) => c.key)).toEqual(['period', 'signups', 'viewers']);
    expect(answer.rows[0]).toEqual({ period: '2026-03-02', signups: 2, viewers: 3 });
    expect(answer.totals).toEqual({ signups: 3, viewers: 1.3 });
  });

  it('a plan: its viewers and subscriptions, no sign-ups (they have no plan)', async () => {
    vi.mocked(playbackByDay).mockResolvedValue(playback);
    vi.mocked(subscriptionsByDay).mockResolvedValue([subs('2026-03-04', 7, 1)]);
    const answer = await buildReport('user_base', ctx({ filter: { name: 'plan', value: 'p1' } }));
    expect(signupsByDay).not.toHaveBeenCalled();
    expect(playbackByDay).toHaveBeenCalledWith(db, SCOPE, 'plan', 'p1');
    expect(subscriptionsByDay).toHaveBeenCalledWith(db, SCOPE, 'p1');
    expect(answer.columns.map((c) => c.key)).toEqual(['period', 'viewers', 'subscribers', 'trialing']);
    expect(answer.rows[2]).toEqual({ period: '2026-03-04', viewers: 0, subscribers: 7, trialing: 1 });
    expect(answer.totals).toEqual({ viewers: 1.3, subscribers: 7, trialing: 1 });
  });

  it('a filter without data: no rows (the source the filter leaves out counts nothing)', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([]);
    vi.mocked(subscriptionsByDay).mockResolvedValue([]);
    expect((await buildReport('user_base', ctx({ filter: { name: 'plan', value: 'p1' } }))).rows).toEqual([]);
    vi.mocked(signupsByDay).mockResolvedValue([]);
    expect((await buildReport('user_base', ctx({ filter: { name: 'country', value: 'FR' } }))).rows).toEqual([]);
  });

  it('nothing at all: no rows; any one source is enough for rows', async () => {
    vi.mocked(signupsByDay).mockResolvedValue([]);
    vi.mocked(playbackByDay).mockResolvedValue([]);
    vi.mocked(subscriptionsByDay).mockResolvedValue([]);
    const empty = await buildReport('user_base', ctx());
    expect(empty.rows).toEqual([]);
    expect(empty.totals).toEqual({ signups: 0, viewers: 0, subscribers: 0, trialing: 0 });
    for (const only of ['signups', 'playback', 'subs'] as const) {
      vi.mocked(signupsByDay).mockResolvedValue(only === 'signups' ? signups : []);
      vi.mocked(playbackByDay).mockResolvedValue(only === 'playback' ? playback : []);
      vi.mocked(subscriptionsByDay).mockResolvedValue(only === 'subs' ? [subs('2026-03-02', 1, 0)] : []);
      expect((await buildReport('user_base', ctx())).rows).toHaveLength(3);
    }
  });
});

describe('change_in_user_base', () => {
  const day = (d: string, over: Partial<Record<'trialsStarted' | 'paidStarted' | 'conversions' | 'cancellations' | 'expirations' | 'activeAtEnd', number>>) => ({
    day: d, trialsStarted: 0, paidStarted: 0, conversions: 0, cancellations: 0, expirations: 0, activeAtEnd: 0, trialingAtEnd: 0, ...over,
  });
  const DAYS = [
    day('2026-03-01', { activeAtEnd: 10, paidStarted: 50 }),
    day('2026-03-02', { trialsStarted: 2, paidStarted: 1, conversions: 1, cancellations: 1, expirations: 2, activeAtEnd: 11 }),
    day('2026-03-03', { activeAtEnd: 11 }),
    day('2026-03-04', { paidStarted: 2, expirations: 1, activeAtEnd: 12 }),
  ];

  it('reads from the day before the range (paying at the start); gains, losses, net and churn per period', async () => {
    vi.mocked(subscriptionsByDay).mockResolvedValue(DAYS);
    const answer = await buildReport('change_in_user_base', ctx({ filter: { name: 'plan', value: 'p1' } }));
    expect(subscriptionsByDay).toHaveBeenCalledWith(db, { ...SCOPE, from: '2026-03-01' }, 'p1');
    expect(answer.columns).toEqual([
      { key: 'period', label: 'Period', kind: 'period' },
      { key: 'trialsStarted', label: 'Trials started', kind: 'count', figure: 'trialsStarted' },
      { key: 'paidStarted', label: 'Paid starts', kind: 'count', figure: 'paidStarted' },
      { key: 'conversions', label: 'Trial conversions', kind: 'count', figure: 'conversions' },
      { key: 'gained', label: 'Paying gained', kind: 'count', figure: 'gained' },
      { key: 'cancellations', label: 'Cancellations', kind: 'count', figure: 'cancellations' },
      { key: 'lost', label: 'Subscriptions ended', kind: 'count', figure: 'lost' },
      { key: 'net', label: 'Net change (paying)', kind: 'count', figure: 'net' },
      { key: 'activeAtEnd', label: 'Paying at end', kind: 'count', figure: 'activeAtEnd' },
      { key: 'churnPct', label: 'Churn (%)', kind: 'percent', figure: 'churnPct' },
    ]);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', trialsStarted: 2, paidStarted: 1, conversions: 1, cancellations: 1, expirations: 2, gained: 2, lost: 2, net: 1, activeAtEnd: 11, churnPct: 8.33 },
      { period: '2026-03-03', trialsStarted: 0, paidStarted: 0, conversions: 0, cancellations: 0, expirations: 0, gained: 0, lost: 0, net: 0, activeAtEnd: 11, churnPct: 0 },
      { period: '2026-03-04', trialsStarted: 0, paidStarted: 2, conversions: 0, cancellations: 0, expirations: 1, gained: 2, lost: 1, net: 1, activeAtEnd: 12, churnPct: 7.69 },
    ]);
    expect(answer.totals).toEqual({
      trialsStarted: 2, paidStarted: 3, conversions: 1, cancellations: 1, expirations: 3, gained: 4, lost: 3, net: 2, activeAtEnd: 12, churnPct: 14.29,
    });
  });

  it('a week sums its days; paying at the start is the day before its first day', async () => {
    vi.mocked(subscriptionsByDay).mockResolvedValue(DAYS);
    const answer = await buildReport('change_in_user_base', ctx({ granularity: 'week' }));
    expect(subscriptionsByDay).toHaveBeenCalledWith(db, { ...SCOPE, from: '2026-03-01' }, null);
    expect(answer.rows).toEqual([{
      period: '2026-03-02', trialsStarted: 2, paidStarted: 3, conversions: 1, cancellations: 1, expirations: 3, gained: 4, lost: 3, net: 2, activeAtEnd: 12, churnPct: 14.29,
    }]);
  });

  it('a row on the first day of the range is enough for rows', async () => {
    vi.mocked(subscriptionsByDay).mockResolvedValue([DAYS[1]!]);
    expect((await buildReport('change_in_user_base', ctx())).rows).toHaveLength(3);
  });

  it('only the day before the range: no rows; no one paying: churn unknown', async () => {
    vi.mocked(subscriptionsByDay).mockResolvedValue([DAYS[0]!]);
    const answer = await buildReport('change_in_user_base', ctx());
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toMatchObject({ net: -10, activeAtEnd: 0, churnPct: 100 });
    vi.mocked(subscriptionsByDay).mockResolvedValue([]);
    expect((await buildReport('change_in_user_base', ctx())).totals).toMatchObject({ net: 0, churnPct: null });
  });
});

describe('video_engagement and dtl_video_engagement', () => {
  const ALPHA = { title: 'Alpha', kind: 'movie', genre: 'Drama', durationSeconds: 3600 };

  it('video_engagement: watch-through over the titles\' durations (a removed title counts none)', async () => {
    vi.mocked(watchByDayAndContent).mockResolvedValue([
      { day: '2026-03-02', key: 'c1', sessions: 2, watchedSeconds: 3600 },
      { day: '2026-03-02', key: 'c2', sessions: 1, watchedSeconds: 600 },
      { day: '2026-03-04', key: 'c1', sessions: 1, watchedSeconds: 1800 },
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', ALPHA]]));
    const answer = await buildReport('video_engagement', ctx());
    expect(watchByDayAndContent).toHaveBeenCalledWith(db, SCOPE);
    expect(contentInfo).toHaveBeenCalledWith(db, SITE, ['c1', 'c2']);
    expect(answer.columns).toEqual([
      { key: 'period', label: 'Period', kind: 'period' }, { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
      { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours', figure: 'watchHours' },
      { key: 'titles', label: 'Titles watched', kind: 'count', figure: 'titles' },
      { key: 'avgMinutes', label: 'Minutes per session', kind: 'minutes', figure: 'avgMinutes' },
      { key: 'watchThroughPct', label: 'Watch-through (%)', kind: 'percent', figure: 'watchThroughPct' },
    ]);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', sessions: 3, watchHours: 1.2, titles: 2, avgMinutes: 23.3, watchThroughPct: 58.3 },
      { period: '2026-03-03', sessions: 0, watchHours: 0, titles: 0, avgMinutes: null, watchThroughPct: null },
      { period: '2026-03-04', sessions: 1, watchHours: 0.5, titles: 1, avgMinutes: 30, watchThroughPct: 50 },
    ]);
    expect(answer.totals).toEqual({ sessions: 4, watchHours: 1.7, titles: 2, avgMinutes: 25, watchThroughPct: 55.6 });
  });

  it('video_engagement by month; nothing watched: no rows', async () => {
    vi.mocked(watchByDayAndContent).mockResolvedValue([
      { day: '2026-03-02', key: 'c1', sessions: 1, watchedSeconds: 360 }, { day: '2026-03-04', key: 'c1', sessions: 1, watchedSeconds: 360 },
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', ALPHA]]));
    expect((await buildReport('video_engagement', ctx({ granularity: 'month' }))).rows).toEqual([
      { period: '2026-03', sessions: 2, watchHours: 0.2, titles: 1, avgMinutes: 6, watchThroughPct: 10 },
    ]);
    vi.mocked(watchByDayAndContent).mockResolvedValue([]);
    const empty = await buildReport('video_engagement', ctx());
    expect(empty.rows).toEqual([]);
    expect(empty.totals).toEqual({ sessions: 0, watchHours: 0, titles: 0, avgMinutes: null, watchThroughPct: null });
  });

  it('dtl_video_engagement: the most watched titles first, links for the titles that still exist, watch-through capped at 100 %', async () => {
    vi.mocked(playbackByKey).mockResolvedValue([
      { key: 'gone', days: 1, ...sums({ sessions: 1, watchedSeconds: 600 }) },
      { key: 'c1', days: 1, ...sums({ sessions: 3, watchedSeconds: 5400 }) },
      { key: 'c2', days: 1, ...sums({ sessions: 1, watchedSeconds: 4000 }) },
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', ALPHA], ['c2', { title: 'Beta', kind: 'episode', genre: 'Comedy', durationSeconds: 3600 }]]));
    const answer = await buildReport('dtl_video_engagement', ctx());
    expect(playbackByKey).toHaveBeenCalledWith(db, SCOPE, 'content', null, false);
    expect(contentInfo).toHaveBeenCalledWith(db, SITE, ['c1', 'c2', 'gone']);
    expect(answer.columns).toEqual([
      { key: 'title', label: 'Title', kind: 'text' }, { key: 'kind', label: 'Kind', kind: 'text' }, { key: 'genre', label: 'Genre', kind: 'text' },
      { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
      { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours', figure: 'watchHours' },
      { key: 'avgMinutes', label: 'Minutes per session', kind: 'minutes', figure: 'avgMinutes' },
      { key: 'watchThroughPct', label: 'Watch-through (%)', kind: 'percent', figure: 'watchThroughPct' },
    ]);
    expect(answer.rows).toEqual([
      { title: 'Alpha', contentId: 'c1', contentType: 'movie', kind: 'movie', genre: 'Drama', sessions: 3, watchHours: 1.5, avgMinutes: 30, watchThroughPct: 50 },
      { title: 'Beta', contentId: 'c2', contentType: 'episode', kind: 'episode', genre: 'Comedy', sessions: 1, watchHours: 1.1, avgMinutes: 66.7, watchThroughPct: 100 },
      { title: 'Removed title', kind: '', genre: '', sessions: 1, watchHours: 0.2, avgMinutes: 10, watchThroughPct: 0 },
    ]);
    expect(answer.totals).toEqual({ sessions: 5, watchHours: 2.8, titles: 3, avgMinutes: 33.3 });
  });

  it('dtl_video_engagement lists the top 200 titles and counts them all', async () => {
    vi.mocked(playbackByKey).mockResolvedValue(Array.from({ length: 201 }, (_, i) => ({ key: `c${i}`, days: 1, ...sums({ sessions: 1, watchedSeconds: 1000 - i }) })));
    const answer = await buildReport('dtl_video_engagement', ctx());
    expect(answer.rows).toHaveLength(200);
    expect(vi.mocked(contentInfo).mock.calls[0]![2]).toHaveLength(200);
    expect(answer.totals.titles).toBe(201);
    expect(answer.totals.sessions).toBe(201);
  });
});

describe('real time', () => {
  /** Minute labels of the window: 30 minutes ending with the one `now` is in (11:31 to 12:00 for 12:00:30). */
  const minutes = Array.from({ length: 30 }, (_, i) => new Date(Date.parse('2026-03-10T11:31:00Z') + i * 60_000).toISOString().slice(0, 16) + 'Z');
  const live = (contentId: string, subscriberId: string, startedAt: string, lastEventAt: string, over: Partial<{ startupMs: number; watchedSeconds: number; rebufferSeconds: number; errorCode: string | null }> = {}) => ({
    contentId, subscriberId, startedAt: `2026-03-10T${startedAt}Z`, lastEventAt: `2026-03-10T${lastEventAt}Z`,
    startupMs: 0, watchedSeconds: 0, rebufferSeconds: 0, errorCode: null, ...over,
  });

  it('realtime_content: streams and distinct viewers minute by minute, a session in each minute it spans (both ends included)', async () => {
    vi.mocked(liveSessions).mockResolvedValue([
      live('c1', 'A', '11:50:10', '11:52:00'), live('c1', 'A', '11:40:00', '12:00:20'),
      live('c2', 'B', '11:59:59', '12:00:00'), live('c2', 'C', '11:51:00', '11:51:30'),
    ]);
    const answer = await buildReport('realtime_content', ctx({ filter: { name: 'device', value: 'tv' } }));
    expect(liveSessions).toHaveBeenCalledWith(db, {
      siteId: SITE, networkId: NETWORK, since: new Date('2026-03-10T11:31:00Z'), device: 'tv', country: null, content: null,
    });
    const active: Record<string, string[]> = {};
    const span = (subscriber: string, from: string, to: string) => {
      for (const m of minutes) if (m >= `2026-03-10T${from}Z` && m <= `2026-03-10T${to}Z`) (active[m] ??= []).push(subscriber);
    };
    span('A', '11:40', '12:00');
    span('A', '11:50', '11:52');
    span('B', '11:59', '12:00');
    span('C', '11:51', '11:51');
    expect(answer.columns).toEqual([
      { key: 'period', label: 'Minute', kind: 'period' }, { key: 'streams', label: 'Streams', kind: 'count', figure: 'streamsMinute' },
      { key: 'viewers', label: 'Viewers', kind: 'count', figure: 'viewersMinute' },
    ]);
    expect(answer.rows).toEqual(minutes.map((period) => ({ period, streams: active[period]?.length ?? 0, viewers: new Set(active[period]).size })));
    expect(answer.rows[20]).toEqual({ period: '2026-03-10T11:51Z', streams: 3, viewers: 2 });
    expect(answer.totals).toEqual({ streams: 2, viewers: 2, peakStreams: 3, sessions: 4 });
  });

  it('without a filter: every device, country and title', async () => {
    vi.mocked(liveSessions).mockResolvedValue([]);
    await buildReport('realtime_content', ctx());
    expect(liveSessions).toHaveBeenLastCalledWith(db, expect.objectContaining({ device: null, country: null, content: null }));
    await buildReport('realtime_content_enhanced', ctx());
    expect(liveSessions).toHaveBeenLastCalledWith(db, expect.objectContaining({ device: null, country: null, content: null }));
  });

  it('realtime_content: the country and content filters; no sessions: no rows, zeros', async () => {
    vi.mocked(liveSessions).mockResolvedValue([]);
    const answer = await buildReport('realtime_content', ctx({ filter: { name: 'country', value: 'FR' } }, new Date('2026-03-10T12:00:00Z')));
    expect(liveSessions).toHaveBeenCalledWith(db, { siteId: SITE, networkId: NETWORK, since: new Date('2026-03-10T11:31:00Z'), device: null, country: 'FR', content: null });
    expect(answer.rows).toEqual([]);
    expect(answer.totals).toEqual({ streams: 0, viewers: 0, peakStreams: 0, sessions: 0 });
    await buildReport('realtime_content', ctx({ filter: { name: 'content', value: 'c1' } }));
    expect(liveSessions).toHaveBeenLastCalledWith(db, expect.objectContaining({ device: null, country: null, content: 'c1' }));
  });

  it('realtime_content_enhanced: per title over the last 30 minutes, startup percentiles by nearest rank, most streams first', async () => {
    vi.mocked(liveSessions).mockResolvedValue([
      live('c2', 'B', '11:50:00', '11:55:00', { startupMs: 300, watchedSeconds: 10 }),
      live('c1', 'A', '11:40:00', '11:45:00', { startupMs: 1200, watchedSeconds: 50, rebufferSeconds: 50, errorCode: 'E1' }),
      live('c1', 'A', '11:41:00', '11:45:00', { startupMs: 800, watchedSeconds: 100 }),
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', { title: 'Alpha', kind: 'movie', genre: 'Drama', durationSeconds: 60 }]]));
    const answer = await buildReport('realtime_content_enhanced', ctx({ filter: { name: 'content', value: 'c9' } }));
    expect(liveSessions).toHaveBeenCalledWith(db, { siteId: SITE, networkId: NETWORK, since: new Date('2026-03-10T11:30:30Z'), device: null, country: null, content: null });
    expect(contentInfo).toHaveBeenCalledWith(db, SITE, ['c2', 'c1']);
    expect(answer.columns).toEqual([
      { key: 'title', label: 'Title', kind: 'text' }, { key: 'streams', label: 'Streams (30 min)', kind: 'count', figure: 'streamsWindow' },
      { key: 'viewers', label: 'Viewers (30 min)', kind: 'count', figure: 'viewersWindow' },
      { key: 'startupP50Ms', label: 'Startup p50 (ms)', kind: 'ms', figure: 'startupP50Ms' },
      { key: 'startupP95Ms', label: 'Startup p95 (ms)', kind: 'ms', figure: 'startupP95Ms' },
      { key: 'rebufferPct', label: 'Rebuffer ratio (%)', kind: 'percent', figure: 'rebufferPct' },
      { key: 'errorPct', label: 'Error sessions (%)', kind: 'percent', figure: 'errorPct' },
    ]);
    expect(answer.rows).toEqual([
      { title: 'Alpha', contentId: 'c1', contentType: 'movie', streams: 2, viewers: 1, startupP50Ms: 800, startupP95Ms: 1200, rebufferPct: 25, errorPct: 50 },
      { title: 'Removed title', streams: 1, viewers: 1, startupP50Ms: 300, startupP95Ms: 300, rebufferPct: 0, errorPct: 0 },
    ]);
    expect(answer.totals).toEqual({ streams: 3, viewers: 2, startupP50Ms: 800, startupP95Ms: 1200, rebufferPct: 23.81, errorPct: 33.3 });
  });

  it('realtime_content_enhanced: device and country filters, at most 50 titles, nothing live: no rows', async () => {
    vi.mocked(liveSessions).mockResolvedValue(Array.from({ length: 51 }, (_, i) => live(`c${i}`, 'A', '11:50:00', '11:55:00')));
    const answer = await buildReport('realtime_content_enhanced', ctx({ filter: { name: 'device', value: 'tv' } }));
    expect(liveSessions).toHaveBeenCalledWith(db, expect.objectContaining({ device: 'tv', country: null, content: null }));
    expect(answer.rows).toHaveLength(50);
    vi.mocked(liveSessions).mockResolvedValue([]);
    const empty = await buildReport('realtime_content_enhanced', ctx({ filter: { name: 'country', value: 'FR' } }));
    expect(liveSessions).toHaveBeenLastCalledWith(db, expect.objectContaining({ device: null, country: 'FR' }));
    expect(empty.rows).toEqual([]);
    expect(empty.totals).toEqual({ streams: 0, viewers: 0, startupP50Ms: null, startupP95Ms: null, rebufferPct: null, errorPct: null });
  });
});

describe('cohort_analysis', () => {
  it('retention of each monthly cohort (plans summed), a month without subscribers as 0, month 1 averaged over the cohorts that have it', async () => {
    vi.mocked(cohortRetention).mockResolvedValue([
      { cohort: '2026-01', key: 'p1', offset: 0, value: 10 }, { cohort: '2026-01', key: 'p2', offset: 0, value: 10 },
      { cohort: '2026-01', key: 'p1', offset: 1, value: 10 }, { cohort: '2026-01', key: 'p1', offset: 2, value: 5 },
      { cohort: '2026-02', key: 'p1', offset: 0, value: 8 }, { cohort: '2026-02', key: 'p1', offset: 2, value: 2 },
      { cohort: '2025-12', key: 'p1', offset: 0, value: 4 },
    ]);
    const answer = await buildReport('cohort_analysis', ctx({ filter: { name: 'plan', value: 'p1' } }));
    expect(cohortRetention).toHaveBeenCalledWith(db, SCOPE, 'p1');
    expect(answer.columns).toEqual([
      { key: 'cohort', label: 'Cohort (first subscription)', kind: 'text' },
      { key: 'subscribers', label: 'Subscribers', kind: 'count', figure: 'cohortSubscribers' },
      ...[0, 1, 2].map((i) => ({ key: `m${i}`, label: `Month ${i} (%)`, kind: 'percent', figure: 'retentionPct' })),
    ]);
    expect(answer.rows).toEqual([
      { cohort: '2025-12', subscribers: 4, m0: 100, m1: null, m2: null },
      { cohort: '2026-01', subscribers: 20, m0: 100, m1: 50, m2: 25 },
      { cohort: '2026-02', subscribers: 8, m0: 100, m1: 0, m2: 25 },
    ]);
    expect(answer.totals).toEqual({ cohorts: 3, subscribers: 32, m1: 25 });
  });

  it('at most 12 months shown; no cohort: no columns of months, month 1 unknown', async () => {
    vi.mocked(cohortRetention).mockResolvedValue([{ cohort: '2025-01', key: 'p1', offset: 0, value: 3 }, { cohort: '2025-01', key: 'p1', offset: 13, value: 1 }]);
    const answer = await buildReport('cohort_analysis', ctx());
    expect(cohortRetention).toHaveBeenCalledWith(db, SCOPE, null);
    expect(answer.columns).toHaveLength(14);
    expect(answer.rows[0]).toMatchObject({ subscribers: 3, m0: 100, m1: 0, m11: 0 });
    expect(answer.rows[0]).not.toHaveProperty('m12');
    vi.mocked(cohortRetention).mockResolvedValue([]);
    const empty = await buildReport('cohort_analysis', ctx());
    expect(empty.columns.map((c) => c.key)).toEqual(['cohort', 'subscribers']);
    expect(empty.totals).toEqual({ cohorts: 0, subscribers: 0, m1: null });
  });
});

describe('ltv_enhanced', () => {
  it('lifetime value per cohort and plan in the first currency of the last three years', async () => {
    vi.mocked(currenciesOf).mockResolvedValue(['EUR', 'USD']);
    vi.mocked(cohortRevenue).mockResolvedValue([
      { cohort: '2026-01', key: 'p1', subscribers: 3, revenue: 1000 }, { cohort: '2026-02', key: 'gone', subscribers: 0, revenue: 0 },
    ]);
    vi.mocked(planNames).mockResolvedValue(new Map([['p1', 'Gold']]));
    const answer = await buildReport('ltv_enhanced', ctx({ filter: { name: 'plan', value: 'p1' } }));
    expect(currenciesOf).toHaveBeenCalledWith(db, { ...SCOPE, from: '2023-03-05' });
    expect(cohortRevenue).toHaveBeenCalledWith(db, SCOPE, 'p1', 'EUR');
    expect(planNames).toHaveBeenCalledWith(db, SITE);
    expect(answer.currency).toBe('EUR');
    expect(answer.currencies).toEqual(['EUR', 'USD']);
    expect(answer.columns).toEqual([
      { key: 'cohort', label: 'Cohort (first subscription)', kind: 'text' }, { key: 'plan', label: 'Plan', kind: 'text' },
      { key: 'subscribers', label: 'Subscribers billed in this currency', kind: 'count', figure: 'ltvSubscribers' },
      { key: 'revenue', label: 'Lifetime net revenue', kind: 'money', figure: 'cohortNetRevenue' },
      { key: 'ltv', label: 'Lifetime value per subscriber', kind: 'money', figure: 'ltv' },
    ]);
    expect(answer.rows).toEqual([
      { cohort: '2026-01', plan: 'Gold', subscribers: 3, revenue: 1000, ltv: 333 },
      { cohort: '2026-02', plan: 'Removed plan', subscribers: 0, revenue: 0, ltv: null },
    ]);
    expect(answer.totals).toEqual({ subscribers: 3, revenue: 1000, ltv: 333 });
  });

  it('a currency asked for: used when the site has it, refused when not, taken as is when the site has none; USD by default', async () => {
    vi.mocked(cohortRevenue).mockResolvedValue([]);
    vi.mocked(currenciesOf).mockResolvedValue(['EUR', 'USD']);
    expect((await buildReport('ltv_enhanced', ctx({ currency: 'USD' }))).currency).toBe('USD');
    expect(cohortRevenue).toHaveBeenLastCalledWith(db, SCOPE, null, 'USD');
    await expect(buildReport('ltv_enhanced', ctx({ currency: 'GBP' }))).rejects.toMatchObject({ message: 'currency: no payments in GBP; this site has EUR, USD' });
    vi.mocked(currenciesOf).mockResolvedValue([]);
    expect((await buildReport('ltv_enhanced', ctx({ currency: 'GBP' }))).currency).toBe('GBP');
    const none = await buildReport('ltv_enhanced', ctx());
    expect(none.currency).toBe('USD');
    expect(none.currencies).toEqual([]);
    expect(none.totals).toEqual({ subscribers: 0, revenue: 0, ltv: null });
  });
});

describe('payment_summary_report', () => {
  const pay = (day: string, currency: string, status: string, payments: number, amount: number, key = ''): PaymentDayRow => ({ day, key, currency, status, payments, amount });
  const DAYS = [
    pay('2026-03-02', 'EUR', 'succeeded', 2, 2000), pay('2026-03-02', 'EUR', 'refunded', 1, 500), pay('2026-03-02', 'EUR', 'failed', 1, 999),
    pay('2026-03-04', 'EUR', 'refund', 1, 300), pay('2026-03-02', 'USD', 'succeeded', 1, 700),
  ];
  const COLUMNS = [
    { key: 'payments', label: 'Successful payments', kind: 'count', figure: 'payments' },
    { key: 'revenue', label: 'Revenue', kind: 'money', figure: 'revenue' },
    { key: 'refunds', label: 'Refunds', kind: 'money', figure: 'refunds' },
    { key: 'netRevenue', label: 'Net revenue', kind: 'money', figure: 'netRevenue' },
    { key: 'failed', label: 'Failed payments', kind: 'count', figure: 'failed' },
    { key: 'successPct', label: 'Success rate (%)', kind: 'percent', figure: 'successPct' },
  ];
  const EUR_TOTALS = { payments: 3, revenue: 2500, refunds: 800, netRevenue: 1700, failed: 1, successPct: 75 };
  const USD_TOTALS = { payments: 1, revenue: 700, refunds: 0, netRevenue: 700, failed: 0, successPct: 100 };

  beforeEach(() => {
    vi.mocked(currenciesOf).mockResolvedValue(['EUR', 'USD']);
  });

  it('by period: charges taken (refunded ones too), refunds of both kinds, net, failures, success rate; each currency\'s totals apart', async () => {
    vi.mocked(paymentsBy).mockResolvedValue(DAYS);
    const answer = await buildReport('payment_summary_report', ctx({ filter: { name: 'plan', value: 'p1' } }));
    expect(paymentsBy).toHaveBeenCalledWith(db, SCOPE, 'p1', 'day');
    expect(answer.currency).toBe('EUR');
    expect(answer.currencies).toEqual(['EUR', 'USD']);
    expect(answer.columns).toEqual([{ key: 'period', label: 'Period', kind: 'period' }, ...COLUMNS]);
    expect(answer.rows).toEqual([
      { period: '2026-03-02', payments: 3, revenue: 2500, refunds: 500, netRevenue: 2000, failed: 1, successPct: 75 },
      { period: '2026-03-03', payments: 0, revenue: 0, refunds: 0, netRevenue: 0, failed: 0, successPct: null },
      { period: '2026-03-04', payments: 0, revenue: 0, refunds: 300, netRevenue: -300, failed: 0, successPct: null },
    ]);
    expect(answer.totals).toEqual(EUR_TOTALS);
    expect(answer.currencyTotals).toEqual({ EUR: EUR_TOTALS, USD: USD_TOTALS });
    expect(Object.keys(answer.currencyTotals ?? {})).toEqual(['EUR', 'USD']);
    vi.mocked(paymentsBy).mockResolvedValue([...DAYS].reverse());
    expect(Object.keys((await buildReport('payment_summary_report', ctx())).currencyTotals ?? {})).toEqual(['EUR', 'USD']);
  });

  it('by period in another currency; none of it in the range: no rows', async () => {
    vi.mocked(paymentsBy).mockResolvedValue(DAYS);
    const usd = await buildReport('payment_summary_report', ctx({ currency: 'USD', granularity: 'month' }));
    expect(usd.rows).toEqual([{ period: '2026-03', ...USD_TOTALS }]);
    expect(usd.totals).toEqual(USD_TOTALS);
    vi.mocked(paymentsBy).mockResolvedValue(DAYS.filter((r) => r.currency === 'USD'));
    const eur = await buildReport('payment_summary_report', ctx());
    expect(eur.rows).toEqual([]);
    expect(eur.currencyTotals).toEqual({ USD: USD_TOTALS });
  });

  it('by plan: one row per plan in the currency, best net revenue first, a payment without plan as "No plan"', async () => {
    vi.mocked(paymentsBy).mockResolvedValue([
      pay('2026-03-02', 'EUR', 'succeeded', 1, 1000, 'p1'), pay('2026-03-03', 'EUR', 'succeeded', 2, 3000, 'p2'),
      pay('2026-03-03', 'EUR', 'succeeded', 1, 200, ''), pay('2026-03-03', 'USD', 'succeeded', 1, 9000, 'p1'),
    ]);
    vi.mocked(planNames).mockResolvedValue(new Map([['p1', 'Gold'], ['p2', 'Silver']]));
    const answer = await buildReport('payment_summary_report', ctx({ by: 'plan' }));
    expect(paymentsBy).toHaveBeenCalledWith(db, SCOPE, null, 'plan');
    expect(planNames).toHaveBeenCalledWith(db, SITE);
    expect(answer.columns).toEqual([{ key: 'key', label: 'Plan', kind: 'text' }, ...COLUMNS]);
    const row = (key: string, payments: number, amount: number) => ({ key, payments, revenue: amount, refunds: 0, netRevenue: amount, failed: 0, successPct: 100 });
    expect(answer.rows).toEqual([row('Silver', 2, 3000), row('Gold', 1, 1000), row('No plan', 1, 200)]);
    expect(answer.totals).toEqual({ payments: 4, revenue: 4200, refunds: 0, netRevenue: 4200, failed: 0, successPct: 100 });
    expect(answer.currencyTotals).toEqual({ EUR: answer.totals, USD: { payments: 1, revenue: 9000, refunds: 0, netRevenue: 9000, failed: 0, successPct: 100 } });
  });

  it('by title: each day\'s net revenue shared by watch time that day, the share of the total', async () => {
    vi.mocked(paymentsBy).mockResolvedValue(DAYS);
    vi.mocked(watchByDayAndContent).mockResolvedValue([
      { day: '2026-03-02', key: 'c1', sessions: 1, watchedSeconds: 300 }, { day: '2026-03-02', key: 'c2', sessions: 2, watchedSeconds: 100 },
      { day: '2026-03-04', key: 'c1', sessions: 1, watchedSeconds: 100 }, { day: '2026-03-03', key: 'c2', sessions: 0, watchedSeconds: 0 },
    ]);
    vi.mocked(contentInfo).mockResolvedValue(info([['c1', { title: 'Alpha', kind: 'movie', genre: 'Drama', durationSeconds: 60 }]]));
    const answer = await buildReport('payment_summary_report', ctx({ by: 'content' }));
    expect(watchByDayAndContent).toHaveBeenCalledWith(db, SCOPE);
    expect(contentInfo).toHaveBeenCalledWith(db, SITE, ['c1', 'c2']);
    expect(answer.currency).toBe('EUR');
    expect(answer.currencyTotals).toBeUndefined();
    expect(answer.columns).toEqual([
      { key: 'title', label: 'Title', kind: 'text' }, { key: 'sessions', label: 'Sessions', kind: 'count', figure: 'sessions' },
      { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours', figure: 'watchHours' },
      { key: 'revenue', label: 'Attributed net revenue', kind: 'money', figure: 'attributedRevenue' },
      { key: 'sharePct', label: 'Share of revenue (%)', kind: 'percent', figure: 'sharePct' },
    ]);
    expect(answer.rows).toEqual([
      { title: 'Alpha', contentId: 'c1', contentType: 'movie', sessions: 2, watchHours: 0.1, revenue: 1200, sharePct: 70.59 },
      { title: 'Removed title', sessions: 2, watchHours: 0, revenue: 500, sharePct: 29.41 },
    ]);
    expect(answer.totals).toEqual({ revenue: 1700, netRevenue: 1700, titles: 2 });
  });

  it('by title: the 200 best earning titles; nothing watched: no rows, the net revenue still counted', async () => {
    vi.mocked(paymentsBy).mockResolvedValue([pay('2026-03-02', 'EUR', 'succeeded', 1, 2010)]);
    vi.mocked(watchByDayAndContent).mockResolvedValue(Array.from({ length: 201 }, (_, i) => ({ day: '2026-03-02', key: `c${i}`, sessions: 1, watchedSeconds: i + 1 })));
    const answer = await buildReport('payment_summary_report', ctx({ by: 'content' }));
    expect(answer.rows).toHaveLength(200);
    expect(answer.rows[0]).toMatchObject({ sessions: 1, revenue: 20 });
    expect(answer.totals).toEqual({ revenue: 2010, netRevenue: 2010, titles: 201 });
    vi.mocked(watchByDayAndContent).mockResolvedValue([]);
    const none = await buildReport('payment_summary_report', ctx({ by: 'content' }));
    expect(none.rows).toEqual([]);
    expect(none.totals).toEqual({ revenue: 0, netRevenue: 2010, titles: 0 });
  });
});

describe('buildReport', () => {
  it('echoes the parameters (not the parsed filter) and the time of the answer', async () => {
    vi.mocked(watchByDayAndContent).mockResolvedValue([]);
    const answer = await buildReport('video_engagement', ctx({ content: 'c1', filter: { name: 'content', value: 'c1' } }));
    expect(answer.report).toBe('video_engagement');
    expect(answer.params).toEqual({ from: '2026-03-02', to: '2026-03-04', granularity: 'day', content: 'c1' });
    expect(answer.generatedAt).toBe('2026-03-10T12:00:30.000Z');
    expect(answer).not.toHaveProperty('previousTotals');
    expect(answer).not.toHaveProperty('options');
  });

  it('compare=previous: the totals of the equally long range just before, in the answer\'s currency', async () => {
    vi.mocked(currenciesOf).mockResolvedValue(['EUR']);
    vi.mocked(paymentsBy).mockImplementation(async (_db, scope) => scope.from === '2026-03-02'
      ? [{ day: '2026-03-02', key: '', currency: 'EUR', status: 'succeeded', payments: 1, amount: 10 }]
      : [{ day: '2026-02-27', key: '', currency: 'EUR', status: 'succeeded', payments: 2, amount: 30 }]);
    const answer = await buildReport('payment_summary_report', ctx({ compare: 'previous' }));
    expect(paymentsBy).toHaveBeenLastCalledWith(db, { ...SCOPE, from: '2026-02-27', to: '2026-03-01' }, null, 'day');
    expect(answer.totals).toMatchObject({ payments: 1, revenue: 10 });
    expect(answer.previousTotals).toMatchObject({ payments: 2, revenue: 30 });
    vi.mocked(currenciesOf).mockImplementation(async (_db, scope) => (scope.to === '2026-03-04' ? ['GBP'] : ['EUR']));
    const gbp = await buildReport('payment_summary_report', ctx({ compare: 'previous', currency: 'GBP' }));
    expect(gbp.previousTotals).toEqual({ payments: 0, revenue: 0, refunds: 0, netRevenue: 0, failed: 0, successPct: null });
  });

  it('include=options: the plan and content choices of the report\'s filters only', async () => {
    vi.mocked(playbackByDay).mockResolvedValue([]);
    vi.mocked(planOptions).mockResolvedValue([{ value: 'p1', label: 'Gold' }]);
    vi.mocked(contentOptions).mockResolvedValue([{ value: 'c1', label: 'Alpha' }]);
    const answer = await buildReport('user_behavior', ctx({ include: 'options', content: 'c7' }));
    expect(planOptions).toHaveBeenCalledWith(db, SITE);
    expect(contentOptions).toHaveBeenCalledWith(db, SCOPE, 100, 'c7');
    expect(answer.options).toEqual({ plan: [{ value: 'p1', label: 'Gold' }], content: [{ value: 'c1', label: 'Alpha' }] });
    await buildReport('user_behavior', ctx({ include: 'options' }));
    expect(contentOptions).toHaveBeenLastCalledWith(db, SCOPE, 100, null);
    vi.mocked(subscriptionsByDay).mockResolvedValue([]);
    const plans = await buildReport('change_in_user_base', ctx({ include: 'options' }));
    expect(plans.options).toEqual({ plan: [{ value: 'p1', label: 'Gold' }] });
    expect(contentOptions).toHaveBeenCalledTimes(2);
    vi.mocked(watchByDayAndContent).mockResolvedValue([]);
    expect((await buildReport('video_engagement', ctx({ include: 'options' }))).options).toEqual({});
    expect(planOptions).toHaveBeenCalledTimes(3);
  });
});
