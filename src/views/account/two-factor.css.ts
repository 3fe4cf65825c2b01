/** The "Two-factor authentication" page: a status card, the set-up steps, the recovery codes. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const section = style({
  maxWidth: '48rem', padding: vars.space.md, marginBottom: vars.space.md,
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.background,
});
export const status = style({ fontWeight: 600, margin: `0 0 ${vars.space.xs}` });
export const intro = style({ color: vars.color.secondaryLight, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem' });
export const muted = style({ color: vars.color.secondaryLight, fontSize: '0.9rem', margin: `${vars.space.xs} 0` });
export const subtitle = style({ fontSize: '1.1rem', margin: `0 0 ${vars.space.sm}` });
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginTop: vars.space.sm });
export const setup = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.lg, alignItems: 'flex-start' });
// The QR code keeps a white quiet zone in dark mode too, so phone cameras read it.
export const qr = style({ width: '200px', height: '200px', flex: '0 0 auto', background: '#ffffff', padding: '8px', borderRadius: vars.radius });
export const secret = style({
  display: 'block', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '1rem', letterSpacing: '0.05em',
  padding: vars.space.sm, background: vars.color.paper, borderRadius: vars.radius, overflowWrap: 'anywhere', margin: `${vars.space.xs} 0 ${vars.space.md}`,
});
export const codes = style({
  display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))', gap: vars.space.xs, padding: 0, margin: `${vars.space.sm} 0`,
  listStyle: 'none', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '1rem',
});
export const codeItem = style({ padding: '4px 8px', background: vars.color.paper, borderRadius: vars.radius });
export const form = style({ display: 'grid', gap: vars.space.xs, maxWidth: '22rem' });
export const notice = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem', background: '#e6f7ea', color: '#0b5d1e' });
export const failure = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem', background: '#fdecea', color: '#8a1c12' });
export const required = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, maxWidth: '48rem', background: '#fff4e5', color: '#6b3d00', fontWeight: 600 });
