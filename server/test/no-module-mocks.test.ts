/**
 * Issue 39: the server tests share their workers' module graph (vitest.config.ts, `isolate: false`),
 * so a module mock (vi.mock / vi.doMock / vi.hoisted for one) in one file would meet a module another
 * file already loaded, and pass or fail by the order the files happen to run in. None may use one:
 * replace a dependency through its port (createTestApp's options, a store of mock functions).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('..', import.meta.url));
const MODULE_MOCK = /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|hoisted)\s*\(/;

it('no server test file mocks a module (the server project is not isolated)', () => {
  const offenders = readdirSync(SERVER, { recursive: true }).map(String)
    .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'))
    .filter((file) => MODULE_MOCK.test(readFileSync(join(SERVER, file), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')))
    .map((file) => relative(SERVER, join(SERVER, file)));
  expect(offenders).toEqual([]);
  // The check itself sees a mock where there is one.
  expect(MODULE_MOCK.test(`${'vi'}.mock('./db/report-repository', () => ({}))`)).toBe(true);
});
