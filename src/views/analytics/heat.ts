/**
 * The cohort heat map's cell colours: retention shades from white to the primary blue, and the text
 * colour set on every cell, in both themes, to whichever of near-black and white contrasts more with
 * that cell's own shade (issue 30: mid shades kept the page's text colour, below 4.5:1, and the dark
 * theme's light text sat on light cells).
 */
import { contrastRatio } from '../../../common/appcms';
import { COLORS } from '../../theme/colors';

const DARK_TEXT = '#111111';
const LIGHT_TEXT = '#FFFFFF';

/** `hex` mixed with white, `share` of it (0 to 1), as #RRGGBB. */
export function mixWithWhite(hex: string, share: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number) => Math.round(c * share + 255 * (1 - share)).toString(16).padStart(2, '0');
  return `#${channel((n >> 16) & 255)}${channel((n >> 8) & 255)}${channel(n & 255)}`.toUpperCase();
}

/** Background and text colour of a cell holding `percent` retention (0 to 100). */
export function heatColours(percent: number): { background: string; color: string } {
  const share = Math.round(Math.min(1, Math.max(0, percent / 100)) * 85) / 100;
  const background = mixWithWhite(COLORS.primaryLight, share);
  const color = (contrastRatio(background, DARK_TEXT) ?? 0) >= (contrastRatio(background, LIGHT_TEXT) ?? 0) ? DARK_TEXT : LIGHT_TEXT;
  return { background, color };
}
