/**
 * Issue 40: the media settings, from the environment (README "Video"). Limits are per site: the
 * defaults MEDIA_MAX_BYTES / MEDIA_MAX_SECONDS, and MEDIA_SITE_LIMITS="<site>:<bytes>:<seconds>,..."
 * for sites that differ.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface MediaLimits { maxBytes: number; maxSeconds: number }

export interface MediaConfig {
  /** The media folder: `uploads/` (tus, unfinished uploads), `files/` (disk storage), `work/` (encoder temp). */
  rootDir: string;
  limits: MediaLimits;
  siteLimits: Record<string, Partial<MediaLimits>>;
  /** Seconds an encode attempt holds its asset without a heartbeat (a killed worker's asset is taken over after it). */
  leaseSeconds: number;
  /** Hours after which an unfinished upload is abandoned: its bytes removed, the asset errored. */
  abandonedHours: number;
  /** Minutes a playback token works. */
  tokenMinutes: number;
  /** Encode in this process ('in-process', the default) or only queue the jobs for `npm run media:worker` ('off'). */
  worker: 'in-process' | 'off';
  /** Encodes at once per worker process. */
  concurrency: number;
  /** How often a worker asks for jobs (seconds). */
  pollSeconds: number;
  /** Tries of one asset's encoding before it errors for good. */
  maxAttempts: number;
  /** The site that has encoding turned off (ENCODING_DISABLED_SITE). */
  encodingDisabledSite: string;
  s3: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; prefix: string } | null;
}

const GIB = 1024 ** 3;

function positive(value: string | undefined, fallback: number, min = 0): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > min ? n : fallback;
}

function parseSiteLimits(text: string | undefined): Record<string, Partial<MediaLimits>> {
  const out: Record<string, Partial<MediaLimits>> = {};
  for (const part of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [site, bytes, seconds] = part.split(':');
    if (!site) continue;
    out[site] = {
      ...(bytes && Number(bytes) > 0 ? { maxBytes: Number(bytes) } : {}),
      ...(seconds && Number(seconds) > 0 ? { maxSeconds: Number(seconds) } : {}),
    };
  }
  return out;
}

export function loadMediaConfig(env: NodeJS.ProcessEnv, dataDir: string, encodingDisabledSite: string): MediaConfig {
  const rootDir = env.MEDIA_DIR || (dataDir.startsWith('memory://')
    ? join(tmpdir(), `cms-tools-media-${process.pid}-${randomBytes(4).toString('hex')}`)
    : join(dataDir, 'media'));
  const s3 = env.MEDIA_S3_BUCKET ? {
    bucket: env.MEDIA_S3_BUCKET,
    region: env.MEDIA_S3_REGION || 'us-east-1',
    endpoint: env.MEDIA_S3_ENDPOINT || undefined,
    accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY || undefined,
    prefix: (env.MEDIA_S3_PREFIX ?? '').replace(/^\/+/, ''),
  } : null;
  return {
    rootDir,
    limits: { maxBytes: positive(env.MEDIA_MAX_BYTES, 5 * GIB), maxSeconds: positive(env.MEDIA_MAX_SECONDS, 4 * 3600) },
    siteLimits: parseSiteLimits(env.MEDIA_SITE_LIMITS),
    leaseSeconds: positive(env.MEDIA_LEASE_SECONDS, 60, 1),
    abandonedHours: positive(env.MEDIA_ABANDONED_HOURS, 24),
    tokenMinutes: positive(env.MEDIA_TOKEN_MINUTES, 60),
    worker: env.MEDIA_WORKER === 'off' ? 'off' : 'in-process',
    concurrency: Math.floor(positive(env.MEDIA_WORKER_CONCURRENCY, 1)),
    pollSeconds: Math.max(0.5, positive(env.MEDIA_JOBS_POLL_SECONDS, 2)),
    maxAttempts: Math.floor(positive(env.MEDIA_MAX_ATTEMPTS, 3)),
    encodingDisabledSite,
    s3,
  };
}

export function limitsFor(config: MediaConfig, siteName: string): MediaLimits {
  return { ...config.limits, ...config.siteLimits[siteName] };
}
