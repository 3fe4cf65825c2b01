/**
 * Browser-test support: starts the real server (the README's start path: the compiled `dist-server/main.js`, built once by e2e/global-setup.ts) on a free
 * port with a throw-away embedded database, and drives Debian's Chromium with playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { API_PATHS } from '../common/constants';
import { siteDayOf } from '../common/site-day';

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

/**
 * Issue 39: what a server's first start writes into an empty data folder (35 migrations, the demo
 * accounts hashed with the start's argon2 settings, at SEED_SCALE 1 a viewers' world of ~50 s) depends
 * only on these variables. The first start of a run with a given set of them makes a template folder
 * (e2e/global-setup.ts gives the run a folder for them: CMS_E2E_TEMPLATES); every later start with the
 * same set starts from a copy, as a restart would (a database with sites is served as it is).
 */
const SEED_VARIABLES = ['SEED', 'SEED_SCALE', 'SEED_PASSWORD', 'NODE_ENV', 'DATABASE_URL', 'ARGON2_MEMORY_COST', 'ARGON2_TIME_COST', 'ARGON2_PARALLELISM'];
/** Variables that change how a server runs but nothing its first start writes. A start given any other starts from an empty folder. */
const RUN_ONLY_VARIABLES = new Set(['PORT', 'HOST', 'SKIP_BUILD', 'LOG_LEVEL', 'CONTENT_JOBS_POLL_SECONDS', 'INACTIVITY_TIMEOUT_MINUTES']);

function serverEnv(port: number, dir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_PASSWORD, NODE_ENV: 'test', DATABASE_URL: '', SEED_SCALE: '0', DEV_OUTBOX_TOKEN: E2E_OUTBOX_TOKEN, ...env };
}

/** The template folder for a start with `env` (made now by a start of its own if this run has none yet), or undefined: start empty. */
async function templateFor(env: Record<string, string>): Promise<string | undefined> {
  const root = process.env.CMS_E2E_TEMPLATES;
  if (!root || !existsSync(root)) return undefined;
  if (Object.keys(env).some((name) => !RUN_ONLY_VARIABLES.has(name) && !SEED_VARIABLES.includes(name))) return undefined;
  const full = serverEnv(0, '', env);
  const key = createHash('sha256').update(JSON.stringify(SEED_VARIABLES.map((name) => [name, full[name] ?? null]))).digest('hex').slice(0, 16);
  const template = join(root, key);
  const lock = `${template}.lock`;
  if (existsSync(template)) return template;
  try {
    mkdirSync(lock);
  } catch {
    // Another worker is making it: wait for it (up to 4 min), else start empty.
    for (let i = 0; i < 960 && !existsSync(template); i++) await new Promise((r) => setTimeout(r, 250));
    return existsSync(template) ? template : undefined;
  }
  const making = mkdtempSync(join(root, 'making-'));
  try {
    const seedEnv = Object.fromEntries(Object.entries(env).filter(([name]) => SEED_VARIABLES.includes(name)));
    const server = await launch(await freePort(), making, { SKIP_BUILD: '1', LOG_LEVEL: 'warn', ...seedEnv });
    await server.stop();
    // Each server keeps a JWT secret of its own (DATA_DIR/.jwt-secret, made at its first start).
    rmSync(join(making, '.jwt-secret'), { force: true });
    renameSync(making, template);
    return template;
  } catch {
    rmSync(making, { recursive: true, force: true });
    return undefined;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isEmptyFolder(dir: string): boolean {
  return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
}

export async function startServer(env: Record<string, string> = {}, dataDir?: string): Promise<RunningServer> {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'cms-e2e-'));
  if (isEmptyFolder(dir)) {
    const template = await templateFor(env);
    if (template) cpSync(template, dir, { recursive: true });
  }
  const server = await launch(port, dir, env);
  return {
    ...server,
    stop: async () => {
      await server.stop();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `node dist-server/main.js` on `port` with DATA_DIR `dir`; resolves once it prints its URL. `stop` leaves the folder. */
async function launch(port: number, dir: string, env: Record<string, string>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['dist-server/main.js'], {
    cwd: process.cwd(),
    env: serverEnv(port, dir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A first start at SEED_SCALE 1 on a loaded 2-core machine took 108 s (load 19), and the browser
    // stage now runs beside the server tests (scripts/test.sh); one that does not answer in 300 s is
    // stopped, not left running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, 300_000);
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
/**
 * Today as Dashboard 360 counts it: the day in the zone of `username`'s site (issue 38: its days are the
 * site's). The test process's UTC day is another day for hours around midnight UTC (the demo site is in
 * America/New_York): journeys that asked for UTC's day failed when run after midnight UTC.
 */
export async function siteToday(baseUrl: string, username: string, password = SEED_PASSWORD): Promise<string> {
  const login = await fetch(`${baseUrl}${API_PATHS.login}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const info = await fetch(`${baseUrl}${API_PATHS.loginInfo}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const { defaultTimezone } = (await info.json()) as { defaultTimezone: string };
  return siteDayOf(Date.now(), defaultTimezone);
}

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
