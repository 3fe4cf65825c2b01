/**
 * `npm run bench` (issue 21): the product against its floor, measured interleaved in one run.
 *
 *  - bundle: the sign-in route's initial JS (gzip, brotli, files) vs a bare React 19 page built with
 *    the same Vite (bench/anchor), both built here into a temporary folder;
 *  - browser: cold loads of `/` in Chromium (product, then anchor, alternating), unthrottled and with
 *    4x CPU throttling + 1.6 Mbps / 150 ms: FCP, LCP, TBT, CLS, bytes, requests; sign-in click ->
 *    landing painted with its charts (a chart's SVG on screen; the header's moment and the login
 *    request alone, i.e. the password hash and its round trip, beside it);
 *  - server: autocannon on loopback (10 connections, BENCH_SECONDS each) for verify, serviceGet, a
 *    per-network read, a report and a content page, alternating with bare Fastify / bare Mercurius
 *    (bench/anchor/server.ts), on PGlite and on a fresh PostgreSQL database at 127.0.0.1:5432
 *    (skipped with a note when PostgreSQL is absent);
 *  - start: the product's start command to its first 200 on an empty data folder (migrate + seed)
 *    and again on the existing data; RSS after start; bare Fastify the same way;
 *  - budget (issue 37): one token's verify on PostgreSQL without Redis (the per-token budget leased
 *    from rate_limits) next to the same database with REDIS_URL and next to PGlite (budget in
 *    memory), alternating in the same run, with the load average beside each figure.
 *
 * Prints the table (value, anchor, ratio, goal, met) and writes bench/results.json.
 * Environment: BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_ONLY=bundle,browser,server,start,budget,
 * PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/test), REDIS_URL (redis://127.0.0.1:6379), SEED_SCALE (1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem, tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { build as viteBuild } from 'vite';
import react from '@vitejs/plugin-react';
import { API_PATHS } from '../common/constants';
import { REPORT_NAMES, REPORTS_PATH } from '../common/reports';
import { initialJs } from './bundle-size';
import { precompressPlugin } from './precompress';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bundle,browser,server,start,budget').split(','));
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SEED_PASSWORD = 'Demo!Pass123';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const work = mkdtempSync(join(tmpdir(), 'cms-bench-'));
const started = Date.now();

interface Row { section: string; what: string; value: number; unit: string; anchor?: number; anchorName?: string; goal?: string; met?: boolean; note?: string }
const rows: Row[] = [];
const raw: Record<string, unknown> = {};
const log = (msg: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// ---------------------------------------------------------------------------------------------- processes

interface Proc { child: ChildProcess; url: string; pid: number; firstOkMs: number; output: () => string }

/** Starts a command and waits until `probe` answers 200; resolves with the time to that answer. */
async function startProcess(command: string, args: string[], env: Record<string, string>, port: number, probe: string, timeoutMs = 240_000): Promise<Proc> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => { output += c.toString(); });
  child.stderr?.on('data', (c: Buffer) => { output += c.toString(); });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}):\n${output.slice(-3000)}`);
    if (performance.now() - t0 > timeoutMs) { child.kill('SIGKILL'); throw new Error(`no 200 from ${url}${probe} in ${timeoutMs} ms:\n${output.slice(-3000)}`); }
    try {
      const res = await fetch(url + probe, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return { child, url, pid: child.pid!, firstOkMs: performance.now() - t0, output: () => output };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function stopProcess(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null) return;
  const exited = new Promise((r) => proc.child.once('exit', r));
  proc.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

let nextPort = 18_000 + Math.floor(Math.random() * 20_000);
const port = () => nextPort++;

/** The product's start command (package.json "start"), as node arguments. */
function productStart(): { command: string; args: string[] } {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const start = pkg.scripts.start!;
  const parts = start.split(/\s+/);
  if (parts[0] === 'tsx') return { command: process.execPath, args: ['--import', 'tsx', ...parts.slice(1)] };
  if (parts[0] === 'node') return { command: process.execPath, args: parts.slice(1) };
  return { command: 'npm', args: ['start'] };
}

function startProduct(dataDir: string, extra: Record<string, string> = {}): Promise<Proc> {
  const p = port();
  const { command, args } = productStart();
  return startProcess(command, args, {
    PORT: String(p), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SKIP_BUILD: '1', NODE_ENV: 'production',
    // Production refuses to start without it (set-password links are built on it).
    PUBLIC_URL: `http://127.0.0.1:${p}`,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789', SEED_PASSWORD, SEED_SCALE: process.env.SEED_SCALE ?? '1',
    // Throughput, not the per-token API rate limit (1200/min by default), is measured here.
    // The budget is still counted on every authenticated request (the budget rows measure its cost).
    // REDIS_URL only where a row asks for it.
    SMS_TRANSPORT: 'outbox', API_RATE_LIMIT_PER_MINUTE: '100000000', REDIS_URL: '', ...extra,
  }, p, API_PATHS.device);
}

function startAnchor(mode: 'fastify' | 'mercurius', staticDir?: string): Promise<Proc> {
  const p = port();
  return startProcess(process.execPath, ['--import', 'tsx', 'bench/anchor/server.ts', String(p), mode, ...(staticDir ? [staticDir] : [])], {}, p,
    mode === 'fastify' ? '/hello' : '/graphql?query=%7B__typename%7D');
}

// ---------------------------------------------------------------------------------------------- bundle

const productDist = join(work, 'product-dist');
const anchorDist = join(work, 'anchor-dist');

async function buildBoth(): Promise<void> {
  log('building the product and the bare React page (same Vite, same compression)');
  await viteBuild({ root: ROOT, logLevel: 'error', mode: 'production', build: { outDir: productDist, emptyOutDir: true } });
  await viteBuild({
    root: join(ROOT, 'bench', 'anchor'), configFile: false, logLevel: 'error', mode: 'production',
    plugins: [react(), precompressPlugin()], build: { outDir: anchorDist, emptyOutDir: true },
  });
}

function benchBundle(): void {
  const product = initialJs(productDist);
  const anchor = initialJs(anchorDist);
  raw.bundle = { product, anchor };
  rows.push({ section: 'bundle', what: 'sign-in initial JS, gzip', value: product.gzip / 1000, unit: 'KB', anchor: anchor.gzip / 1000, anchorName: 'bare React 19 page',
    goal: '≤ 1.65× and ≤ 110 KB', met: product.gzip <= 110_000 && product.gzip / anchor.gzip <= 1.65, note: `${product.files.length} files (anchor ${anchor.files.length})` });
  rows.push({ section: 'bundle', what: 'sign-in initial JS, brotli', value: product.brotli / 1000, unit: 'KB', anchor: anchor.brotli / 1000, anchorName: 'bare React 19 page' });
  rows.push({ section: 'bundle', what: 'sign-in initial JS, raw', value: product.raw / 1000, unit: 'KB', anchor: anchor.raw / 1000, anchorName: 'bare React 19 page' });
}

// ---------------------------------------------------------------------------------------------- browser

interface LoadMetrics { fcp: number; lcp: number; tbt: number; cls: number; bytes: number; jsBytes: number; requests: number }

const OBSERVE = `(() => {
  const m = window.__bench = { fcp: NaN, lcp: NaN, cls: 0, longTasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') m.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) m.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) m.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) m.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
})();`;

async function coldLoad(browser: Browser, url: string, throttled: boolean): Promise<LoadMetrics> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  let bytes = 0, jsBytes = 0, requests = 0;
  const types = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', () => { requests++; });
  cdp.on('Network.responseReceived', (e: { requestId: string; type: string }) => { types.set(e.requestId, e.type); });
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    if (types.get(e.requestId) === 'Script') jsBytes += e.encodedDataLength;
  });
  await page.addInitScript(OBSERVE);
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForTimeout(throttled ? 2500 : 1000);
  const m = await page.evaluate(() => (window as unknown as { __bench: { fcp: number; lcp: number; cls: number; longTasks: [number, number][] } }).__bench);
  await context.close();
  const tbt = m.longTasks.filter(([start]) => start >= m.fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  return { fcp: m.fcp, lcp: m.lcp, tbt, cls: m.cls, bytes, jsBytes, requests };
}

async function signInToLanding(browser: Browser, url: string): Promise<{ landingMs: number; loginMs: number; frameMs: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.getByLabel('Username').fill('admin@demo.test');
  await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
  let loginMs = NaN;
  page.on('requestfinished', (request) => {
    if (request.url().endsWith(API_PATHS.login)) loginMs = request.timing().responseEnd;
  });
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/analytics/, { timeout: 60_000 });
  // The frame (header) first, then the landing's charts (issue 26): the row ends when a chart's SVG is
  // painted, not at the header.
  await page.getByTestId('header').waitFor({ timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const frameMs = Date.now() - t0;
  await page.locator('[data-testid="line-chart"], [data-testid="bar-chart"]').first().waitFor({ timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const landingMs = Date.now() - t0;
  await context.close();
  return { landingMs, loginMs, frameMs };
}

async function benchBrowser(productUrl: string): Promise<void> {
  const anchor = await startAnchor('fastify', anchorDist);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const samples: Record<string, LoadMetrics[]> = { product: [], anchor: [], productSlow: [], anchorSlow: [] };
    for (let round = 0; round < ROUNDS; round++) {
      log(`browser round ${round + 1}/${ROUNDS}`);
      samples.product!.push(await coldLoad(browser, `${productUrl}/`, false));
      samples.anchor!.push(await coldLoad(browser, `${anchor.url}/`, false));
      samples.productSlow!.push(await coldLoad(browser, `${productUrl}/`, true));
      samples.anchorSlow!.push(await coldLoad(browser, `${anchor.url}/`, true));
    }
    const signIns = [];
    for (let round = 0; round < ROUNDS; round++) signIns.push(await signInToLanding(browser, productUrl));
    raw.browser = { samples, signIns };
    const med = (key: string, metric: keyof LoadMetrics) => median(samples[key]!.map((s) => s[metric]));
    for (const [suffix, p, a] of [['', 'product', 'anchor'], [' (4× CPU, 1.6 Mbps/150 ms)', 'productSlow', 'anchorSlow']] as const) {
      rows.push({ section: 'browser', what: `FCP of /${suffix}`, value: med(p, 'fcp'), unit: 'ms', anchor: med(a, 'fcp'), anchorName: 'bare page' });
      const lcp = med(p, 'lcp'), lcpA = med(a, 'lcp');
      rows.push({ section: 'browser', what: `LCP of /${suffix}`, value: lcp, unit: 'ms', anchor: lcpA, anchorName: 'bare page',
        ...(suffix ? { goal: '≤ 1.3×', met: lcp / lcpA <= 1.3 } : {}) });
      rows.push({ section: 'browser', what: `TBT of /${suffix}`, value: med(p, 'tbt'), unit: 'ms', anchor: med(a, 'tbt'), anchorName: 'bare page' });
      rows.push({ section: 'browser', what: `CLS of /${suffix}`, value: med(p, 'cls'), unit: '', anchor: med(a, 'cls'), anchorName: 'bare page' });
    }
    const jsWire = med('product', 'jsBytes') / 1000;
    rows.push({ section: 'browser', what: 'bytes on the wire for /', value: med('product', 'bytes') / 1000, unit: 'KB', anchor: med('anchor', 'bytes') / 1000, anchorName: 'bare page' });
    rows.push({ section: 'browser', what: 'JS bytes on the wire for /', value: jsWire, unit: 'KB', anchor: med('anchor', 'jsBytes') / 1000, anchorName: 'bare page', goal: '≤ 120 KB', met: jsWire <= 120 });
    rows.push({ section: 'browser', what: 'requests for /', value: med('product', 'requests'), unit: '', anchor: med('anchor', 'requests'), anchorName: 'bare page' });
    const landing = median(signIns.map((s) => s.landingMs)), login = median(signIns.map((s) => s.loginMs));
    const frame = median(signIns.map((s) => s.frameMs));
    rows.push({ section: 'browser', what: 'sign-in click → landing painted with its charts', value: landing, unit: 'ms', goal: '≤ 300 ms after the login answer',
      met: landing - login <= 300,
      note: `login request (hash + round trip) ${login.toFixed(0)} ms; frame (header) at ${frame.toFixed(0)} ms; charts ${(landing - login).toFixed(0)} ms after the login answer` });
  } finally {
    await browser.close();
    await stopProcess(anchor);
  }
}

// ---------------------------------------------------------------------------------------------- server

interface Target { name: string; method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }

const failures: Record<string, string[]> = {};

/** Requests per second of 2xx answers; anything else is counted and reported beside the table. */
async function cannon(url: string, target: Target): Promise<number> {
  const result = await autocannon({
    url: url + target.path, method: target.method, headers: target.headers, body: target.body,
    connections: 10, duration: SECONDS,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}×${s.count}`).join(' ');
    (failures[target.name] ??= []).push(`${bad} of ${result.requests.total} failed (${statuses}; errors ${result.errors}, timeouts ${result.timeouts})`);
    log(`${target.name}: ${failures[target.name]!.at(-1)}`);
  }
  return ((result.requests.total - bad) / result.requests.total) * result.requests.average;
}

async function productTargets(url: string): Promise<Target[]> {
  const login = await fetch(url + API_PATHS.login, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.test', password: SEED_PASSWORD }) });
  const { accessToken } = await login.json() as { accessToken: string };
  const info = await fetch(url + API_PATHS.loginInfo, { headers: { authorization: `Bearer ${accessToken}` } });
  const { managementXApiKey } = await info.json() as { managementXApiKey: string };
  const headers = { authorization: `Bearer ${accessToken}`, xapikey: managementXApiKey };
  const json = { ...headers, 'content-type': 'application/json' };
  const serviceGet = JSON.stringify({ query: 'query serviceGet($site: String!) { serviceGet(site: $site) { id serviceName isLaunched networks { name identifier isActive isDefault } } }', variables: { site: 'viewlift-demo' } });
  const service = await (await fetch(url + API_PATHS.graphql, { method: 'POST', headers: json, body: serviceGet })).json() as { data: { serviceGet: { networks: { identifier: string }[] } } };
  const network = service.data.serviceGet.networks[0]!.identifier;
  return [
    { name: 'verify', method: 'GET', path: API_PATHS.verify, headers },
    { name: 'serviceGet', method: 'POST', path: API_PATHS.graphql, headers: json, body: serviceGet },
    { name: 'per-network read', method: 'GET', path: `${API_PATHS.appcmsNetworkData}/viewlift-demo/brand/${network}`, headers },
    { name: `report (${REPORT_NAMES[0]})`, method: 'GET', path: `${REPORTS_PATH}/${REPORT_NAMES[0]}`, headers },
    { name: 'content page', method: 'GET', path: `${API_PATHS.content}?limit=20`, headers },
  ];
}

const FASTIFY_TARGET: Target = { name: 'bare Fastify', method: 'GET', path: '/hello', headers: {} };
const MERCURIUS_TARGET: Target = { name: 'bare Mercurius', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: 'query s($site: String!) { serviceGet(site: $site) { id serviceName networks { name identifier } } }', variables: { site: 'viewlift-demo' } }) };

async function benchServer(db: string, productUrl: string, anchors: { fastify: Proc; mercurius: Proc }): Promise<void> {
  const targets = await productTargets(productUrl);
  const results: Record<string, number[]> = {};
  const rounds = Math.max(1, Math.min(ROUNDS, 2));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const anchor = target.name === 'serviceGet' ? { proc: anchors.mercurius, target: MERCURIUS_TARGET } : { proc: anchors.fastify, target: FASTIFY_TARGET };
      log(`${db}: ${target.name} vs ${anchor.target.name} (round ${round + 1}/${rounds})`);
      (results[`anchor ${anchor.target.name}`] ??= []).push(await cannon(anchor.proc.url, anchor.target));
      (results[target.name] ??= []).push(await cannon(productUrl, target));
    }
  }
  raw[`server ${db}`] = { results, failures: { ...failures } };
  for (const target of targets) {
    const anchorName = target.name === 'serviceGet' ? 'bare Mercurius' : 'bare Fastify';
    const value = median(results[target.name]!), anchor = median(results[`anchor ${anchorName}`]!);
    const goal = target.name === 'verify' ? 0.5 : target.name === 'serviceGet' ? 0.35 : undefined;
    rows.push({ section: `server (${db})`, what: `${target.name}, 10 connections`, value, unit: 'req/s', anchor, anchorName,
      ...(goal ? { goal: `≥ ${goal}×`, met: value / anchor >= goal } : {}) });
  }
}

/**
 * Issue 37: one token's verify where the per-token budget lives in each configuration, alternating
 * (PostgreSQL without Redis, with REDIS_URL, PGlite) so the machine's load hits them alike; the load
 * average is recorded beside each run.
 */
async function benchBudget(procs: { name: string; url: string }[]): Promise<void> {
  const targets = await Promise.all(procs.map(async (proc) => (await productTargets(proc.url))[0]!));
  const results: Record<string, number[]> = {};
  const load: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, proc] of procs.entries()) {
      log(`budget: verify, ${proc.name} (round ${round + 1}/${ROUNDS}, load ${loadavg()[0]!.toFixed(2)})`);
      (load[proc.name] ??= []).push(+loadavg()[0]!.toFixed(2));
      (results[proc.name] ??= []).push(await cannon(proc.url, { ...targets[i]!, name: `budget verify, ${proc.name}` }));
    }
  }
  raw.budget = { results, loadavg1m: load };
  const [noRedis, redis, pglite] = procs.map((proc) => median(results[proc.name]!));
  const loadNote = (name: string) => `load average ${load[name]!.join(', ')}`;
  rows.push({ section: 'budget', what: `verify, ${procs[0]!.name}`, value: noRedis!, unit: 'req/s', anchor: redis, anchorName: procs[1]!.name,
    goal: '≥ 0.5×', met: noRedis! / redis! >= 0.5, note: loadNote(procs[0]!.name) });
  rows.push({ section: 'budget', what: `verify, ${procs[1]!.name}`, value: redis!, unit: 'req/s', note: loadNote(procs[1]!.name) });
  if (pglite !== undefined) rows.push({ section: 'budget', what: `verify, ${procs[2]!.name}`, value: pglite, unit: 'req/s', anchor: redis, anchorName: procs[1]!.name, note: loadNote(procs[2]!.name) });
}

async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    log(`Redis not reachable at ${REDIS_URL} (${(error as Error).message}): budget rows skipped`);
    return false;
  } finally {
    client.disconnect();
  }
}

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try { await admin.connect(); } catch (error) { log(`PostgreSQL not reachable at ${PG_ADMIN_URL} (${(error as Error).message}): PostgreSQL rows skipped`); return undefined; }
  const name = `cms_bench_${Date.now()}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => { await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); await admin.end(); } };
}

// ---------------------------------------------------------------------------------------------- main

function fmt(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  const digits = unit === '' ? 3 : value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

function printTable(): string {
  const lines = ['| what | product | anchor in the same run | ratio | goal | met |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    const ratio = r.anchor ? `${(r.value / r.anchor).toFixed(2)}×` : '—';
    const anchor = r.anchor !== undefined ? `${r.anchorName} ${fmt(r.anchor, r.unit)}` : '—';
    lines.push(`| ${r.section}: ${r.what} | ${fmt(r.value, r.unit)}${r.note ? ` (${r.note})` : ''} | ${anchor} | ${ratio} | ${r.goal ?? '—'} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} |`);
  }
  return lines.join('\n');
}

const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memGiB: +(totalmem() / 2 ** 30).toFixed(1), loadavgAtStart: loadavg().map((l) => +l.toFixed(2)), node: process.version };
log(`machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB} GiB, load ${machine.loadavgAtStart.join(' ')}`);
try {
  await buildBoth();
  if (ONLY.has('bundle')) benchBundle();

  // The product on PGlite: first start on an empty folder (migrations + seed), then a restart on it.
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const productEnv = { STATIC_DIR: productDist };
  log('starting the product on an empty PGlite folder (migrate + seed)');
  const empty = await startProduct(dataDir, productEnv);
  await new Promise((r) => setTimeout(r, 1500));
  const emptyRss = rssMiB(empty.pid);
  await stopProcess(empty);
  log('starting bare Fastify and the product on the existing data');
  const bareStart = await startAnchor('fastify');
  await new Promise((r) => setTimeout(r, 1500));
  const bareRss = rssMiB(bareStart.pid);
  const product = await startProduct(dataDir, productEnv);
  await new Promise((r) => setTimeout(r, 1500));
  const productRss = rssMiB(product.pid);
  if (ONLY.has('start')) {
    rows.push({ section: 'start', what: 'start to first 200, existing data (PGlite)', value: product.firstOkMs / 1000, unit: 's', anchor: bareStart.firstOkMs / 1000, anchorName: 'bare Fastify', goal: '≤ 2 s', met: product.firstOkMs <= 2000 });
    rows.push({ section: 'start', what: 'start to first 200, empty data (PGlite, seed included)', value: empty.firstOkMs / 1000, unit: 's', anchor: bareStart.firstOkMs / 1000, anchorName: 'bare Fastify', goal: '≤ 8 s', met: empty.firstOkMs <= 8000 });
    rows.push({ section: 'start', what: 'RSS after start, existing data (PGlite)', value: productRss, unit: 'MiB', anchor: bareRss, anchorName: 'bare Fastify', goal: '≤ 200 MiB', met: productRss <= 200, note: `after the first start with seeding ${emptyRss.toFixed(0)} MiB` });
  }
  const mercurius = await startAnchor('mercurius');
  try {
    if (ONLY.has('browser')) await benchBrowser(product.url);
    if (ONLY.has('server')) await benchServer('PGlite', product.url, { fastify: bareStart, mercurius });
    // The PGlite product stays up (idle) for the budget rows.
    if (!ONLY.has('budget')) await stopProcess(product);

    if (ONLY.has('server') || ONLY.has('start') || ONLY.has('budget')) {
      const pgdb = await freshPostgres();
      if (pgdb) {
        try {
          log('starting the product on an empty PostgreSQL database (migrate + seed), then again on it');
          const pgEmpty = await startProduct(join(work, 'unused'), { ...productEnv, DATABASE_URL: pgdb.url });
          await stopProcess(pgEmpty);
          const pgProduct = await startProduct(join(work, 'unused'), { ...productEnv, DATABASE_URL: pgdb.url });
          await new Promise((r) => setTimeout(r, 1500));
          const pgRss = rssMiB(pgProduct.pid);
          if (ONLY.has('start')) {
            rows.push({ section: 'start', what: 'start to first 200, existing data (PostgreSQL)', value: pgProduct.firstOkMs / 1000, unit: 's', anchor: bareStart.firstOkMs / 1000, anchorName: 'bare Fastify', goal: '≤ 2 s', met: pgProduct.firstOkMs <= 2000 });
            rows.push({ section: 'start', what: 'start to first 200, empty data (PostgreSQL, seed included)', value: pgEmpty.firstOkMs / 1000, unit: 's', anchor: bareStart.firstOkMs / 1000, anchorName: 'bare Fastify', goal: '≤ 8 s', met: pgEmpty.firstOkMs <= 8000 });
            rows.push({ section: 'start', what: 'RSS after start (PostgreSQL)', value: pgRss, unit: 'MiB', anchor: bareRss, anchorName: 'bare Fastify' });
          }
          try {
            if (ONLY.has('server')) await benchServer('PostgreSQL', pgProduct.url, { fastify: bareStart, mercurius });
            if (ONLY.has('budget') && await redisAnswers()) {
              log(`starting the product on the same PostgreSQL database with REDIS_URL=${REDIS_URL}`);
              const pgRedis = await startProduct(join(work, 'unused'), { ...productEnv, DATABASE_URL: pgdb.url, REDIS_URL });
              try {
                await benchBudget([
                  { name: 'PostgreSQL without Redis', url: pgProduct.url },
                  { name: 'PostgreSQL with REDIS_URL', url: pgRedis.url },
                  { name: 'PGlite (budget in memory)', url: product.url },
                ]);
              } finally {
                await stopProcess(pgRedis);
              }
            }
          } finally {
            await stopProcess(pgProduct);
          }
        } finally {
          await pgdb.drop();
        }
      }
    }
  } finally {
    await stopProcess(product);
    await stopProcess(mercurius);
    await stopProcess(bareStart);
  }
} finally {
  const table = printTable();
  console.log(`\n${table}\n`);
  const seconds = (Date.now() - started) / 1000;
  console.log(`bench took ${seconds.toFixed(0)} s; machine load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify({ date: new Date().toISOString(), seconds, rounds: ROUNDS, secondsPerLoad: SECONDS, machine: { ...machine, loadavgAtEnd: loadavg() }, rows, table, raw }, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
}
