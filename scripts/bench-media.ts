/**
 * `npm run bench:media -- [--seconds 60] [--preset veryfast] [--upload-mb 128] [--rounds 1]`
 *
 * Issue 40, side by side in one run:
 * 1. Upload throughput: tus (creation, HEAD by @tus/server + @tus/file-store; PATCH bodies written by
 *    the server's own path, server/storage/tus-patch.ts, as server/http/media-routes.ts does; tus-js-client
 *    as the uploader, one PATCH and 8 MB / 32 MB chunks) against a raw copy over loopback (an HTTP PUT
 *    streamed into a file); @tus/server's own PATCH handler alongside for comparison. Every server lives
 *    in this process, so all share its event loop. CPU time of the process per upload is printed too:
 *    on a loaded machine it compares better than wall time.
 * 2. Encode wall time of the pipeline (encodeRungs: the lowest rung alone, the others in a second
 *    process) against plain ffmpeg with the same ladder on the same file (one process, every rung,
 *    the pipeline's own arguments: server/media-encode/encode.ts ladderArgs), alternately --rounds times.
 * 3. Time to viewable for a --seconds 1080p clip: tus upload → probeSource → the lowest rung done.
 *
 * The clip is ffmpeg's testsrc2 + a sine tone (generated at the start, 1080p25). The machine's load
 * average is printed before and after: the numbers only compare runs made under the same load.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, request, type Server as HttpServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { Upload } from 'tus-js-client';
import { encodeRungs, ffmpegPath, ladderArgs, ladderFor, probeSource, type Rung } from '../server/media-encode';
import { makeClip } from '../server/media-encode/test-clips';
import { receiveTusPatch } from '../server/storage/tus-patch';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    preset: { type: 'string', default: process.env.MEDIA_X264_PRESET ?? 'veryfast' },
    'upload-mb': { type: 'string', default: '128' },
    rounds: { type: 'string', default: '1' },
  },
});
const clipSeconds = Number(values.seconds);
const preset = values.preset;
const uploadMb = Number(values['upload-mb']);
const rounds = Number(values.rounds);
const SEGMENT_SECONDS = 4;
const UPLOAD_ROUNDS = 3;
/**
 * CPU seconds (user + system) of this process's finished children (/proc/self/stat cutime + cstime,
 * clock ticks of 1/100 s): ffmpeg's own work, much less sensitive than wall time to the other
 * processes of a shared machine. Linux only (NaN elsewhere).
 */
function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mbps = (bytes: number, ms: number) => (bytes / 1024 / 1024 / (ms / 1000)).toFixed(0);

async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? (address satisfies AddressInfo).port : 0;
  return `http://127.0.0.1:${port}`;
}

/** A raw copy over loopback: PUT the file, the server streams it into a file. */
async function rawCopy(file: string, into: string): Promise<number> {
  const server = createServer((req, res) => {
    pipeline(req, createWriteStream(join(into, 'raw.bin'))).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  });
  const base = await listen(server);
  const { size } = await stat(file);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const req = request(`${base}/raw`, { method: 'PUT', headers: { 'content-length': size } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`raw copy answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
  const elapsed = performance.now() - started;
  server.close();
  return elapsed;
}

interface TusTarget {
  endpoint: string;
  close(): void;
}

/** A tus server; `ownPatch`: PATCH bodies go through the server's path (server/storage/tus-patch.ts), as the app's route does. */
async function tusServer(into: string, ownPatch: boolean): Promise<TusTarget> {
  const tus = new TusServer({ path: '/uploads', datastore: new FileStore({ directory: into }) });
  const server = createServer((req, res) => {
    if (ownPatch && req.method === 'PATCH') {
      const id = (req.url ?? '').split('/').pop() ?? '';
      receiveTusPatch(req, into, id).then((outcome) => {
        const headers = { 'tus-resumable': '1.0.0', ...(outcome.kind === 'refused' ? {} : { 'upload-offset': String(outcome.offset) }) };
        res.writeHead(outcome.kind === 'written' ? 204 : outcome.kind === 'refused' ? outcome.status : 409, headers).end();
      }, () => res.writeHead(500).end());
      return;
    }
    tus.handle(req, res).catch(() => res.writeHead(500).end());
  });
  const base = await listen(server);
  return { endpoint: `${base}/uploads`, close: () => server.close() };
}

async function tusUpload(file: string, endpoint: string, chunkSize?: number): Promise<number> {
  const { size } = await stat(file);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(createReadStream(file), {
      endpoint,
      uploadSize: size,
      ...(chunkSize ? { chunkSize } : {}),
      retryDelays: [],
      metadata: { filename: 'bench.bin', filetype: 'application/octet-stream' },
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
  return performance.now() - started;
}

async function plainFfmpeg(src: string, outDir: string, rungs: Rung[], hasAudio: boolean): Promise<{ total: number; cpu: number }> {
  await Promise.all(rungs.map((rung) => mkdir(join(outDir, rung.name), { recursive: true })));
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  execFileSync(ffmpegPath(), ladderArgs(src, outDir, rungs, { segmentSeconds: SEGMENT_SECONDS, preset, hasAudio }), { stdio: ['ignore', 'ignore', 'inherit'] });
  return { total: performance.now() - started, cpu: childCpuSeconds() - cpuBefore };
}

async function pipelineEncode(src: string, outDir: string, rungs: Rung[]): Promise<{ total: number; firstRung: number; cpu: number }> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  let firstRung = 0;
  await encodeRungs(src, outDir, rungs, {
    segmentSeconds: SEGMENT_SECONDS,
    preset,
    onProgress: () => undefined,
    onRungDone: () => {
      if (firstRung === 0) firstRung = performance.now() - started;
    },
  });
  return { total: performance.now() - started, firstRung, cpu: childCpuSeconds() - cpuBefore };
}

const dir = await mkdtemp(join(tmpdir(), 'bench-media-'));
try {
  console.log(`bench:media: ${cpus().length} cores, load ${load()}, ffmpeg ${execFileSync(ffmpegPath(), ['-version']).toString().split('\n')[0]}`);
  console.log(`x264 preset ${preset}, ${SEGMENT_SECONDS} s segments, ${clipSeconds} s 1080p25 clip (testsrc2 + sine), ${uploadMb} MB upload file`);

  // 1. Upload throughput.
  const blob = join(dir, 'upload.bin');
  await writeFile(blob, Buffer.alloc(uploadMb * 1024 * 1024, 7));
  const bytes = uploadMb * 1024 * 1024;
  await mkdir(join(dir, 'tus'), { recursive: true });
  await mkdir(join(dir, 'tus-lib'), { recursive: true });
  const target = await tusServer(join(dir, 'tus'), true);
  const library = await tusServer(join(dir, 'tus-lib'), false);
  const runs = {
    raw: { label: 'raw HTTP PUT copy', run: () => rawCopy(blob, dir) },
    one: { label: 'tus, one PATCH', run: () => tusUpload(blob, target.endpoint) },
    mb32: { label: 'tus, 32 MB chunks', run: () => tusUpload(blob, target.endpoint, 32 * 1024 * 1024) },
    mb8: { label: 'tus, 8 MB chunks', run: () => tusUpload(blob, target.endpoint, 8 * 1024 * 1024) },
    lib: { label: '@tus/server PATCH, one', run: () => tusUpload(blob, library.endpoint) },
  };
  const times: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let round = 0; round < UPLOAD_ROUNDS; round += 1) {
    for (const [key, entry] of Object.entries(runs)) {
      const before = process.cpuUsage();
      const ms = await entry.run();
      const used = process.cpuUsage(before);
      (times[key] ??= []).push(ms);
      (cpu[key] ??= []).push((used.user + used.system) / 1000);
    }
    for (const folder of ['tus', 'tus-lib']) {
      await rm(join(dir, folder), { recursive: true, force: true });
      await mkdir(join(dir, folder), { recursive: true });
    }
  }
  const rawMs = median(times.raw ?? []);
  const rawCpu = median(cpu.raw ?? []);
  const speeds = (list: number[]) => list.map((ms) => mbps(bytes, ms)).join(', ');
  console.log(`\nUpload over loopback, ${uploadMb} MB, ${UPLOAD_ROUNDS} rounds alternately, medians (goal: tus ≥ 0.8 × raw); CPU ms of this process (client + server)`);
  for (const [key, entry] of Object.entries(runs)) {
    const ms = median(times[key] ?? []);
    const ratio = key === 'raw' ? '' : `  = ${(rawMs / ms).toFixed(2)} × raw wall, ${(rawCpu / median(cpu[key] ?? [])).toFixed(2)} × raw CPU`;
    console.log(`  ${entry.label.padEnd(24)} ${mbps(bytes, ms).padStart(5)} MB/s  CPU ${median(cpu[key] ?? []).toFixed(0).padStart(5)} ms  [${speeds(times[key] ?? [])}]${ratio}`);
  }
  library.close();
  await rm(join(dir, 'tus'), { recursive: true, force: true });
  await mkdir(join(dir, 'tus'), { recursive: true });
  await rm(join(dir, 'tus-lib'), { recursive: true, force: true });
  await rm(blob, { force: true });

  // 3 (first, on a fresh clip): time to viewable = upload + check + lowest rung.
  const generated = performance.now();
  const clip = await makeClip(dir, 'clip-1080p.mp4', { width: 1920, height: 1080, seconds: clipSeconds, preset: 'ultrafast' });
  const clipBytes = (await stat(clip)).size;
  console.log(`\nClip generated in ${seconds(performance.now() - generated)} (${(clipBytes / 1024 / 1024).toFixed(0)} MB)`);
  const viewStart = performance.now();
  const uploadMs = await tusUpload(clip, target.endpoint);
  const probeStart = performance.now();
  const probed = await probeSource(clip, { maxSeconds: 4 * 3600, maxBytes: 2 ** 40 });
  const probeMs = performance.now() - probeStart;
  const rungs = ladderFor(probed);
  const first = await pipelineEncode(clip, join(dir, 'viewable'), rungs);
  const viewable = uploadMs + probeMs + first.firstRung;
  console.log(`\nTime to viewable, ${clipSeconds} s 1080p clip (${rungs.map((r) => r.name).join(' ')})`);
  console.log(`  upload (tus) ${seconds(uploadMs)} + check (ffprobe) ${seconds(probeMs)} + lowest rung ${seconds(first.firstRung)} = ${seconds(viewable)}`);
  console.log(`  ready (every rung) after ${seconds(uploadMs + probeMs + first.total)}; wall since upload start ${seconds(performance.now() - viewStart)}`);
  target.close();
  await rm(join(dir, 'viewable'), { recursive: true, force: true });

  // 2. Pipeline vs plain ffmpeg, alternately.
  const plainTimes: number[] = [];
  const plainCpu: number[] = [];
  const pipelineTimes: number[] = [first.total];
  const pipelineCpu: number[] = [first.cpu];
  const firstRungTimes: number[] = [first.firstRung];
  for (let round = 0; round < rounds; round += 1) {
    const plainRun = await plainFfmpeg(clip, join(dir, `plain-${round}`), rungs, probed.hasAudio);
    plainTimes.push(plainRun.total);
    plainCpu.push(plainRun.cpu);
    await rm(join(dir, `plain-${round}`), { recursive: true, force: true });
    if (round > 0) {
      const again = await pipelineEncode(clip, join(dir, `pipeline-${round}`), rungs);
      pipelineTimes.push(again.total);
      pipelineCpu.push(again.cpu);
      firstRungTimes.push(again.firstRung);
      await rm(join(dir, `pipeline-${round}`), { recursive: true, force: true });
    }
  }
  const plain = median(plainTimes);
  const piped = median(pipelineTimes);
  console.log(`\nEncode wall time, same ladder, same file (goal: pipeline ≤ 1.1 × plain ffmpeg), ${rounds} round(s), medians`);
  console.log(`  plain ffmpeg (one process, every rung)     ${seconds(plain)}   [${plainTimes.map(seconds).join(', ')}]`);
  console.log(`  pipeline (lowest rung first, then others)  ${seconds(piped)}   [${pipelineTimes.map(seconds).join(', ')}]  = ${(piped / plain).toFixed(2)} × plain`);
  const cpuSeconds = (list: number[]) => list.map((c) => `${c.toFixed(0)} s`).join(', ');
  console.log(`  ffmpeg CPU time (user + system): plain ${cpuSeconds(plainCpu)}, pipeline ${cpuSeconds(pipelineCpu)}  = ${(median(pipelineCpu) / median(plainCpu)).toFixed(2)} × plain`);
  console.log(`  pipeline's lowest rung done after           ${seconds(median(firstRungTimes))} (plain ffmpeg: every rung at the end)`);
  console.log(`\nload ${load()}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
