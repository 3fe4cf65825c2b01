/**
 * Median latency of every report (GET /appcms/v2/reports/<report>, last 30 days, default params)
 * on a fresh embedded database seeded with the demo world at the given scales:
 *
 *   npx tsx scripts/bench-reports.ts            # scale 1
 *   npx tsx scripts/bench-reports.ts 1 10       # scale 1, then 10
 *
 * Requests go through app.inject() (no network), so the figures are server time: authentication,
 * validation, the rollup queries and JSON. Each report is asked once to warm up, then RUNS times.
 * Two medians are printed: wall time, and the CPU time of this process (server and embedded database
 * run in it), which stays meaningful when other work shares the machine's cores.
 */
import { REPORT_NAMES, REPORTS_PATH } from '../common/reports';
import { buildApp } from '../server/app';
import { openDb } from '../server/db/client';
import { seedWorld } from '../server/db/seed-world';
import { seedDemo, testConfig, TEST_SEED_PASSWORD } from '../server/test/kit';

const RUNS = 15;
const QUERIES: Record<string, string> = {
  qos_bucket_metric_report: 'by=device', payment_summary_report: 'by=period',
};

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function benchScale(scale: number): Promise<void> {
  const dbHandle = await openDb({ dataDir: 'memory://' });
  const app = await buildApp({ db: dbHandle, config: testConfig() });
  await seedDemo(app);
  await app.ready();
  const started = Date.now();
  await seedWorld(dbHandle.db, { scale });
  console.log(`scale ${scale}: world seeded and rolled up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const login = await app.inject({ method: 'POST', url: '/v3.0/user/auth/login', payload: { username: 'admin@demo.test', password: TEST_SEED_PASSWORD } });
  const token = login.json<{ accessToken: string }>().accessToken;
  const info = await app.inject({ method: 'GET', url: '/v3.0/user/auth/login/info', headers: { authorization: `Bearer ${token}` } });
  const headers = { authorization: `Bearer ${token}`, xapikey: info.json<{ managementXApiKey: string }>().managementXApiKey };
  console.log('report'.padEnd(28), 'wall ms', ' cpu ms', ' rows');
  for (const report of REPORT_NAMES) {
    const url = `${REPORTS_PATH}/${report}?${QUERIES[report] ?? ''}`;
    const first = await app.inject({ method: 'GET', url, headers });
    if (first.statusCode !== 200) throw new Error(`${report}: ${first.statusCode} ${first.body}`);
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
    console.log(report.padEnd(28), median(wall).toFixed(1).padStart(7), median(cpu).toFixed(1).padStart(7), String(first.json<{ rows: unknown[] }>().rows.length).padStart(5));
  }
  await app.close();
  await dbHandle.close();
}

const scales = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const scale of scales.length ? scales : [1]) await benchScale(scale);
