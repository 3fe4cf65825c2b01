/**
 * Median latency of every report (GET /appcms/v2/reports/<report>, last 30 days, default params)
 * on a fresh embedded database seeded with the demo world at the given scales:
 *
 *   npx tsx scripts/bench-reports.ts            # scale 1
 *   npx tsx scripts/bench-reports.ts 1 10       # scale 1, then 10
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-reports.ts 100   # on PostgreSQL (an empty database)
 *   node scripts/with-fresh-postgres.mjs npx tsx scripts/bench-reports.ts 100
 *
 * Issue 41: after the reports, the QoE cases (FILTERED): the QoS report with three filters (include
 * and exclude, several values) and a breakdown the rollups do not keep, the values picker and one
 * page of Views under the same filters, all counted from raw playback sessions. Medians and p95.
 *
 * Requests go through app.inject() (no network), so the figures are server time: authentication,
 * validation, the rollup queries and JSON. Each report is asked once to warm up, then RUNS times.
 * Two medians are printed: wall time, and the CPU time of this process (server and embedded database
 * run in it), which stays meaningful when other work shares the machine's cores.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { REPORT_NAMES, REPORTS_PATH } from '../common/reports';
import { buildApp } from '../server/app';
import { openDb } from '../server/db/client';
import { seedWorld } from '../server/db/seed-world';
import { seedDemo, testConfig, TEST_SEED_PASSWORD } from '../server/test/kit';

const RUNS = 15;
/** Three filters and a breakdown (issue 41: "≤ 150 ms p95 with up to three filters and a breakdown"). */
const F = encodeURIComponent('device:web,android,ios;country:US,GB,CA;!isp:Comcast Xfinity,T-Mobile Home Internet');
/** One and two filters (issue 41: "up to three filters"), include and exclude. */
const F1 = encodeURIComponent('device:web,android,ios');
const F2 = encodeURIComponent('country:US,GB,CA;!cdn:Fastly');
const FILTERED: [string, string][] = [
  ['qos f=1 by=cdn', `${REPORTS_PATH}/qos?f=${F1}&by=cdn`],
  ['qos f=1 by=period', `${REPORTS_PATH}/qos?f=${F1}`],
  ['qos f=2 by=device', `${REPORTS_PATH}/qos?f=${F2}&by=device`],
  ['qos f=2 by=appVersion', `${REPORTS_PATH}/qos?f=${F2}&by=appVersion`],
  ['qos f=3 by=cdn', `${REPORTS_PATH}/qos?f=${F}&by=cdn`],
  ['qos f=3 by=os', `${REPORTS_PATH}/qos?f=${F}&by=os`],
  ['qos f=3 by=period', `${REPORTS_PATH}/qos?f=${F}`],
  ['qos f=3 by=isp 90 days', `${REPORTS_PATH}/qos?f=${F}&by=isp&from=DAY-89&to=DAY`],
  ['qos by=os (no f)', `${REPORTS_PATH}/qos?by=os`],
  ['qoe values isp f=3', `/appcms/v2/qoe/values?dimension=isp&f=${F}`],
  ['qoe views f=3 page 1', `/appcms/v2/qoe/views?f=${F}&sort=rebufferPct`],
];
const QUERIES: Record<string, string> = {
  qos_bucket_metric_report: 'by=device', payment_summary_report: 'by=period',
};

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
/** The nearest-rank 95th percentile (of RUNS = 15 runs: the 15th, i.e. the slowest but none). */
function p95(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
}

async function benchScale(scale: number): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dbHandle = databaseUrl ? await openDb({ databaseUrl }) : await openDb({ dataDir: 'memory://' });
  console.log(`database: ${dbHandle.driver}`);
  const app = await buildApp({ db: dbHandle, config: testConfig() });
  await seedDemo(app);
  await app.ready();
  const started = Date.now();
  // BENCH_SEEDED=1: the database (DATABASE_URL) already holds a world of this scale (a previous run with
  // BENCH_KEEP=1 on a database of its own): measure without seeding again.
  if (process.env.BENCH_SEEDED === '1') {
    console.log(`scale ${scale}: world already seeded (BENCH_SEEDED=1)`);
  } else {
    await seedWorld(dbHandle.db, { scale });
    console.log(`scale ${scale}: world seeded and rolled up in ${((Date.now() - started) / 1000).toFixed(1)} s, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  }
  const login = await app.inject({ method: 'POST', url: '/v3.0/user/auth/login', payload: { username: 'admin@demo.test', password: TEST_SEED_PASSWORD } });
  const token = login.json<{ accessToken: string }>().accessToken;
  const info = await app.inject({ method: 'GET', url: '/v3.0/user/auth/login/info', headers: { authorization: `Bearer ${token}` } });
  const headers = { authorization: `Bearer ${token}`, xapikey: info.json<{ managementXApiKey: string }>().managementXApiKey };
  console.log('report'.padEnd(28), 'wall ms', ' p95 ms', ' cpu ms', ' rows', ' load');
  const table = [`scale ${scale}, ${dbHandle.driver}, commit ${commit()}, ${RUNS} runs after a warm-up`, '', '| case | p50 ms | p95 ms | load (1 min) |', '| --- | ---: | ---: | ---: |'];
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const cases: [string, string][] = [
    // BENCH_ONLY=qoe: the QoE cases and qos only (the slow cohort reports take minutes at scale 100).
    ...REPORT_NAMES.filter((report) => process.env.BENCH_ONLY !== 'qoe' || report === 'qos')
      .map((report): [string, string] => [report, `${REPORTS_PATH}/${report}?${QUERIES[report] ?? ''}`]),
    ...FILTERED.map(([name, url]): [string, string] => [name, url.replace('DAY-89', daysAgo(89)).replace('=DAY', `=${today}`)]),
  ];
  for (const [name, url] of cases) {
    const first = await app.inject({ method: 'GET', url, headers });
    if (first.statusCode !== 200) throw new Error(`${name}: ${first.statusCode} ${first.body}`);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await app.inject({ method: 'GET', url, headers });
      const c = process.cpuUsage(c0);
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    const body = first.json<{ rows?: unknown[]; values?: unknown[] }>();
    const load = loadavg()[0]!.toFixed(2);
    console.log(name.padEnd(28), median(wall).toFixed(1).padStart(7), p95(wall).toFixed(1).padStart(7), median(cpu).toFixed(1).padStart(7),
      String((body.rows ?? body.values ?? []).length).padStart(5), load.padStart(5));
    table.push(`| ${name} | ${median(wall).toFixed(1)} | ${p95(wall).toFixed(1)} | ${load} |`);
  }
  console.log(`\n${table.join('\n')}\n`);
  await app.close();
  await dbHandle.close();
}

const scales = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const scale of scales.length ? scales : [1]) await benchScale(scale);
