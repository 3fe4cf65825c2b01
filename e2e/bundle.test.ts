/**
 * The built sign-in page carries no Firebase code (issue 7): Firebase is loaded with a dynamic
 * import() only when a social button is pressed. Runs after `vite build` (scripts/test.sh).
 *
 * 1. Static: dist/index.html's entry script, its modulepreload links and every module they import
 *    statically (dynamic import() excluded) contain none of Firebase's code markers.
 * 2. In Chromium: every script the sign-in page loads on its own (route chunks included) is free of
 *    them too, while the Firebase chunk does exist in the build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type RunningServer } from './harness';

const DIST = join(process.cwd(), 'dist');
/** Strings only Firebase's SDK carries (its package scope, its REST hosts, its auth domain). */
const FIREBASE_MARKERS = ['@firebase/', 'identitytoolkit', 'firebaseapp', 'securetoken.googleapis', 'apis.google.com/js/api.js'];

function markersIn(code: string): string[] {
  return FIREBASE_MARKERS.filter((marker) => code.includes(marker));
}

/** `import x from "./a.js"`, `import{a}from"./b.js"`, `import"./c.js"`, `export{x}from"./d.js"`; not `import("./e.js")`. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

function readAsset(urlPath: string): string {
  return readFileSync(join(DIST, urlPath.replace(/^\//, '')), 'utf8');
}

/** The entry, the modulepreloads and everything they import statically, as URL paths. */
function initialModules(): Map<string, string> {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const roots = [
    ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const seen = new Map<string, string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    const code = readAsset(path);
    seen.set(path, code);
    for (const spec of staticImports(code)) queue.push(posix.normalize(posix.join(posix.dirname(path), spec)));
  }
  return seen;
}

describe('the built sign-in page', () => {
  it('was built (run `npx vite build` first)', () => {
    expect(existsSync(join(DIST, 'index.html'))).toBe(true);
  });

  it('has a Firebase chunk in the build, so the check below means something', () => {
    const chunks = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
    expect(chunks.filter((f) => markersIn(readFileSync(join(DIST, 'assets', f), 'utf8')).length > 0)).not.toEqual([]);
  });

  it('initial JavaScript (entry, modulepreloads and their static imports) contains no Firebase code', () => {
    const modules = initialModules();
    expect(modules.size).toBeGreaterThan(1);
    const offenders = [...modules].map(([path, code]) => ({ path, markers: markersIn(code) })).filter((m) => m.markers.length > 0);
    expect(offenders).toEqual([]);
  });

  it('the static-import scanner follows imports and skips dynamic ones', () => {
    expect(staticImports('import{a as b}from"./x.js";import"./y.js";export{c}from"./z.js";const m=()=>import("./lazy.js");'))
      .toEqual(['./x.js', './y.js', './z.js']);
  });
});

describe('the sign-in page in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', FIREBASE_PROJECT_ID: 'demo-cms-tools', FIREBASE_API_KEY: 'demo-key' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads no script with Firebase code until a social button is pressed', async () => {
    const { context, page } = await newPage(browser);
    const scripts = new Map<string, string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        void response.text().then((text) => scripts.set(new URL(response.url()).pathname, text), () => undefined);
      }
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.size).toBeGreaterThan(1);
    const offenders = [...scripts].filter(([, code]) => markersIn(code).length > 0).map(([path]) => path);
    expect(offenders).toEqual([]);
    await context.close();
  });
});
