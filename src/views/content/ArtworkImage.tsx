/**
 * An item's stored artwork (issue 29): the image when it has one and it loads, else a neutral box
 * saying there is none, so no page shows a broken image. Only artwork this console stored (an upload,
 * ARTWORK_URL) is loaded: the demo items' seeded addresses point nowhere and are never requested.
 * Which URL failed is presentational state only.
 */
import { useState } from 'react';
import { ARTWORK_URL } from '../../../common/content';
import * as css from './create.css';

export function ArtworkImage({ url, alt, className, boxClassName, width, height, empty = 'No artwork' }: {
  url: string; alt: string; className: string; boxClassName: string; width?: number; height?: number; empty?: string;
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (ARTWORK_URL.test(url) && failedUrl !== url) {
    return <img className={className} src={url} alt={alt} width={width} height={height} loading="lazy" onError={() => setFailedUrl(url)} />;
  }
  return <div className={boxClassName} role="img" aria-label={`${alt}: ${empty.toLowerCase()}`} style={width && height ? { width, height } : undefined}>{empty}</div>;
}

/** The small 16:9 thumbnail of a library row or an episode line. */
export function Thumbnail({ url, title }: { url: string; title: string }) {
  return <ArtworkImage url={url} alt={`Thumbnail of ${title}`} className={css.thumb} boxClassName={css.thumbBox} />;
}
