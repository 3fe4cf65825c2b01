import { describe, expect, it } from 'vitest';
import { contrastRatio, WCAG_AA } from '../../../common/appcms';
import { heatColours, mixWithWhite } from './heat';

describe('the cohort heat map colours (issue 30)', () => {
  it('gives every retention from 0 to 100 % a text colour of at least 4.5:1 on its own shade', () => {
    for (let percent = 0; percent <= 100; percent += 1) {
      const { background, color } = heatColours(percent);
      expect(contrastRatio(background, color), `${percent} %`).toBeGreaterThanOrEqual(WCAG_AA);
    }
    expect(heatColours(0)).toEqual({ background: '#FFFFFF', color: '#111111' });
    expect(heatColours(-5)).toEqual(heatColours(0));
  });

  it('mixes a colour with white', () => {
    expect(mixWithWhite('#000000', 0.5)).toBe('#808080');
    expect(mixWithWhite('#1370B3', 1)).toBe('#1370B3');
  });
});
