import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const player = style({ width: '100%', maxWidth: '56rem', aspectRatio: '16 / 9', background: '#000', borderRadius: vars.radius, display: 'block' });
export const playerBar = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, alignItems: 'center', margin: `${vars.space.sm} 0` });
export const progress = style({ width: '100%', maxWidth: '32rem', height: '1rem' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });
export const renditions = style({ listStyle: 'none', padding: 0, margin: `${vars.space.sm} 0`, display: 'grid', gap: vars.space.xs });
export const scrubber = style({ position: 'relative', maxWidth: '56rem', paddingTop: vars.space.xs });
export const range = style({ width: '100%', display: 'block' });
/** The storyboard's thumbnail above the scrubber (its sprite, size and offset come from the cue). */
export const thumbnail = style({
  position: 'absolute', bottom: '100%', backgroundRepeat: 'no-repeat', border: `2px solid ${vars.color.paper}`, borderRadius: vars.radius,
  boxShadow: '0 2px 8px rgba(0, 0, 0, 0.4)', pointerEvents: 'none',
});
