/**
 * Time of the Users search (server/db/support-repository.ts) at 100× the demo data (issue 38):
 * BENCH_SCALE (100) × 2,000 subscribers on viewlift-demo and × 1,000 on northwind-tv (the seed's
 * own counts per scale, server/db/seed-world.ts), then each kind of query 30 times: median and p95
 * of one page of 20 with its total. Goal: every kind ≤ 150 ms p95 on PostgreSQL.
 * In-memory PGlite, or PostgreSQL when DATABASE_URL is set; a database that already holds the
 * bench's subscribers (a DATABASE_URL kept from an earlier run) is reused, not seeded again:
 *   npx tsx scripts/bench-support-search.ts
 *   node scripts/with-fresh-postgres.mjs npx tsx scripts/bench-support-search.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cms_bench_search npx tsx scripts/bench-support-search.ts
 * BENCH_TOTAL_CAP=n counts matches up to n instead of common/support.ts SEARCH_TOTAL_CAP (a large n: the
 * exact totals of before the cap, for a comparison at the same load).
 * BENCH_DROP_INDEXES=1 measures again without migration 0003's prefix indexes (the database is then
 * not reusable).
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { createSubscriberRepository } from '../server/db/support-repository';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { seedDemoData } from '../server/demo/seed';
import { queryRows } from '../server/db/seed-world';
import { createPasswordHasher } from '../server/domain/passwords';
import { openTestDb } from '../server/test/kit';

const SCALE = Number(process.env.BENCH_SCALE ?? 100);
const PER_SITE = { [DEMO_SITES.viewlift]: 2_000 * SCALE, [DEMO_SITES.northwind]: 1_000 * SCALE };
const RUNS = 30;
const INDEXES = [
  'subscribers_site_email_prefix_idx', 'subscribers_site_name_prefix_idx', 'subscribers_site_phone_digits_idx', 'subscribers_site_id_prefix_idx',
];

const handle = await openTestDb();
const { db } = handle;
await seedDemoData(db, { password: 'Bench!Pass123', passwords: createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }) });

const seeded = async (site: string) => (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM subscribers
  WHERE site_id = (SELECT id FROM sites WHERE site_internal_name = ${site}) AND email LIKE '%@inbox.example'`))[0]!.n;
for (const [site, count] of Object.entries(PER_SITE)) {
  if (await seeded(site) >= count / 5) continue;
  // Names and e-mails spread like real ones: 40 first names × 40 last names, a number, five domains.
  await db.execute(sql`
    WITH s AS (SELECT id, (SELECT id FROM networks n WHERE n.site_id = sites.id AND n.is_default) AS network_id FROM sites WHERE site_internal_name = ${site}),
    f(a) AS (SELECT ARRAY['Maria','James','Wei','Aisha','Lucas','Sofia','Noah','Emma','Liam','Olivia','Mateo','Chloe','Hiro','Priya','Jonas','Elena','Omar','Grace','Ivan','Nora',
      'Diego','Hannah','Kofi','Mei','Arjun','Lea','Tomas','Zara','Felix','Ines','Ravi','Amara','Pablo','Yuki','Sven','Lina','Marco','Ada','Kai','Rosa']),
    l(a) AS (SELECT ARRAY['Lopez','Smith','Chen','Khan','Silva','Rossi','Brown','Garcia','Muller','Dubois','Novak','Costa','Tanaka','Sharma','Berg','Ivanova','Haddad','Walsh','Petrov','Young',
      'Reyes','Schmidt','Mensah','Wang','Patel','Martin','Horvat','Ali','Fischer','Santos','Kumar','Okafor','Ruiz','Sato','Larsen','Moreau','Bianchi','Lovelace','Nakamura','Alves'])
    INSERT INTO subscribers (site_id, network_id, email, name, phone, country, status, created_at)
    SELECT s.id, s.network_id,
      lower(f.a[1 + i % 40] || '.' || l.a[1 + (i / 40) % 40] || i) || '@' || (ARRAY['example.com','example.org','example.net','mail.example','inbox.example'])[1 + i % 5],
      f.a[1 + i % 40] || ' ' || l.a[1 + (i / 40) % 40],
      CASE WHEN i % 7 = 0 THEN '' ELSE '+1 555 01' || lpad((i % 100)::text, 2, '0') || ' ' || lpad((i % 10000)::text, 4, '0') END,
      (ARRAY['US','GB','DE','FR','ES','CA'])[1 + i % 6],
      CASE WHEN i % 50 = 0 THEN 'suspended' WHEN i % 37 = 0 THEN 'closed' ELSE 'active' END,
      now() - (i || ' minutes')::interval
    FROM s, f, l, generate_series(1, ${count}) AS i`);
}
// VACUUM as autovacuum would after the bulk insert: the visibility map lets the counts read an index alone.
await db.execute(sql`VACUUM ANALYZE subscribers`);
const GOAL_P95_MS = 150;
const TOTAL_CAP = process.env.BENCH_TOTAL_CAP ? Number(process.env.BENCH_TOTAL_CAP) : undefined;

const [site] = await queryRows<{ id: string }>(db, sql`SELECT id FROM sites WHERE site_internal_name = ${DEMO_SITES.viewlift}`);
const siteId = site!.id;
const [some] = await queryRows<{ id: string }>(db, sql`SELECT id::text AS id FROM subscribers WHERE site_id = ${siteId} ORDER BY created_at LIMIT 1 OFFSET 12345`);
const someId = some!.id;
const [someone] = await queryRows<{ email: string }>(db, sql`SELECT email FROM subscribers WHERE site_id = ${siteId} ORDER BY created_at LIMIT 1 OFFSET 23456`);
const store = createSubscriberRepository(db);

const QUERIES: [string, { query: string; status: string | null }][] = [
  ['local part matching nobody "maria.lopez1"', { query: 'maria.lopez1', status: null }],
  ['name word start "MA" (broad)', { query: 'MA', status: null }],
  ['name prefix "wei ch"', { query: 'wei ch', status: null }],
  ['phone digits "+1 555 0142 3"', { query: '+1 555 0142 3', status: null }],
  ['name word matching nobody "zzyzx"', { query: 'zzyzx', status: null }],
  ['name words matching nobody "wei zzyzx"', { query: 'wei zzyzx', status: null }],
  ['domain "example.org"', { query: 'example.org', status: null }],
  ['domain "@example.org"', { query: '@example.org', status: null }],
  ['domain "mail.example" matching nobody "nowhere.test"', { query: 'nowhere.test', status: null }],
  ['e-mail word "lopez1"', { query: 'lopez1', status: null }],
  ['e-mail word "inbox" (broad)', { query: 'inbox', status: null }],
  ['whole e-mail', { query: someone!.email, status: null }],
  ['id prefix (8 hex)', { query: someId.slice(0, 8), status: null }],
  ['no query, status suspended', { query: '', status: 'suspended' }],
  ['no query (newest first)', { query: '', status: null }],
];

let slowest = 0;
async function measure(label: string): Promise<void> {
  console.log(`\n${label} (${handle.driver}; ${PER_SITE[DEMO_SITES.viewlift]} + ${PER_SITE[DEMO_SITES.northwind]} subscribers; page of 20 with the total; ${RUNS} runs; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  for (const [name, filter] of QUERIES) {
    const samples: number[] = [];
    let total = '';
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const found = await store.search(siteId, { ...filter, page: 1, pageSize: 20, totalCap: TOTAL_CAP });
      total = found.totalIsCapped ? `more than ${found.total}` : String(found.total);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(RUNS / 2)]!;
    const p95 = samples[Math.floor(RUNS * 0.95)]!;
    slowest = Math.max(slowest, p95);
    console.log(`  ${name.padEnd(52)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   (${total} matches)`);
  }
}

await measure('With the indexes');
console.log(`\nSlowest p95 ${slowest.toFixed(1)} ms; goal ≤ ${GOAL_P95_MS} ms: ${slowest <= GOAL_P95_MS ? 'met' : 'NOT met'}`);
if (process.env.BENCH_DROP_INDEXES === '1') {
  for (const index of INDEXES) await db.execute(sql.raw(`DROP INDEX ${index}`));
  await measure('Without the prefix indexes of migration 0003');
}
await handle.close();
