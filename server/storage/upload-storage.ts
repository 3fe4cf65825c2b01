/**
 * Where AppCMS uploads live: a small key → bytes store. On disk under `${DATA_DIR}/uploads` by
 * default (written to a temporary name and renamed, so a failed write leaves nothing), or in memory
 * (DATA_DIR `memory://`, tests). Keys are content hashes with an extension, so a stored file never
 * changes and may be cached for ever.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface UploadStorage {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
}

/** Keys are `<64 hex>.<ext>`: nothing else can name a path. */
export const STORAGE_KEY = /^[0-9a-f]{64}\.(png|webp|svg)$/;

export function createMemoryStorage(): UploadStorage {
  const files = new Map<string, Buffer>();
  return {
    async put(key, bytes) {
      if (!STORAGE_KEY.test(key)) throw new Error('bad storage key');
      files.set(key, Buffer.from(bytes));
    },
    async get(key) {
      return STORAGE_KEY.test(key) ? files.get(key) : undefined;
    },
  };
}

function createDiskStorage(dir: string): UploadStorage {
  return {
    async put(key, bytes) {
      if (!STORAGE_KEY.test(key)) throw new Error('bad storage key');
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `.${randomUUID()}.part`);
      try {
        await writeFile(temp, bytes, { flag: 'wx' });
        await rename(temp, join(dir, key));
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async get(key) {
      if (!STORAGE_KEY.test(key)) return undefined;
      try {
        return await readFile(join(dir, key));
      } catch {
        return undefined;
      }
    },
  };
}

/** The storage for a DATA_DIR: in memory for `memory://`, else `${dataDir}/uploads`. */
export function createUploadStorage(dataDir: string): UploadStorage {
  return dataDir.startsWith('memory://') ? createMemoryStorage() : createDiskStorage(join(dataDir, 'uploads'));
}
