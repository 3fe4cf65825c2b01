/** "My sessions": one card per session, stacked on narrow screens. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const intro = style({ color: vars.color.secondaryLight, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem' });
export const list = style({ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: vars.space.sm, maxWidth: '48rem' });
export const item = style({
  display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center', justifyContent: 'space-between',
  padding: vars.space.md, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.background,
});
// A second ring inside the border marks this session without shifting its content.
export const current = style({ borderColor: vars.color.primaryMain, boxShadow: `inset 0 0 0 1px ${vars.color.primaryMain}` });
export const details = style({ display: 'grid', gap: '2px', minWidth: 0, flex: '1 1 16rem' });
export const device = style({ fontWeight: 600, overflowWrap: 'anywhere' });
export const meta = style({ color: vars.color.secondaryLight, fontSize: '0.85rem', overflowWrap: 'anywhere' });
export const badge = style({
  display: 'inline-block', marginLeft: vars.space.sm, padding: '0 8px', borderRadius: '999px', fontSize: '0.75rem', fontWeight: 600,
  // The page's own background as text on the primary colour: AA in both themes (issue 30: the dark
  // theme's light primary with white text failed).
  background: vars.color.primaryMain, color: vars.color.background, verticalAlign: 'middle',
});
export const notice = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem', background: '#e6f7ea', color: '#0b5d1e' });
export const failure = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem', background: '#fdecea', color: '#8a1c12' });
