/**
 * Library search at 30,000 content items on one site: the server time of GET /v2.0/content for
 * title-prefix, word-prefix and accent-folded queries, the default sort and the plays sort, with
 * 30 days of content rollups for every item. Prints median / p95 per query and the plan of one.
 * In-memory PGlite (or PostgreSQL with DATABASE_URL). Run: npx tsx scripts/bench-content-search.ts
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { API_PATHS } from '../common/constants';
import { createTestApp } from '../server/test/kit';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 30_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const t = await createTestApp({ demo: true });
const session = await t.login('content@demo.test');
const site = await t.siteByName('viewlift-demo');

const started = performance.now();
// Titles from word lists (some accented), so prefixes and words hit hundreds of rows, not all or none.
await t.db.execute(sql`
  INSERT INTO content_items (site_id, kind, title, title_search, genre, duration_seconds, status, updated_at)
  SELECT ${site.id}::uuid,
    (ARRAY['video','series','episode','live'])[1 + g % 4],
    t.title, lower(translate(t.title, 'éèêàâîôûçÉÈ', 'eeeaaioucEE')),
    (ARRAY['Drama','Comedy','Sports','News','Kids'])[1 + g % 5],
    300 + g % 7200,
    (ARRAY['published','draft','unpublished','scheduled'])[1 + g % 4],
    now() - (g || ' minutes')::interval
  FROM generate_series(1, ${ITEMS}) g,
  LATERAL (SELECT (ARRAY['The','A','Crème','Winter','Summer','Été','Dark','Bright','Lost','Found'])[1 + g % 10] || ' ' ||
                  (ARRAY['Story','Storm','Chase','Garden','Night','Forêt','River','City','Road','Season'])[1 + (g / 10) % 10] || ' ' ||
                  (ARRAY['of','in','at','beyond'])[1 + (g / 100) % 4] || ' ' ||
                  (ARRAY['Paris','Lagos','Québec','Tokyo','Lima','Oslo','Cairo','Delhi'])[1 + (g / 400) % 8] || ' ' || g AS title) t
`);
const [network] = (await t.db.execute<{ id: string }>(sql`SELECT id FROM networks WHERE site_id = ${site.id}::uuid LIMIT 1`) as unknown as { rows: { id: string }[] }).rows;
await t.db.execute(sql`
  INSERT INTO daily_playback_rollups (site_id, network_id, day, dimension, dim_key, sessions)
  SELECT ${site.id}::uuid, ${network!.id}::uuid, (current_date - d), 'content', c.id::text, 1 + (abs(hashtext(c.id::text || d)) % 40)
  FROM content_items c, generate_series(0, 29) d
  WHERE c.site_id = ${site.id}::uuid AND c.title_search LIKE '% 1%'
`);
await t.db.execute(sql`ANALYZE content_items`);
await t.db.execute(sql`ANALYZE daily_playback_rollups`);
console.log(`${ITEMS} items and their rollups inserted in ${((performance.now() - started) / 1000).toFixed(1)} s (driver ${t.driver})`);

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! };
}

// The library page always sends its tab's mediaType; the first lines are what it asks for.
const queries = [
  'mediaType=video&limit=20',
  'mediaType=video&q=winter&limit=20',
  'mediaType=video&q=stor&limit=20',
  'mediaType=video&q=creme%20stor&limit=20',
  'mediaType=video&q=CR%C3%88ME&limit=20',
  'mediaType=video&q=ete%20for%C3%AAt%20quebec&limit=20',
  'mediaType=video&q=nothingmatches&limit=20',
  'mediaType=video&q=winter&limit=20&sort=-plays30d',
  'mediaType=video&limit=20&sort=-plays30d',
  'limit=20',
  'q=stor&limit=20',
  'limit=20&sort=-plays30d',
];
// The cheapest authenticated read, as a yardstick of what the machine's load adds to every request.
{
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await t.get(API_PATHS.verify, session.headers);
    samples.push(performance.now() - start);
  }
  const s = stats(samples);
  console.log(`${'GET /api/auth/verify (baseline)'.padEnd(42)}               median ${s.median.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms`);
}
for (const query of queries) {
  const url = `${API_PATHS.content}?${query}`;
  for (let i = 0; i < 3; i++) await t.get(url, session.headers);
  const samples: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await t.get(url, session.headers);
    samples.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    total = res.json<{ total: number }>().total;
  }
  const s = stats(samples);
  console.log(`${query.padEnd(42)} total ${String(total).padStart(6)}  median ${s.median.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms`);
}

console.log(`load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const plan = await t.db.execute(sql`EXPLAIN SELECT id FROM content_items WHERE site_id = ${site.id}::uuid
  AND (title_search LIKE 'stor%' OR title_words @@ to_tsquery('simple'::regconfig, 'stor:*'))
  ORDER BY updated_at DESC LIMIT 20`);
console.log((plan as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n'));
await t.close();
