/**
 * Issue 40: the media part of the composition root (server/composition.ts): the store, the storage
 * (disk under the media folder, or S3 when MEDIA_S3_BUCKET is set), the rules and the encode jobs,
 * built once for one database. `npm run media:worker` (scripts/media-worker.ts) builds the same.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db/client';
import { createMediaStore } from './db/media-repository';
import { createMediaService, type MediaService } from './domain/media';
import type { MediaConfig } from './domain/media-config';
import { createMediaJobs, sourceKey, type MediaJobs } from './domain/media-jobs';
import { mediaPipeline } from './domain/media-pipeline';
import type { MediaStore } from './domain/media-ports';
import type { JobDatabase } from './domain/ports';
import { createDiskMediaStorage, createS3MediaStorage, type MediaStorage } from './storage/media-storage';

export interface MediaServices {
  service: MediaService;
  store: MediaStore;
  config: MediaConfig;
  storage: MediaStorage;
  jobs: MediaJobs;
}

interface Log { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void }

export function buildMediaServices(input: { db: Db; jobDb: JobDatabase; config: MediaConfig; secret: string; log: Log }): MediaServices {
  const { config, log } = input;
  const store = createMediaStore(input.db);
  const storage = config.s3 ? createS3MediaStorage(config.s3) : createDiskMediaStorage(join(config.rootDir, 'files'));
  const jobs = createMediaJobs({ db: input.jobDb, store, files: storage, encoder: mediaPipeline, config, log });
  const uploads = join(config.rootDir, 'uploads');
  const service = createMediaService({
    store, config, secret: input.secret, probe: mediaPipeline, queue: jobs, log,
    async removeFiles(siteId, assetId) {
      await rm(join(uploads, assetId), { force: true });
      await rm(join(uploads, `${assetId}.json`), { force: true });
      await storage.deletePrefix(`${siteId}/${assetId}/`);
    },
    async keepSource(siteId, assetId, file) {
      await storage.putFile(sourceKey(siteId, assetId), file, { move: true });
      await rm(`${file}.json`, { force: true });
    },
  });
  return { service, store, config, storage, jobs };
}
