/**
 * The poster drawn for a content item from its title and genre (the genre picks the colours, the
 * title's initials and words are printed), so every item has the same picture every time. The item
 * page draws it when an item has no artwork (src/views/content/ContentArtwork.tsx); the demo seed
 * stores it as each seeded item's artwork (issue 38, server/demo/seed-artwork.ts).
 */

/**
 * Background pairs of the drawn poster: the genre picks the pair, so one genre keeps one look.
 */
export const ARTWORK_PALETTE: readonly (readonly [from: string, to: string])[] = [
  ['#0C5177', '#1370B3'],
  ['#4A1D6B', '#8E44AD'],
  ['#7A2E0E', '#D35400'],
  ['#14532D', '#27AE60'],
  ['#7B1F3A', '#C0392B'],
  ['#1F2937', '#4B5563'],
  ['#0E4D4D', '#16A085'],
  ['#5B3A00', '#B7791F'],
];
export const ARTWORK_TEXT = 'white';

/** The drawn poster's size (16:9, the thumbnail slot's smallest size). */
export const POSTER_WIDTH = 320;
export const POSTER_HEIGHT = 180;

export function hashOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash;
}

/** Up to three lines of at most ~16 characters, for the poster's title block. */
export function titleLines(title: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    if (line && `${line} ${word}`.length > 16) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > 3) return [...lines.slice(0, 2), `${lines[2]}…`];
  return lines;
}

export function initialsOf(title: string): string {
  return title.split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w)).slice(0, 2).map((w) => [...w][0]!.toUpperCase()).join('');
}

/** The colours of a genre's poster. */
export function paletteOf(genre: string): readonly [from: string, to: string] {
  return ARTWORK_PALETTE[hashOf(genre) % ARTWORK_PALETTE.length]!;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)};`);

/** The drawn poster as an SVG document (the item page's drawing, as a file). */
export function posterSvg(title: string, genre: string): string {
  const [from, to] = paletteOf(genre);
  const lines = titleLines(title).map((line, i) =>
    `<text x="20" y="${44 + i * 30}" font-size="24" font-weight="700" fill="${ARTWORK_TEXT}">${escapeXml(line)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" viewBox="0 0 ${POSTER_WIDTH} ${POSTER_HEIGHT}" font-family="sans-serif">`
    + `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`
    + `<rect width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" fill="url(#g)"/>`
    + `<text x="300" y="150" text-anchor="end" font-size="96" font-weight="700" fill="${ARTWORK_TEXT}" opacity="0.18">${escapeXml(initialsOf(title))}</text>`
    + lines.join('')
    + `<text x="20" y="160" font-size="14" fill="${ARTWORK_TEXT}" opacity="0.85">${escapeXml(genre)}</text></svg>`;
}
