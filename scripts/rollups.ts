/**
 * `npm run rollups -- [--site <site>] [--from YYYY-MM-DD] [--to YYYY-MM-DD]`: recomputes the daily
 * rollups from the raw rows (all sites and days by default). Use it after changing raw rows by hand
 * or after events older than the ingestion window were loaded.
 */
import { eq } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { openDb } from '../server/db/client';
import { rebuildRollups } from '../server/db/rollups';
import { sites } from '../server/db/schema';
import { loadConfig } from '../server/env';

const { values } = parseArgs({ options: { site: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } });
const config = loadConfig();
const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  let siteId: string | undefined;
  if (values.site) {
    const [site] = await handle.db.select({ id: sites.id }).from(sites).where(eq(sites.siteInternalName, values.site));
    if (!site) throw new Error(`No site named ${values.site}.`);
    siteId = site.id;
  }
  const started = performance.now();
  await rebuildRollups(handle.db, { siteId, from: values.from, to: values.to });
  console.log(`Rollups rebuilt (${values.site ?? 'all sites'}, ${values.from ?? 'first day'} to ${values.to ?? 'last day'}) in ${Math.round(performance.now() - started)} ms.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await handle.close();
}
