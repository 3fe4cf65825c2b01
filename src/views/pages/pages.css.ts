import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** Under 900 px the side navigation folds above the page behind a Sections button (issue 20: no 134 px column at 390 px). */
const COMPACT = 'screen and (max-width: 900px)';
export const areaLayout = style({ display: 'flex', minHeight: 'calc(100vh - 56px)', '@media': { [COMPACT]: { flexDirection: 'column' } } });
export const sideNav = style({
  width: '16rem', background: vars.color.paper, padding: vars.space.md, flexShrink: 0, overflowY: 'auto',
  '@media': { [COMPACT]: { width: 'auto', display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.xs, padding: vars.space.sm } },
});
export const sideGroup = style({ fontSize: '0.75rem', textTransform: 'uppercase', color: vars.color.muted, margin: `${vars.space.md} 0 ${vars.space.xs}`, letterSpacing: '0.05em', '@media': { [COMPACT]: { margin: `0 ${vars.space.sm} 0 0` } } });
export const sideLink = style({
  display: 'block', padding: `${vars.space.xs} ${vars.space.sm}`, borderRadius: vars.radius, color: vars.color.secondaryLight, textDecoration: 'none',
  selectors: { '&[data-status=active]': { background: vars.color.background, color: vars.color.primaryMain, fontWeight: 600 } },
});
/** Under 900 px the section links show only while the Sections button is open. */
export const sideLinks = style({
  '@media': {
    [COMPACT]: {
      display: 'none', flexBasis: '100%', flexWrap: 'wrap', gap: vars.space.xs,
      selectors: { '[data-open=true] > &': { display: 'flex' } },
    },
  },
});
/** The Sections button: only under 900 px. */
export const sideToggle = style({
  display: 'none', marginLeft: 'auto', background: 'transparent', color: vars.color.secondaryMain, font: 'inherit', fontWeight: 600,
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: `${vars.space.xs} ${vars.space.md}`, cursor: 'pointer',
  '@media': { [COMPACT]: { display: 'block' } },
});
export const areaContent = style({ flex: 1, minWidth: 0 });
// On a phone the five Monetization tabs scroll sideways rather than widen the page.
export const tabBar = style({ display: 'flex', gap: vars.space.md, borderBottom: `1px solid ${vars.color.border}`, padding: `0 ${vars.space.lg}`, overflowX: 'auto', whiteSpace: 'nowrap' });
export const tab = style({
  padding: `${vars.space.sm} ${vars.space.xs}`, textDecoration: 'none', color: vars.color.secondaryLight, borderBottom: '3px solid transparent', flexShrink: 0,
  selectors: { '&[data-active=true]': { borderBottomColor: vars.color.primaryLight, color: vars.color.primaryMain, fontWeight: 600 } },
});
export const notFound = style({ textAlign: 'center', padding: vars.space.xl });
