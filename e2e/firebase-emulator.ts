/**
 * Starts and stops the Firebase Auth emulator (firebase-tools, offline, no Java, no UI) for a browser
 * test: the committed e2e/firebase.json with free ports, `emulators:start --only auth --project demo-...`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './harness';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningEmulator {
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  url: string;
  projectId: string;
  stop: () => Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Auth emulator exited with ${child.exitCode}:\n${output()}`);
    try {
      const body = (await (await fetch(url)).json()) as { authEmulator?: { ready?: boolean } };
      if (body.authEmulator?.ready) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the Auth emulator was not ready within ${timeoutMs} ms:\n${output()}`);
}

export async function startAuthEmulator(projectId = 'demo-cms-tools'): Promise<RunningEmulator> {
  const base = JSON.parse(readFileSync(join(process.cwd(), 'e2e', 'firebase.json'), 'utf8')) as { emulators: Record<string, unknown> };
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'cms-firebase-'));
  const config = {
    ...base,
    emulators: {
      ...base.emulators,
      auth: { host: '127.0.0.1', port: authPort },
      hub: { host: '127.0.0.1', port: hubPort },
      logging: { host: '127.0.0.1', port: loggingPort },
    },
  };
  writeFileSync(join(dir, 'firebase.json'), JSON.stringify(config, null, 2));
  const bin = join(process.cwd(), 'node_modules', '.bin', 'firebase');
  const child = spawn(bin, ['emulators:start', '--only', 'auth', '--project', projectId, '--config', join(dir, 'firebase.json')], {
    cwd: dir,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const host = `127.0.0.1:${authPort}`;
  const url = `http://${host}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(`${url}/`, child, () => output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, url, projectId, stop };
}
