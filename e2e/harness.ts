/**
 * Browser-test support: starts the real server (the README's start path: the compiled `dist-server/main.js`, built once by e2e/global-setup.ts) on a free
 * port with a throw-away embedded database, and drives Debian's Chromium with playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SEED_PASSWORD = 'Demo!Pass123';
export const SCREENSHOT_DIR = join(process.cwd(), 'e2e', 'screenshots');

export interface RunningServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts the compiled server (`node dist-server/main.js`) and resolves once it prints its URL. Without a `SEED_SCALE` the
 * viewers' world is not seeded (the sign-in journeys do not need it and it costs seconds per start);
 * the area journeys ask for it.
 */
/**
 * The development outbox's token of every server these tests start (DEV_OUTBOX_TOKEN): the outbox
 * answers only requests that carry it (issue 25).
 */
export const E2E_OUTBOX_TOKEN = `e2e-outbox-${randomBytes(24).toString('hex')}`;

/** Headers that open the development outbox of a server started by `startServer`. */
export const OUTBOX_HEADERS = { 'x-dev-outbox-token': E2E_OUTBOX_TOKEN };

export async function startServer(env: Record<string, string> = {}, dataDir?: string): Promise<RunningServer> {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'cms-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['dist-server/main.js'], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_PASSWORD, NODE_ENV: 'test', DATABASE_URL: '', SEED_SCALE: '0', DEV_OUTBOX_TOKEN: E2E_OUTBOX_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ''));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir: dir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a journey did not expect (issue 30): every page of every context opened through `launchBrowser`'s
 * browser records console errors, uncaught page errors, failed requests and HTTP answers of 400 or more.
 * A request the page itself cancelled (net::ERR_ABORTED: a navigation or an aborted fetch) is not a
 * failure. After each test the problems not matched by that test's `expectProblems` fail it.
 */
type ProblemPattern = RegExp | string;
interface ProblemLog { problems: string[]; expected: ProblemPattern[]; closed?: boolean }
const problemLogs = new Set<ProblemLog>();
const logOfContext = new WeakMap<BrowserContext, ProblemLog>();

function watchPage(page: Page, log: ProblemLog): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    log.problems.push(`console error: ${message.text()}${where ? ` (at ${where})` : ''}`);
  });
  page.on('pageerror', (error) => log.problems.push(`page error: ${error.message} (in ${page.url()})`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    if (reason.includes('ERR_ABORTED')) return;
    log.problems.push(`request failed: ${request.method()} ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) log.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
}

function watchContext(context: BrowserContext): BrowserContext {
  const log: ProblemLog = { problems: [], expected: [] };
  problemLogs.add(log);
  logOfContext.set(context, log);
  context.on('page', (page) => watchPage(page, log));
  // A closed context's log is still checked by the next afterEach (a test that closes its context
  // before it ends loses nothing), then forgotten there.
  context.on('close', () => { log.closed = true; });
  return context;
}

function matches(problem: string, pattern: ProblemPattern): boolean {
  return typeof pattern === 'string' ? problem.includes(pattern) : pattern.test(problem);
}

/**
 * Declares problems this test provokes on purpose (a refused sign-in's 401, a conflict's 409 …): a
 * recorded problem (its text: "HTTP 401: POST http://…/login", "console error: …", "request failed: …",
 * "page error: …") that matches one of the patterns does not fail the test. Holds until the test ends.
 */
export function expectProblems(target: Page | BrowserContext, ...patterns: ProblemPattern[]): void {
  const context = 'context' in target && typeof target.context === 'function' ? (target as Page).context() : (target as BrowserContext);
  const log = logOfContext.get(context);
  if (!log) throw new Error('expectProblems: this context was not opened through launchBrowser()');
  log.expected.push(...patterns);
}

/** The problems recorded so far that no expectation covers, emptied (also run after each test). */
export function takeUnexpectedProblems(): string[] {
  const found: string[] = [];
  for (const log of problemLogs) {
    found.push(...log.problems.filter((problem) => !log.expected.some((pattern) => matches(problem, pattern))));
    log.problems = [];
    log.expected = [];
    if (log.closed) problemLogs.delete(log);
  }
  return found;
}

afterEach(() => {
  const unexpected = takeUnexpectedProblems();
  if (unexpected.length > 0) {
    throw new Error(`The journey met ${unexpected.length} problem(s) it did not expect (use expectProblems for one it provokes on purpose):\n${unexpected.join('\n')}`);
  }
});

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => watchContext(await newContext(...args));
  return browser;
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  return { context, page };
}

/** Latest SMS code sent to a number ending in `phoneTail`, read from the development outbox. */
export async function latestOtp(baseUrl: string, after?: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`${baseUrl}/__dev/outbox`, { headers: OUTBOX_HEADERS });
    const messages = (await response.json()) as { id: string; body: string; createdAt: string }[];
    const fresh = messages.filter((m) => !after || m.createdAt > after);
    const code = fresh[0] && /\b(\d{6})\b/.exec(fresh[0].body)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no OTP arrived in the outbox');
}

export async function signIn(page: Page, baseUrl: string, username: string, password = SEED_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
