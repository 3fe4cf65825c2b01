import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** Under this width the tabs and menus move behind the header's one Menu button. */
const COMPACT = 'screen and (max-width: 900px)';

export const header = style({
  minHeight: 56, display: 'flex', alignItems: 'center', gap: vars.space.lg, padding: `0 ${vars.space.lg}`,
  background: vars.color.headerBg, color: vars.color.info, maxWidth: '100vw', boxSizing: 'border-box',
  '@media': { [COMPACT]: { flexWrap: 'wrap', gap: vars.space.sm, padding: `${vars.space.xs} ${vars.space.md} 0` } },
});
export const logo = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, color: vars.color.info, textDecoration: 'none', fontWeight: 700 });
export const tabs = style({
  display: 'flex', gap: vars.space.xs, flex: 1, height: '100%', minWidth: 0,
  '@media': { [COMPACT]: { flexDirection: 'column', flexBasis: '100%', height: 'auto' } },
});
export const tab = style({
  display: 'flex', alignItems: 'center', padding: `0 ${vars.space.md}`, color: vars.color.info, textDecoration: 'none', opacity: 0.85,
  whiteSpace: 'nowrap', flexShrink: 0,
  borderBottom: '3px solid transparent',
  selectors: { '&[data-status=active]': { opacity: 1, borderBottomColor: vars.color.info, fontWeight: 600 } },
  '@media': { [COMPACT]: { minHeight: 44 } },
});
export const rightSide = style({
  display: 'flex', alignItems: 'center', gap: vars.space.md, marginLeft: 'auto', minWidth: 0,
  '@media': { [COMPACT]: { marginLeft: 0, flexWrap: 'wrap', justifyContent: 'space-between' } },
});
export const menu = style({ position: 'relative' });
export const menuSummary = style({
  listStyle: 'none', display: 'block', cursor: 'pointer', padding: vars.space.sm, borderRadius: vars.radius, whiteSpace: 'nowrap',
  overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '16rem',
  selectors: { '&::-webkit-details-marker': { display: 'none' }, '&::after': { content: '" ▾"' } },
  '@media': { [COMPACT]: { maxWidth: 'none' } },
});
export const menuList = style({
  position: 'absolute', right: 0, top: '110%', background: vars.color.background, color: vars.color.secondaryMain,
  borderRadius: vars.radius, boxShadow: '0 6px 20px rgba(0,0,0,0.2)', minWidth: '12rem', zIndex: 40, padding: vars.space.xs,
  display: 'flex', flexDirection: 'column',
});
export const menuItem = style({
  font: 'inherit',
  textAlign: 'left', background: 'transparent', border: 0, padding: vars.space.sm, cursor: 'pointer', color: vars.color.secondaryMain,
  textDecoration: 'none', borderRadius: vars.radius, selectors: {
    '&:hover': { background: vars.color.paper },
    // The chosen theme: bold with a bar (no generated text, which would join the item's accessible name).
    '&[aria-checked=true]': { fontWeight: 700, boxShadow: 'inset 3px 0 0 currentColor' },
  },
});
/** The theme choices inside the user menu: one under the other, between separators. */
export const menuGroup = style({
  display: 'flex', flexDirection: 'column', borderTop: `1px solid ${vars.color.paper}`, borderBottom: `1px solid ${vars.color.paper}`,
  margin: `${vars.space.xs} 0`, padding: `${vars.space.xs} 0`,
});

export const visuallyHidden = style({
  position: 'absolute', width: 1, height: 1, padding: 0, margin: -1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0,
});

/** The one Menu button of the compact header: hidden on wide screens. */
export const compactToggle = style({
  display: 'none', marginLeft: 'auto', background: 'transparent', color: vars.color.info, border: '1px solid rgba(255,255,255,0.6)',
  borderRadius: vars.radius, padding: `${vars.space.xs} ${vars.space.md}`, cursor: 'pointer', fontWeight: 600,
  '@media': { [COMPACT]: { display: 'block' } },
});
/** Tabs and menus: inline on wide screens; under 900 px a panel below the bar, shown when the Menu button is open. */
export const compactPanel = style({
  display: 'contents',
  '@media': {
    [COMPACT]: {
      display: 'none', flexBasis: '100%', flexDirection: 'column', alignItems: 'stretch', gap: vars.space.sm, paddingBottom: vars.space.sm,
      selectors: { '[data-compact-open=true] > &': { display: 'flex' } },
    },
  },
});

/** The skip link: off screen until it has keyboard focus. */
export const skipLink = style({
  position: 'absolute', left: vars.space.sm, top: -100, zIndex: 100, padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.background, color: vars.color.primaryMain, borderRadius: vars.radius, fontWeight: 600,
  selectors: { '&:focus': { top: vars.space.sm } },
});
export const mainContent = style({ outline: 'none' });

/** The site's zone, stated once per signed-in page under the header (ProtectedLayout). */
export const siteZoneNote = style({
  margin: 0, padding: `${vars.space.xs} ${vars.space.lg}`, fontSize: '0.8125rem', color: vars.color.muted, textAlign: 'right',
  '@media': { [COMPACT]: { padding: `${vars.space.xs} ${vars.space.md}`, textAlign: 'left' } },
});
