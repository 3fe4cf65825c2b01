/**
 * A content item's artwork: its artwork URL when it has one and it loads, otherwise a poster drawn
 * from its title and genre (the genre picks the colours, the title's initials and words are
 * printed), so every item has the same picture every time and no page shows a broken image.
 */
import { useState } from 'react';
import { ARTWORK_TEXT, hashOf, initialsOf, paletteOf, titleLines } from '../../../common/artwork-poster';
import { artwork } from './content.css';

// The drawing's rules are shared with the demo seed's stored posters (issue 38).
export { initialsOf, titleLines };

export function ContentArtwork({ title, genre, artworkUrl }: { title: string; genre: string; artworkUrl: string }) {
  // Which URL failed to load: a presentational fallback, nothing a machine needs to know.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (artworkUrl && failedUrl !== artworkUrl) {
    return <img className={artwork} src={artworkUrl} alt={`Artwork of ${title}`} onError={() => setFailedUrl(artworkUrl)} />;
  }
  const [from, to] = paletteOf(genre);
  const gradientId = `artwork-${hashOf(`${genre}|${title}`).toString(36)}`;
  const lines = titleLines(title);
  return (
    <svg className={artwork} viewBox="0 0 320 180" role="img" aria-label={`Artwork of ${title}`}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <rect width="320" height="180" fill={`url(#${gradientId})`} />
      <text x="300" y="150" textAnchor="end" fontSize="96" fontWeight="700" fill={ARTWORK_TEXT} opacity="0.18">{initialsOf(title)}</text>
      {lines.map((line, i) => (
        <text key={`${i}-${line}`} x="20" y={44 + i * 30} fontSize="24" fontWeight="700" fill={ARTWORK_TEXT}>{line}</text>
      ))}
      <text x="20" y="160" fontSize="14" fill={ARTWORK_TEXT} opacity="0.85">{genre}</text>
    </svg>
  );
}
