/**
 * Issue 40: where encoded videos live, behind one interface. On disk under `${DATA_DIR}/media/files`
 * by default (nothing to install), or in an S3-compatible bucket when MEDIA_S3_BUCKET is set (the AWS
 * SDK; tested against s3rver, server/media-s3.test.ts). Keys are `<site id>/<asset id>/v<attempt>/<file>`
 * (MEDIA_KEY): nothing else can name a path, so a key never leaves the media folder or bucket prefix.
 * A file is written once under a new attempt's folder and never changed, so segments may be cached
 * for ever; a finished attempt's predecessor folders are deleted by prefix.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** `<site>/<asset>/v<n>/<name>` or `<site>/<asset>/v<n>/<rung>/<name>`: letters, digits, `_`, `-`, `.` (no `..`). */
export const MEDIA_KEY = new RegExp(`^${UUID}/${UUID}/v\\d{1,6}/([A-Za-z0-9_-]{1,40}/)?[A-Za-z0-9_-][A-Za-z0-9_.-]{0,80}$`);
/** A prefix that deletes: one asset's folder, or one of its attempts. */
const MEDIA_PREFIX = new RegExp(`^${UUID}/${UUID}/(v\\d{1,6}/)?$`);

export interface StoredMedia {
  body: Readable;
  /** The whole object's size. */
  size: number;
}

export interface MediaStorage {
  readonly kind: 'disk' | 's3';
  /** Where the files are (the folder, or the endpoint, bucket and prefix): workers that share it share a job queue. */
  readonly location: string;
  /** Stores a local file under `key` (copied; with `move`, the local file is taken: renamed on disk, removed after the upload to S3). */
  putFile(key: string, file: string, options?: { move?: boolean }): Promise<void>;
  /** The local path of a stored key (disk storage), else null: workers on the same disk read the source in place. */
  localPath(key: string): string | null;
  /** Size of a stored object, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Reads an object, whole or bytes start..end (inclusive); null when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<StoredMedia | null>;
  /** Deletes every object under `<site>/<asset>/` or `<site>/<asset>/v<n>/`. */
  deletePrefix(prefix: string): Promise<void>;
}

function checkKey(key: string): void {
  if (!MEDIA_KEY.test(key) || key.includes('..')) throw new Error(`bad media key: ${key}`);
}
function checkPrefix(prefix: string): void {
  if (!MEDIA_PREFIX.test(prefix)) throw new Error(`bad media prefix: ${prefix}`);
}

/** The content type a stored file is served with (never HTML). */
export function mediaContentType(name: string): string {
  if (name.endsWith('.m3u8')) return 'application/vnd.apple.mpegurl';
  if (name.endsWith('.m4s')) return 'video/iso.segment';
  if (name.endsWith('.mp4')) return 'video/mp4';
  if (name.endsWith('.ts')) return 'video/mp2t';
  if (name.endsWith('.vtt')) return 'text/vtt; charset=utf-8';
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}

export function createDiskMediaStorage(root: string): MediaStorage {
  const pathOf = (key: string) => join(root, ...key.split('/'));
  return {
    kind: 'disk',
    location: `disk:${resolve(root)}`,
    async putFile(key, file, options) {
      checkKey(key);
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      if (options?.move) {
        try {
          await rename(file, target);
          return;
        } catch {
          // another file system: copied below, then removed
        }
      }
      const temp = `${target}.${process.pid}.tmp`;
      await copyFile(file, temp);
      await rename(temp, target);
      if (options?.move) await rm(file, { force: true });
    },
    localPath(key) {
      checkKey(key);
      return pathOf(key);
    },
    async size(key) {
      checkKey(key);
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? info.size : null;
      } catch {
        return null;
      }
    },
    async read(key, range) {
      checkKey(key);
      const path = pathOf(key);
      let size: number;
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        size = info.size;
      } catch {
        return null;
      }
      return { body: createReadStream(path, range ? { start: range.start, end: range.end } : {}), size };
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      await rm(pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
  };
}

export interface S3MediaConfig {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver, R2); omitted: AWS. Path-style addressing when set. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Folder inside the bucket ('' or 'media/'). */
  prefix: string;
}

export function createS3MediaStorage(config: S3MediaConfig): MediaStorage {
  const client = new S3Client({
    region: config.region,
    // S3-compatible servers (MinIO, s3rver, R2) do not all take the SDK's default streaming checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
  });
  const Bucket = config.bucket;
  const full = (key: string) => `${config.prefix}${key}`;
  const missing = (error: unknown) => error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey'
    || ('$metadata' in error && typeof error.$metadata === 'object' && error.$metadata !== null && 'httpStatusCode' in error.$metadata && error.$metadata.httpStatusCode === 404));
  return {
    kind: 's3',
    location: `s3:${config.endpoint ?? 'aws'}/${config.bucket}/${config.prefix}`,
    async putFile(key, file, options) {
      checkKey(key);
      const { size } = await stat(file);
      await client.send(new PutObjectCommand({ Bucket, Key: full(key), Body: createReadStream(file), ContentLength: size, ContentType: mediaContentType(key) }));
      if (options?.move) await rm(file, { force: true });
    },
    localPath() {
      return null;
    },
    async size(key) {
      checkKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async read(key, range) {
      checkKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: full(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : (answer.ContentLength ?? 0);
        const body = answer.Body;
        if (!(body instanceof Readable)) return null;
        return { body, size: total };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: full(prefix), ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
