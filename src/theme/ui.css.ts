/** Building blocks shared by every view: buttons, fields, cards, page frames. */
import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from './theme.css';

const buttonBase = style({
  border: '1px solid transparent',
  borderRadius: vars.radius,
  padding: `${vars.space.sm} ${vars.space.md}`,
  cursor: 'pointer',
  fontWeight: 600,
  selectors: { '&:disabled': { opacity: 0.55, cursor: 'not-allowed' } },
});

export const button = styleVariants({
  primary: [buttonBase, { background: vars.color.accent, color: vars.color.info, selectors: { '&:hover:not(:disabled)': { background: vars.color.headerBg } } }],
  secondary: [buttonBase, { background: vars.color.background, color: vars.color.primaryMain, borderColor: vars.color.primaryMain }],
  ghost: [buttonBase, { background: 'transparent', color: vars.color.primaryMain }],
  danger: [buttonBase, { background: vars.color.errorFill, color: vars.color.info }],
});

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, marginBottom: vars.space.md });
export const label = style({ fontWeight: 600, fontSize: '0.9rem', color: vars.color.secondaryLight });
export const input = style({
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius,
  background: vars.color.background,
  selectors: {
    '&:focus': { outline: `2px solid ${vars.color.primaryLight}`, outlineOffset: 1 },
    // Issue 30: a read-only user's fields look disabled (they looked editable): the paper background,
    // the muted text colour (still AA on paper in both themes) and a dashed border.
    '&:disabled': { background: vars.color.paper, color: vars.color.secondaryLight, borderStyle: 'dashed', cursor: 'not-allowed', opacity: 1 },
  },
});
export const errorText = style({ color: vars.color.error, fontSize: '0.9rem', margin: `${vars.space.xs} 0` });

export const page = style({ padding: vars.space.lg, maxWidth: '80rem', margin: '0 auto' });
export const pageTitle = style({ fontSize: '1.5rem', margin: `0 0 ${vars.space.md}`, color: vars.color.primaryMain });
export const card = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg });
export const emptyState = style({
  background: vars.color.paper,
  borderRadius: vars.radius,
  padding: vars.space.xl,
  textAlign: 'center',
  color: vars.color.secondaryLight,
});
export const centeredScreen = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: vars.color.paper,
  padding: vars.space.md,
});
export const authCard = style({
  background: vars.color.background,
  borderRadius: vars.radius,
  padding: vars.space.xl,
  width: '100%',
  maxWidth: '26rem',
  boxShadow: '0 2px 12px rgba(0,0,0,0.08)',
});
