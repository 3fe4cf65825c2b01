/** The vanilla-extract theme: every colour of spec §9 comes from src/theme/colors.ts. */
import { assignVars, createGlobalTheme, globalStyle } from '@vanilla-extract/css';
import { CHART_GRID, CHART_TEXT, COLORS, DARK_CHART_GRID, DARK_CHART_TEXT, DARK_COLORS } from './colors';

export const vars = createGlobalTheme(':root', {
  color: {
    primaryLight: COLORS.primaryLight,
    primaryMain: COLORS.primaryMain,
    secondaryMain: COLORS.secondaryMain,
    secondaryLight: COLORS.secondaryLight,
    success: COLORS.success,
    successText: COLORS.successText,
    successFill: COLORS.successFill,
    warningFill: COLORS.warningFill,
    warningText: COLORS.warningText,
    errorFill: COLORS.error,
    /** The header bar (white text on it). */
    headerBg: COLORS.primaryMain,
    /** The primary button's fill (white text on it). */
    accent: COLORS.primaryLight,
    info: COLORS.info,
    paper: COLORS.paperBackground,
    background: COLORS.defaultBackground,
    error: COLORS.error,
    warning: COLORS.warning,
    required: COLORS.requiredAsterisk,
    border: '#d0d7de',
    muted: '#5f6b76',
    /** The charts' axis and label text, and their grid lines (issue 38: readable in both themes). */
    chartText: CHART_TEXT,
    chartGrid: CHART_GRID,
  },
  space: { xs: '0.25rem', sm: '0.5rem', md: '1rem', lg: '1.5rem', xl: '2.5rem' },
  radius: '6px',
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
});

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html, body', {
  margin: 0,
  padding: 0,
  fontFamily: vars.font.body,
  background: vars.color.background,
  color: vars.color.secondaryMain,
  minHeight: '100%',
});
globalStyle('a', { color: vars.color.primaryLight });
globalStyle('button, input, select, textarea', { font: 'inherit' });
/** Spec §5: number inputs have no spin buttons (the min of 0 is set on each input). */
globalStyle('input[type=number]', { MozAppearance: 'textfield' } as never);
globalStyle('input[type=number]::-webkit-outer-spin-button, input[type=number]::-webkit-inner-spin-button', {
  WebkitAppearance: 'none',
  margin: 0,
});
/** Spec §5: required-field asterisks are red. */
globalStyle('.required-asterisk', { color: vars.color.required });

/**
 * Dark mode (issue 20): follows the system's colour scheme unless the user menu's choice is stored
 * (src/views/shared/preferences.ts sets data-theme on <html>).
 */
const dark = assignVars(vars.color, {
  primaryLight: DARK_COLORS.primaryLight,
  primaryMain: DARK_COLORS.primaryMain,
  secondaryMain: DARK_COLORS.secondaryMain,
  secondaryLight: DARK_COLORS.secondaryLight,
  success: COLORS.success,
  successText: DARK_COLORS.successText,
  successFill: COLORS.successFill,
  warningFill: COLORS.warningFill,
  // The spec's orange is 5.6:1 on the dark background.
  warningText: COLORS.warning,
  errorFill: DARK_COLORS.errorFill,
  headerBg: DARK_COLORS.headerBackground,
  accent: DARK_COLORS.accent,
  info: COLORS.info,
  paper: DARK_COLORS.paperBackground,
  background: DARK_COLORS.defaultBackground,
  error: DARK_COLORS.error,
  warning: COLORS.warning,
  required: '#ff6b6b',
  border: DARK_COLORS.border,
  muted: DARK_COLORS.muted,
  chartText: DARK_CHART_TEXT,
  chartGrid: DARK_CHART_GRID,
});
globalStyle(':root[data-theme=dark]', { vars: dark, colorScheme: 'dark' });
globalStyle(':root:not([data-theme=light])', { '@media': { '(prefers-color-scheme: dark)': { vars: dark, colorScheme: 'dark' } } });
