/**
 * Issue 40: the media storage on S3-compatible object storage (MEDIA_S3_*, the AWS SDK), against
 * s3rver (an S3-protocol server from npm): the upload's source and every encoded file go to the
 * bucket under its prefix, played files are read back from it (ranges included), and deleting an
 * asset's folder empties it.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_PATHS, type MediaPlayback } from '../common/media-contract';
import { createTestApp, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';
import { makeClip, tusUpload, waitForAsset } from './test/media-kit';

let t: TestApp;
let s3: S3rver;
let client: S3Client;
let base: string;
let writer: Session;
let dir: string;
let clip: string;
const saved = { ...process.env };
const BUCKET = 'cms-media-test';

async function keys(prefix: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key ?? '');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'media-s3-test-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    MEDIA_DIR: join(dir, 'media'), MEDIA_X264_PRESET: 'ultrafast',
    MEDIA_S3_BUCKET: BUCKET, MEDIA_S3_ENDPOINT: endpoint, MEDIA_S3_REGION: 'us-east-1', MEDIA_S3_PREFIX: 'cms/',
    MEDIA_S3_ACCESS_KEY_ID: 'S3RVER', MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const clipMade = makeClip(dir, 'clip.mp4', { seconds: 3, width: 480, height: 270 });
  t = await createTestApp({ demo: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  writer = await t.login('content@demo.test', TEST_SEED_PASSWORD);
  clip = await clipMade;
}, 120_000);

afterAll(async () => {
  await t?.close();
  client?.destroy();
  await s3?.close();
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

describe('media on S3-compatible storage (s3rver)', () => {
  it('upload → encode → files in the bucket, played back with ranges; a deleted folder leaves nothing', async () => {
    expect(t.app.services.media.storage.kind).toBe('s3');
    const id = await tusUpload(base, clip, writer.headers);
    const ready = await waitForAsset(t, writer.headers, id, (a) => a.status === 'ready' || a.status === 'errored');
    expect(ready).toMatchObject({ status: 'ready', errorMessage: null });
    const siteId = (await t.siteByName('viewlift-demo')).id;
    const stored = await keys(`cms/${siteId}/${id}/`);
    expect(stored).toContain(`cms/${siteId}/${id}/v0/source`);
    expect(stored).toContain(`cms/${siteId}/${id}/v1/poster.jpg`);
    expect(stored.some((k) => /\/v1\/\w+\/index\.m3u8$/.test(k))).toBe(true);
    // Nothing encoded stays on the local disk (the tus upload folder only).
    expect(existsSync(join(dir, 'media', 'files'))).toBe(false);

    const playback = (await t.get(`${MEDIA_PATHS.asset}/${id}/playback`, writer.headers)).json<MediaPlayback>();
    const folder = `${base}${playback.previewUrl.replace(/master\.m3u8$/, '')}`;
    const rung = ready.renditions[0]!.name;
    const playlist = await (await fetch(`${folder}${rung}/index.m3u8`)).text();
    expect(playlist).toContain('#EXTINF');
    const segment = playlist.split('\n').find((line) => line && !line.startsWith('#')) ?? '';
    const whole = Buffer.from(await (await fetch(`${folder}${rung}/${segment}`)).arrayBuffer());
    expect(whole.length).toBeGreaterThan(100);
    const part = await fetch(`${folder}${rung}/${segment}`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(0, 100));

    await t.app.services.media.storage.deletePrefix(`${siteId}/${id}/`);
    expect(await keys(`cms/${siteId}/${id}/`)).toEqual([]);
  }, 180_000);
});
