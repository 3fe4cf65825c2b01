import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The folder rule of the README's layout table, as lint sees it. */
const eslint = new ESLint({ cwd: process.cwd() });
/** The first lint loads the whole typescript-eslint config: seconds on a busy 2-core machine. */
const LINT_TIMEOUT_MS = 30_000;

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('folder import rule', () => {
  it.each([
    ['common/probe.ts', "import { x } from '../src/config';\nexport const y = x;\n", 'common/ imports nothing of ours.'],
    ['common/probe.ts', "import { x } from '../machines/auth.machine';\nexport const y = x;\n", 'common/ imports nothing of ours.'],
    ['machines/probe.ts', "import { x } from '../src/config';\nexport const y = x;\n", 'machines/ import only common/.'],
    ['machines/probe.ts', "import { x } from '../server/db/schema';\nexport const y = x;\n", 'machines/ import only common/.'],
    ['machines/probe.ts', "import { useState } from 'react';\nexport const y = useState;\n", 'machines/ are framework-free.'],
    ['server/probe.ts', "import { x } from '../machines/roles';\nexport const y = x;\n", 'server/ imports only common/.'],
    ['server/domain/probe.ts', "import { x } from '../../src/config';\nexport const y = x;\n", 'server/ imports only common/.'],
    ['src/views/probe.ts', "import type { x } from '../../server/db/schema';\nexport type y = x;\n", 'src/ imports only machines/ and common/.'],
    ['src/views/probe.ts', "import { x } from '../adapters/admin-actors';\nexport const y = x;\n", 'src/views/ never imports src/adapters/ or src/api/'],
    ['src/views/admin/Probe.tsx', "import { x } from '../../adapters/admin-actors';\nexport const y = x;\n", 'src/views/ never imports src/adapters/ or src/api/'],
    ['src/views/support/probe.test.tsx', "import type { x } from '../../api/support';\nexport type y = x;\n", 'src/views/ never imports src/adapters/ or src/api/'],
    ['src/views/content/probe.ts', "import { x } from '../../api/client';\nexport const y = x;\n", 'src/views/ never imports src/adapters/ or src/api/'],
    ['src/views/content/probe.ts', "import type { x } from '../../../server/db/schema';\nexport type y = x;\n", 'src/ imports only machines/ and common/.'],
    ['server/domain/probe.ts', "import { eq } from 'drizzle-orm';\nexport const y = eq;\n", 'server/domain/ holds rules'],
    ['server/domain/probe.ts', "import { pgTable } from 'drizzle-orm/pg-core';\nexport const y = pgTable;\n", 'server/domain/ holds rules'],
    ['server/domain/reports/probe.ts', "import { subscribers } from '../../db/schema';\nexport const y = subscribers;\n", 'server/domain/ holds rules'],
    ['server/domain/probe.ts', "import type { SubscriberRepository } from '../db/support-repository';\nexport type y = SubscriberRepository;\n", 'server/domain/ never imports server/db/'],
    ['server/domain/probe.ts', "import { createLocalCacheBus } from '../db/cache-bus';\nexport const y = createLocalCacheBus;\n", 'server/domain/ never imports server/db/'],
    ['server/domain/staff/probe.ts', "import type { Db } from '../../db/client';\nexport type y = Db;\n", 'server/domain/ never imports server/db/'],
    ['server/domain/support.ts', "import type { SubscriberRepository } from '../db/support-repository';\nexport type y = SubscriberRepository;\n", 'server/domain/ never imports server/db/'],
    ['server/domain/reports/build/audience.ts', "import { playbackByDay } from '../../../db/report-repository';\nexport const y = playbackByDay;\n", 'server/domain/ never imports server/db/'],
    ['server/domain/probe.ts', "import { pgTable } from 'drizzle-orm/pg-core';\nexport const y = pgTable;\n", 'server/domain/ holds rules'],
    ['server/db/probe-repository.ts', "import { scrubDetail } from '../domain/audit';\nexport const y = scrubDetail;\n", 'server/db/ never imports server/domain/'],
    ['server/db/probe-repository.ts', "import type { PasswordHasher } from '../domain/passwords';\nexport type y = PasswordHasher;\n", 'server/db/ never imports server/domain/'],
    ['server/db/probe-repository.ts', "import { x } from '../../src/config';\nexport const y = x;\n", 'server/ imports only common/.'],
    ['server/http/probe-routes.ts', "import { createNetworkRepository } from '../db/network-repository';\nexport const y = createNetworkRepository;\n", 'server/http/ and server/graphql/ never import server/db/'],
    ['server/http/probe-routes.ts', "import type { Db } from '../db/client';\nexport type y = Db;\n", 'server/http/ and server/graphql/ never import server/db/'],
    ['server/graphql/probe.ts', "import { listOutbox } from '../db/outbox-repository';\nexport const y = listOutbox;\n", 'server/http/ and server/graphql/ never import server/db/'],
    ['server/graphql/probe.ts', "import { x } from '../../machines/roles';\nexport const y = x;\n", 'server/ imports only common/.'],
  ])('refuses %s importing across the rule', async (file, source, message) => {
    expect(await importErrors(file, source)).toEqual([expect.stringContaining(message)]);
  }, LINT_TIMEOUT_MS);

  it.each([
    ['machines/probe.ts', "import { x } from '../common/constants';\nexport const y = x;\n"],
    ['server/probe.ts', "import { x } from '../common/contract';\nexport const y = x;\n"],
    ['server/db/probe-repository.ts', "import { eq } from 'drizzle-orm';\nimport { subscribers } from './schema';\nexport const y = [eq, subscribers];\n"],
    ['server/domain/probe.ts', "import type { SessionRepository } from './ports';\nimport type { SiteRow } from './rows';\nexport type y = [SessionRepository, SiteRow];\n"],
    ['server/http/probe.test.ts', "import { sites } from '../db/schema';\nexport const y = sites;\n"],
    ['server/http/probe-routes.ts', "import type { Services } from '../composition';\nimport { x } from '../domain/errors';\nexport const y = [x] as unknown as Services;\n"],
    ['src/views/probe.ts', "import { x } from '../../machines/auth.machine';\nimport { z } from '../../common/messages';\nexport const y = [x, z];\n"],
    ['src/views/admin/Probe.tsx', "import { usePageActor } from '../../page-actors';\nimport { useAppActor } from '../../app-actor';\nexport const y = [usePageActor, useAppActor];\n"],
    ['src/adapters/probe.ts', "import { x } from '../api/client';\nexport const y = x;\n"],
  ])('allows %s importing downwards', async (file, source) => {
    expect(await importErrors(file, source)).toEqual([]);
  }, LINT_TIMEOUT_MS);
});

describe('the domain rule has no exceptions (issue 39)', () => {
  /** Every file of server/domain/, the rules' tests included. */
  function domainFiles(dir = 'server/domain'): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return domainFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  it('every file of server/domain/ is under the rule that refuses a server/db/ import', async () => {
    const files = domainFiles();
    expect(files.length).toBeGreaterThan(40);
    const exempt: string[] = [];
    for (const file of files) {
      const config = await eslint.calculateConfigForFile(file) as { rules?: Record<string, unknown> };
      if (!JSON.stringify(config.rules?.['no-restricted-imports'] ?? null).includes('never imports server/db/')) exempt.push(file);
    }
    expect(exempt).toEqual([]);
  }, 120_000);

  it('no file of server/domain/ imports server/db/', async () => {
    const results = await eslint.lintFiles(['server/domain/**/*.ts']);
    const dbImports = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(dbImports).toEqual([]);
  }, 120_000);
});
