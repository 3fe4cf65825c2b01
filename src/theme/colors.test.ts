/**
 * Issue 38: every text colour of each theme reads at 4.5:1 or more on the page and the paper background
 * (a dialog sits on the page's, a section or panel on the paper), and the charts' axis and label text is readable in both themes (at least 4.5:1, WCAG AA for
 * text of 11 px) on every background a chart sits on: the page and the paper of its theme. axe does
 * not judge SVG text drawn in aria-hidden charts, so the theme's values are checked here.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../common/appcms';
import { CHART_GRID, CHART_TEXT, COLORS, DARK_CHART_GRID, DARK_CHART_TEXT, DARK_COLORS } from './colors';

/** 'white' and the other named colours of spec §9 as #RRGGBB, for the ratio. */
const hex = (color: string): string => ({ white: '#FFFFFF', black: '#000000' } as Record<string, string>)[color] ?? color;

const THEMES = [
  { theme: 'light', text: CHART_TEXT, grid: CHART_GRID, backgrounds: [COLORS.defaultBackground, COLORS.paperBackground] },
  { theme: 'dark', text: DARK_CHART_TEXT, grid: DARK_CHART_GRID, backgrounds: [DARK_COLORS.defaultBackground, DARK_COLORS.paperBackground] },
] as const;

/** The text colours of each theme (src/theme/theme.css.ts: the light theme, then the dark one's overrides). */
const TEXT_COLOURS = {
  light: {
    primaryLight: COLORS.primaryLight, primaryMain: COLORS.primaryMain, secondaryMain: COLORS.secondaryMain, secondaryLight: COLORS.secondaryLight,
    successText: COLORS.successText, warningText: COLORS.warningText, error: COLORS.error,
  },
  dark: {
    primaryLight: DARK_COLORS.primaryLight, primaryMain: DARK_COLORS.primaryMain, secondaryMain: DARK_COLORS.secondaryMain, secondaryLight: DARK_COLORS.secondaryLight,
    successText: DARK_COLORS.successText, warningText: COLORS.warning, error: DARK_COLORS.error, muted: DARK_COLORS.muted,
  },
} as const;

describe('text colours of the theme', () => {
  for (const { theme, backgrounds } of THEMES) {
    it(`every text colour of the ${theme} theme is at least 4.5:1 on its page and paper`, () => {
      for (const [name, colour] of Object.entries(TEXT_COLOURS[theme])) {
        for (const background of backgrounds) {
          expect(contrastRatio(hex(colour), hex(background))!, `${name} ${colour} on ${background}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
  }
});

describe('chart colours of the theme', () => {
  for (const { theme, text, backgrounds } of THEMES) {
    it(`axis and label text is at least 4.5:1 on the ${theme} theme's page and paper`, () => {
      for (const background of backgrounds) {
        const ratio = contrastRatio(hex(text), hex(background));
        expect(ratio, `${text} on ${background}`).not.toBeNull();
        expect(ratio!, `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('the light theme\'s chart text on the dark background is what issue 38 found (about 1.7:1), so the dark theme needs its own', () => {
    expect(contrastRatio(CHART_TEXT, DARK_COLORS.defaultBackground)!).toBeLessThan(2);
  });

  it('grid lines stay fainter than the text in both themes, so the labels stand out', () => {
    for (const { text, grid, backgrounds } of THEMES) {
      expect(contrastRatio(hex(grid), hex(backgrounds[0]))!).toBeLessThan(contrastRatio(hex(text), hex(backgrounds[0]))!);
    }
  });
});
