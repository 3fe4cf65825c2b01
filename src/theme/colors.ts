/** Theme colours of spec §9, verbatim. Plain data so index.html checks and the theme read one source. */
export const COLORS = {
  primaryLight: '#1370B3',
  primaryMain: '#0C5177',
  secondaryMain: 'black',
  secondaryLight: '#404040',
  success: '#00B523',
  /** Text in the success colour on a light background: #00B523 is 2.75:1 on white, this is 5.5:1 (AA). */
  successText: '#137A2A',
  /** Fills under white text (snackbars): the spec's green and orange are under 3:1 with white. */
  successFill: '#137A2A',
  warningFill: '#B45309',
  /**
   * Text in the warning colour on a light background: #ED6C02 is 3.0:1 on white; this is 5.6:1 on white
   * and 5.0:1 on the paper background (issue 38: #B45309 was 4.45:1 on paper, a scheduled episode's status).
   */
  warningText: '#A84D08',
  info: 'white',
  paperBackground: '#f1f1f1',
  defaultBackground: 'white',
  themeColorMeta: '#1370B3',
  requiredAsterisk: 'red',
  error: '#C62828',
  warning: '#ED6C02',
} as const;

/**
 * The shell's colours for dark backgrounds (issue 20), under the same names as the light theme's, so
 * every style reads one theme contract. Text colours lighten; the fills that carry white text
 * (header, primary button, snackbars) stay dark enough for AA (4.5:1) against white.
 */
export const DARK_COLORS = {
  primaryLight: '#7cc0f5',
  primaryMain: '#a8d4f7',
  secondaryMain: '#e6e8eb',
  secondaryLight: '#c0c7ce',
  successText: '#6fe08a',
  paperBackground: '#1c2127',
  defaultBackground: '#121619',
  border: '#3a434c',
  muted: '#a3adb8',
  headerBackground: '#0a2a3d',
  accent: '#1565a0',
  error: '#ff8a80',
  errorFill: '#C62828',
} as const;

/**
 * Background pairs of the artwork drawn for a content item without an artwork URL
 * (src/views/content/ContentArtwork.tsx): the genre picks the pair, so one genre keeps one look.
 */
export { ARTWORK_PALETTE, ARTWORK_TEXT } from '../../common/artwork-poster';

/**
 * Series colours of the Dashboard 360 charts, in order: the theme's blues first, then hues that stay
 * apart in greyscale print (each also gets its own dash pattern, see src/views/analytics/charts).
 */
export const CHART_COLORS: readonly string[] = ['#1370B3', '#00B523', '#ED6C02', '#0C5177', '#8E44AD', '#404040'];
/**
 * The charts' axis and label text and their grid lines, per theme (issue 38: the light theme's #404040
 * was 1.7:1 on the dark background). Text is at least 4.5:1 on the page and on the paper background of
 * its theme (src/theme/colors.test.ts computes it); the chart draws them through the theme's
 * chartText and chartGrid variables.
 */
export const CHART_GRID = '#d9d9d9';
export const CHART_TEXT = '#404040';
export const DARK_CHART_GRID = '#3a434c';
export const DARK_CHART_TEXT = '#c0c7ce';
