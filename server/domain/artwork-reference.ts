/**
 * Issue 38: whether an item may point at an artwork address: a file this server stored (an upload
 * answers its URL, ARTWORK_URL) that the caller's site holds (issue 37) and that is still in the
 * store. A link elsewhere, a file never uploaded and another site's file are refused alike.
 */
import { ARTWORK_URL } from '../../common/content';
import type { SiteFiles } from './ports';
import { parseFileUrl, type UploadStorage } from '../storage/upload-storage';

export async function isSiteArtwork(files: Pick<SiteFiles, 'siteMayReference'>, storage: UploadStorage | undefined, siteId: string, url: string): Promise<boolean> {
  if (!storage || !ARTWORK_URL.test(url)) return false;
  const ref = parseFileUrl(url);
  if (typeof ref !== 'object') return false;
  return (await files.siteMayReference(siteId, ref)) && (await storage.get(ref.key)) !== undefined;
}
