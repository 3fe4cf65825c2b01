/**
 * Migration 0026 (issue 30): the two booleans of the site's second-factor rule become one value, and
 * what each site enforced is kept: require_authenticator → 'authenticator' (the stricter, also when
 * both were on), require_two_factor alone → 'required', neither → 'optional'. A database migrated up
 * to 0024 holds one site of each combination; the rest of the migrations then run over it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleOfFlags, SECOND_FACTOR_RULES } from '../common/second-factor-rule';
import { MIGRATIONS_FOLDER, openDb, type DbHandle } from './db/client';

const before0026 = mkdtempSync(join(tmpdir(), 'migrations-0025-'));
let handle: DbHandle | undefined;

type Rows<T> = { rows: T[] };

afterAll(async () => {
  await handle?.close();
  rmSync(before0026, { recursive: true, force: true });
});

describe('migration 0026: one second-factor rule from the two booleans', () => {
  it('converts every combination faithfully and drops both columns', async () => {
    // The migrations folder as it was before 0026: its journal without 0026 and what follows it.
    cpSync(MIGRATIONS_FOLDER, before0026, { recursive: true });
    const journalPath = join(before0026, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.idx < 26);
    writeFileSync(journalPath, JSON.stringify(journal));

    handle = await openDb({ dataDir: 'memory://', migrate: false });
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: before0026 });

    const combos = [[false, false], [true, false], [false, true], [true, true]] as const;
    for (const [twoFactor, authenticator] of combos) {
      const name = `mig-${twoFactor}-${authenticator}`;
      await handle.db.execute(sql`
        INSERT INTO sites (site_internal_name, service_name, service_type, service_types, template_name, language_code, domain_name,
          site_base_url, backend_url, management_api_key, default_timezone, cloud_provider, profile, require_two_factor, require_authenticator)
        VALUES (${name}, ${name}, 'SVOD', '["SVOD"]'::jsonb, 'Reference', 'en', 'example.test', 'https://example.test', 'https://api.example.test',
          ${`key-${name}`}, 'UTC', 'AWS', '{}'::jsonb, ${twoFactor}, ${authenticator})`);
    }

    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });

    const rows = (await handle.db.execute(
      sql`SELECT site_internal_name, second_factor_rule FROM sites WHERE site_internal_name LIKE 'mig-%' ORDER BY site_internal_name`)) as unknown as Rows<{ site_internal_name: string; second_factor_rule: string }>;
    const ruleOf = new Map(rows.rows.map((r) => [r.site_internal_name, r.second_factor_rule]));
    for (const [twoFactor, authenticator] of combos) {
      expect(ruleOf.get(`mig-${twoFactor}-${authenticator}`), `${twoFactor}/${authenticator}`).toBe(ruleOfFlags(twoFactor, authenticator));
    }
    expect([...ruleOf.values()]).toEqual(['optional', 'authenticator', 'required', 'authenticator']);

    const columns = (await handle.db.execute(
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'sites' AND column_name IN ('require_two_factor', 'require_authenticator', 'second_factor_rule')`)) as unknown as Rows<{ column_name: string }>;
    expect(columns.rows.map((c) => c.column_name)).toEqual(['second_factor_rule']);
    // Only the three values can be stored.
    await expect(handle.db.execute(sql`UPDATE sites SET second_factor_rule = 'sometimes' WHERE site_internal_name = 'mig-false-false'`)).rejects.toThrow();
    expect(SECOND_FACTOR_RULES).toEqual(['optional', 'required', 'authenticator']);
  }, 120_000);
});
