import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** Under this width the area tabs move to a second row that scrolls sideways inside the header. */
const COMPACT = 'screen and (max-width: 900px)';

export const header = style({
  minHeight: 56, display: 'flex', alignItems: 'center', gap: vars.space.lg, padding: `0 ${vars.space.lg}`,
  background: vars.color.primaryMain, color: vars.color.info, maxWidth: '100vw', boxSizing: 'border-box',
  '@media': { [COMPACT]: { flexWrap: 'wrap', gap: vars.space.sm, padding: `${vars.space.xs} ${vars.space.md} 0` } },
});
export const logo = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, color: vars.color.info, textDecoration: 'none', fontWeight: 700 });
export const tabs = style({
  display: 'flex', gap: vars.space.xs, flex: 1, height: '100%', minWidth: 0,
  '@media': { [COMPACT]: { order: 3, flexBasis: '100%', height: 44, overflowX: 'auto', scrollbarWidth: 'none' } },
});
export const tab = style({
  display: 'flex', alignItems: 'center', padding: `0 ${vars.space.md}`, color: vars.color.info, textDecoration: 'none', opacity: 0.85,
  whiteSpace: 'nowrap', flexShrink: 0,
  borderBottom: '3px solid transparent',
  selectors: { '&[data-status=active]': { opacity: 1, borderBottomColor: vars.color.info, fontWeight: 600 } },
});
export const rightSide = style({ display: 'flex', alignItems: 'center', gap: vars.space.md, marginLeft: 'auto', minWidth: 0 });
export const menu = style({ position: 'relative' });
export const menuSummary = style({
  listStyle: 'none', cursor: 'pointer', padding: vars.space.sm, borderRadius: vars.radius, whiteSpace: 'nowrap',
  overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '16rem',
  selectors: { '&::-webkit-details-marker': { display: 'none' } },
  '@media': { [COMPACT]: { maxWidth: '10rem' } },
});
export const menuList = style({
  position: 'absolute', right: 0, top: '110%', background: vars.color.background, color: vars.color.secondaryMain,
  borderRadius: vars.radius, boxShadow: '0 6px 20px rgba(0,0,0,0.2)', minWidth: '12rem', zIndex: 40, padding: vars.space.xs,
  display: 'flex', flexDirection: 'column',
});
export const menuItem = style({
  textAlign: 'left', background: 'transparent', border: 0, padding: vars.space.sm, cursor: 'pointer', color: vars.color.secondaryMain,
  textDecoration: 'none', borderRadius: vars.radius, selectors: { '&:hover': { background: vars.color.paper } },
});
