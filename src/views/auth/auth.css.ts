/** Styles of the public auth pages and dialogs. */
import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const form = style({ display: 'flex', flexDirection: 'column' });
export const title = style({ fontSize: '1.4rem', margin: `0 0 ${vars.space.md}`, color: vars.color.primaryMain });
export const text = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.secondaryLight });
export const note = style({ fontSize: '0.85rem', color: vars.color.muted, margin: `${vars.space.sm} 0 0` });
export const passwordRow = style({ display: 'flex', gap: vars.space.xs, alignItems: 'stretch' });
export const passwordInput = style({ flex: 1, minWidth: 0 });
export const toggle = style({
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.background,
  color: vars.color.primaryMain, cursor: 'pointer', padding: `0 ${vars.space.sm}`, fontSize: '0.85rem',
});
export const actions = style({ display: 'flex', gap: vars.space.sm, justifyContent: 'space-between', alignItems: 'center', marginTop: vars.space.sm, flexWrap: 'wrap' });
export const submit = style({ width: '100%', marginTop: vars.space.sm });
export const links = style({ display: 'flex', justifyContent: 'space-between', marginTop: vars.space.md, fontSize: '0.9rem' });
export const divider = style({ textAlign: 'center', color: vars.color.muted, margin: `${vars.space.md} 0`, fontSize: '0.85rem' });
export const social = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm });
export const otpInput = style({ letterSpacing: '0.5em', fontSize: '1.3rem', textAlign: 'center', fontVariantNumeric: 'tabular-nums' });
export const phone = style({ fontWeight: 700, color: vars.color.secondaryMain });
export const checklist = style({ listStyle: 'none', padding: 0, margin: `0 0 ${vars.space.md}`, fontSize: '0.85rem' });
export const rule = styleVariants({
  met: { color: vars.color.success },
  missing: { color: vars.color.muted },
});
export const status = style({ textAlign: 'center', color: vars.color.secondaryLight });
