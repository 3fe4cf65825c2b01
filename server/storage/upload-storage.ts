/**
 * Where AppCMS uploads live: a small key → bytes store. On disk under `${DATA_DIR}/uploads` by
 * default (written to a temporary name and renamed, so a failed write leaves nothing), or in memory
 * (DATA_DIR `memory://`, tests). Keys are content hashes with an extension, so a stored file never
 * changes and may be cached for ever. The store is shared by every site; which site holds which file
 * is the upload_files table's (server/db/upload-files-repository.ts): a site references and is served
 * only its own files (issue 37).
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

/** Where stored files are served (common/appcms.ts APPCMS_PATHS.files). */
const FILES_PATH = '/v2.0/appcms/files';
const SITE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The address of a site's stored file (issue 37: files are scoped to their site):
 * `/v2.0/appcms/files/<site id>/<key>`, served only while that site holds the file.
 */
export function siteFileUrl(siteId: string, key: string): string {
  return `${FILES_PATH}/${siteId}/${key}`;
}

/**
 * What a URL names among the stored files: a site's file (`…/files/<site id>/<key>`), a legacy
 * unscoped one (`…/files/<key>`, addresses answered before issue 37), 'malformed' for anything else
 * under the files path, or undefined for a URL outside it (a link elsewhere).
 */
export function parseFileUrl(url: string): { siteId?: string; key: string } | 'malformed' | undefined {
  if (!url.startsWith(`${FILES_PATH}/`)) return undefined;
  const parts = url.slice(FILES_PATH.length + 1).split('/');
  if (parts.length === 1 && STORAGE_KEY.test(parts[0]!)) return { key: parts[0]! };
  if (parts.length === 2 && SITE_ID.test(parts[0]!) && STORAGE_KEY.test(parts[1]!)) return { siteId: parts[0]!, key: parts[1]! };
  return 'malformed';
}

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
