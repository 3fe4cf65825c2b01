/**
 * Server-own time of simple authenticated reads: 2000 app.inject() calls each (no network),
 * on in-memory PGlite (or PostgreSQL when DATABASE_URL is set). Run: npx tsx scripts/bench-server.ts
 */
import { API_PATHS } from '../common/constants';
import { createTestApp } from '../server/test/kit';

const N = Number(process.env.BENCH_N ?? 2000);

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]! };
}

// The production default session lookup cache (AUTH_CACHE_MS=1000); BENCH_AUTH_CACHE_MS=0 measures without it.
const authCacheMs = Number(process.env.BENCH_AUTH_CACHE_MS ?? 1000);
const t = await createTestApp({ demo: true, config: { authCacheMs } });
console.log(`driver: ${t.driver}, auth cache ${authCacheMs} ms, ${N} requests per route`);
const session = await t.login('admin@demo.test');
const routes: [string, Record<string, string>][] = [
  [API_PATHS.verify, session.headers],
  [API_PATHS.verifySite, session.headers],
  [API_PATHS.loginInfo, { authorization: session.headers.authorization! }],
  [API_PATHS.device, {}],
];
for (const [url, headers] of routes) {
  for (let i = 0; i < 100; i++) await t.get(url, headers); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = performance.now();
    const res = await t.get(url, headers);
    samples.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  }
  const s = stats(samples);
  console.log(`${url.padEnd(28)} median ${s.median.toFixed(3)} ms  p95 ${s.p95.toFixed(3)} ms  max ${s.max.toFixed(1)} ms`);
}
await t.close();
