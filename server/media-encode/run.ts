/**
 * ffmpeg and ffprobe as child processes. Which binary runs: FFMPEG_PATH / FFPROBE_PATH when set,
 * otherwise `ffmpeg` / `ffprobe` on PATH (Debian's package; scripts/ensure-ffmpeg.mjs installs it for
 * the tests when missing).
 */
import { spawn } from 'node:child_process';
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';

export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH ?? 'ffmpeg';
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH ?? 'ffprobe';
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with each complete line of standard output (ffmpeg's -progress pipe:1). */
  onLine?: (line: string) => void;
  /** Called once the process exists (e.g. to lower its priority). */
  onSpawn?: (pid: number) => void;
  /** Keep at most this many characters of standard error (the end of it). */
  stderrLimit?: number;
}

/** The error thrown when a run is stopped by its AbortSignal (name 'AbortError', like fetch). */
export class EncodeAbortedError extends Error {
  override name = 'AbortError';
  constructor() {
    super(MEDIA_ENCODE_MESSAGES.encodingCancelled);
  }
}

/** Runs a binary to its end; rejects only when it cannot start or is aborted (exit codes are the caller's). */
export function run(binary: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { signal, onLine, onSpawn, stderrLimit = 64_000 } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new EncodeAbortedError());
      return;
    }
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let pending = '';
    let stderr = '';
    const abort = () => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', abort, { once: true });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!onLine) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        onLine(pending.slice(0, newline).trim());
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > stderrLimit * 2) stderr = stderr.slice(-stderrLimit);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', abort);
      reject(error.code === 'ENOENT' ? new Error(MEDIA_ENCODE_MESSAGES.ffmpegMissing) : error);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) {
        reject(new EncodeAbortedError());
        return;
      }
      resolve({ code, stdout, stderr: stderr.slice(-stderrLimit) });
    });
  });
}

/** The last meaningful line ffmpeg wrote to standard error, for an error message in words. */
export function lastErrorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]*\]\s*/, '').trim())
    .filter((line) => line !== '' && !/^Conversion failed!?$/.test(line));
  return lines.at(-1) ?? 'ffmpeg stopped without saying why';
}
