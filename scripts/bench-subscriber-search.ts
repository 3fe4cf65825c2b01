/**
 * Time of the Users search (server/db/subscriber-repository.ts) at seed scale 10 and beyond: 40,000
 * subscribers on viewlift-demo and 20,000 on northwind-tv (scale 10 seeds 20,000 + 10,000), then
 * each kind of query 30 times, with the indexes of migration 0003 and again without them.
 * In-memory PGlite, or PostgreSQL when DATABASE_URL is set:
 *   npx tsx scripts/bench-subscriber-search.ts
 *   node scripts/with-fresh-postgres.mjs npx tsx scripts/bench-subscriber-search.ts
 */
import { sql } from 'drizzle-orm';
import { createSubscriberRepository } from '../server/db/subscriber-repository';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { seedDemoData } from '../server/demo/seed';
import { queryRows } from '../server/db/seed-world';
import { createPasswordHasher } from '../server/domain/passwords';
import { openTestDb } from '../server/test/kit';

const PER_SITE = { [DEMO_SITES.viewlift]: Number(process.env.BENCH_SUBSCRIBERS ?? 40_000), [DEMO_SITES.northwind]: 20_000 };
const RUNS = 30;
const INDEXES = [
  'subscribers_site_email_prefix_idx', 'subscribers_site_name_prefix_idx', 'subscribers_site_phone_digits_idx', 'subscribers_site_id_prefix_idx',
];

const handle = await openTestDb();
const { db } = handle;
await seedDemoData(db, { password: 'Bench!Pass123', passwords: createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }) });

for (const [site, count] of Object.entries(PER_SITE)) {
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
await db.execute(sql`ANALYZE subscribers`);

const [site] = await queryRows<{ id: string }>(db, sql`SELECT id FROM sites WHERE site_internal_name = ${DEMO_SITES.viewlift}`);
const siteId = site!.id;
const [some] = await queryRows<{ id: string }>(db, sql`SELECT id::text AS id FROM subscribers WHERE site_id = ${siteId} ORDER BY created_at LIMIT 1 OFFSET 12345`);
const someId = some!.id;
const store = createSubscriberRepository(db);

const QUERIES: [string, { query: string; status: string | null }][] = [
  ['e-mail prefix "maria.lopez1"', { query: 'maria.lopez1', status: null }],
  ['e-mail prefix "MA" (broad)', { query: 'MA', status: null }],
  ['name prefix "wei ch"', { query: 'wei ch', status: null }],
  ['phone digits "+1 555 0142 3"', { query: '+1 555 0142 3', status: null }],
  ['id prefix (8 hex)', { query: someId.slice(0, 8), status: null }],
  ['no query, status suspended', { query: '', status: 'suspended' }],
  ['no query (newest first)', { query: '', status: null }],
];

async function measure(label: string): Promise<void> {
  console.log(`\n${label} (${handle.driver}; ${PER_SITE[DEMO_SITES.viewlift]} + ${PER_SITE[DEMO_SITES.northwind]} subscribers; page of 20 with the total; ${RUNS} runs)`);
  for (const [name, filter] of QUERIES) {
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      total = (await store.search(siteId, { ...filter, page: 1, pageSize: 20 })).total;
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(RUNS / 2)]!;
    const p95 = samples[Math.floor(RUNS * 0.95)]!;
    console.log(`  ${name.padEnd(30)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   (${total} matches)`);
  }
}

await measure('With the indexes of migration 0003');
for (const prefix of ['maria.lopez1', 'wei ch']) {
  const plan = await queryRows<Record<string, string>>(db, sql`EXPLAIN ANALYZE SELECT * FROM subscribers WHERE site_id = ${siteId}
    AND (lower(email) LIKE ${`${prefix}%`} OR lower(name) LIKE ${`${prefix}%`}) ORDER BY created_at DESC LIMIT 20`);
  console.log(`\nPlan of the search "${prefix}":\n` + plan.map((r) => `  ${Object.values(r)[0]}`).join('\n'));
}
for (const index of INDEXES) await db.execute(sql.raw(`DROP INDEX ${index}`));
await measure('Without them');
await handle.close();
