/**
 * Issue 40: what the media rules need from the database (server/db/media-repository.ts implements it;
 * server/composition.ts hands it in). Rows are the media_assets / media_captions columns.
 */
import type { MediaStatus } from '../../common/media-contract';
import type { AuditAndRevisions } from './ports';

export interface MediaRung { name: string; width: number; height: number; videoKbps: number; audioKbps: number; bandwidth: number; codecs: string }

export interface MediaAssetRow {
  id: string;
  siteId: string;
  title: string;
  status: string;
  errorMessage: string | null;
  lastError: string | null;
  source: string;
  externalUrl: string | null;
  filename: string;
  filetype: string;
  uploadSize: number | null;
  uploadedBytes: number;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  probe: Record<string, unknown> | null;
  encrypted: boolean;
  encryptionKey: string | null;
  policy: string;
  ladder: MediaRung[];
  progress: Record<string, number>;
  attempt: number;
  liveAttempt: number | null;
  doneRungs: string[];
  posterReady: boolean;
  storyboardReady: boolean;
  /** The poster's chosen time (seconds); null: the encoder's default. */
  posterSeconds: number | null;
  leaseUntil: Date | null;
  contentItemHint: string | null;
  createdBy: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewMediaAsset {
  id?: string;
  siteId: string;
  title: string;
  status: MediaStatus;
  source: 'upload' | 'external';
  externalUrl?: string | null;
  filename?: string;
  filetype?: string;
  uploadSize?: number | null;
  encrypted: boolean;
  encryptionKey?: string | null;
  policy: 'public' | 'signed';
  contentItemHint?: string | null;
  createdBy?: string | null;
}

export type MediaAssetChanges = Partial<Omit<MediaAssetRow, 'id' | 'siteId' | 'createdAt' | 'version'>>;

export interface MediaCaptionRow { assetId: string; language: string; label: string; vtt: string }

/** The content item's columns the video attachment reads and writes. */
export interface MediaContentRow { id: string; siteId: string; kind: string; title: string; status: string; mediaAssetId: string | null; version: number }

/** The media SQL functions bound to the database (or to a transaction's). */
export interface MediaQueries extends AuditAndRevisions {
  insertAsset(values: NewMediaAsset): Promise<MediaAssetRow>;
  findAsset(siteId: string, id: string): Promise<MediaAssetRow | undefined>;
  findAssetAnySite(id: string): Promise<MediaAssetRow | undefined>;
  listAssets(siteId: string, query: { start: number; limit: number; q?: string; status?: string }): Promise<{ rows: MediaAssetRow[]; total: number }>;
  /** Writes `changes` (version + 1, updatedAt now); with `attempt`, only while that attempt holds the asset. */
  updateAsset(id: string, changes: MediaAssetChanges, guard?: { attempt?: number; statuses?: string[] }): Promise<MediaAssetRow | undefined>;
  /** The next encode attempt takes the asset when no live lease holds it: answers the row with its new attempt. */
  claimEncode(id: string, leaseSeconds: number): Promise<MediaAssetRow | undefined>;
  /** Assets being encoded whose lease ran out (their worker is gone). */
  staleEncodes(limit: number): Promise<{ id: string }[]>;
  /** Uploads not finished and untouched since `before`. */
  abandonedUploads(before: Date, limit: number): Promise<MediaAssetRow[]>;
  captionsOf(assetIds: string[]): Promise<MediaCaptionRow[]>;
  putCaption(siteId: string, row: MediaCaptionRow): Promise<void>;
  findCaption(assetId: string, language: string): Promise<MediaCaptionRow | undefined>;
  /** Removes one language's captions: answers whether there were any. */
  deleteCaption(assetId: string, language: string): Promise<boolean>;
  contentIdsOf(assetIds: string[]): Promise<{ assetId: string; contentId: string }[]>;
  findContent(siteId: string, id: string, lock?: boolean): Promise<MediaContentRow | undefined>;
  setContentVideo(row: MediaContentRow, assetId: string | null): Promise<MediaContentRow>;
  /** AppCMS › Settings "publishViewableVideos" of the site's default network (false when unset). */
  publishViewableVideos(siteId: string): Promise<boolean>;
  /** The site's preview ingestion key (made on first use, stored hashed) and its preview viewer; null without a network. */
  previewIdentity(siteId: string, key: string): Promise<{ subscriberId: string; networkId: string; country: string } | null>;
}

export interface MediaStore extends MediaQueries {
  transaction<T>(work: (tx: MediaQueries) => Promise<T>): Promise<T>;
}
