import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const player = style({ width: '100%', maxWidth: '56rem', aspectRatio: '16 / 9', background: '#000', borderRadius: vars.radius, display: 'block' });
export const playerBar = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, alignItems: 'center', margin: `${vars.space.sm} 0` });
export const progress = style({ width: '100%', maxWidth: '32rem', height: '1rem' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });
export const renditions = style({ listStyle: 'none', padding: 0, margin: `${vars.space.sm} 0`, display: 'grid', gap: vars.space.xs });
