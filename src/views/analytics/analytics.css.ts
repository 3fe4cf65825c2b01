import { globalStyle, keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** Under 900 px the side navigation folds above the page behind a Sections button (issue 20), as AppCMS's does. */
const COMPACT = 'screen and (max-width: 900px)';
const DESKTOP = 'screen and (min-width: 901px)';
export const layout = style({
  display: 'flex', minHeight: 'calc(100vh - 56px)',
  '@media': { [COMPACT]: { flexDirection: 'column' }, print: { display: 'block' } },
});
export const sideNav = style({
  width: '15rem', background: vars.color.paper, padding: vars.space.md, flexShrink: 0, overflowY: 'auto', position: 'relative',
  '@media': {
    [COMPACT]: { width: 'auto', display: 'flex', flexWrap: 'wrap', alignItems: 'center', padding: vars.space.sm },
    [DESKTOP]: { selectors: { '&[data-collapsed=true]': { width: '3rem', padding: vars.space.xs, overflow: 'hidden' } } },
    print: { display: 'none' },
  },
});
/** The reports: under 900 px only while Sections is open; at desktop width hidden while collapsed. */
export const sideLinks = style({
  '@media': {
    [COMPACT]: { display: 'none', flexBasis: '100%', maxHeight: '60vh', overflowY: 'auto', selectors: { '[data-open=true] > &': { display: 'block' } } },
    [DESKTOP]: { selectors: { '[data-collapsed=true] > &': { display: 'none' } } },
  },
});
/** The Sections button: only under 900 px. */
export const sideToggle = style({
  display: 'none', marginLeft: 'auto', background: 'transparent', color: vars.color.secondaryMain, font: 'inherit', fontWeight: 600,
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: `${vars.space.xs} ${vars.space.md}`, cursor: 'pointer',
  '@media': { [COMPACT]: { display: 'block' } },
});
/** The collapse / expand button: only at desktop width, top right of the navigation. */
export const sideCollapse = style({
  display: 'block', marginLeft: 'auto', background: 'transparent', color: vars.color.secondaryMain, font: 'inherit', fontWeight: 600, lineHeight: 1,
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: `${vars.space.xs} ${vars.space.sm}`, cursor: 'pointer',
  '@media': { [COMPACT]: { display: 'none' } },
});
export const sideGroup = style({ fontSize: '0.75rem', textTransform: 'uppercase', color: vars.color.muted, margin: `${vars.space.md} 0 ${vars.space.xs}`, letterSpacing: '0.05em' });
export const sideLink = style({
  display: 'block', padding: `${vars.space.xs} ${vars.space.sm}`, borderRadius: vars.radius, color: vars.color.secondaryLight, textDecoration: 'none', fontSize: '0.92rem',
  selectors: { '&[data-status=active]': { background: vars.color.background, color: vars.color.primaryMain, fontWeight: 600 } },
});
export const content = style({ flex: 1, minWidth: 0, padding: vars.space.lg, '@media': { 'screen and (max-width: 800px)': { padding: vars.space.sm } } });
export const header = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: vars.space.md, justifyContent: 'space-between' });
export const title = style({ fontSize: '1.5rem', margin: 0, color: vars.color.primaryMain });
export const summary = style({ color: vars.color.secondaryLight, margin: `${vars.space.xs} 0 ${vars.space.md}` });
export const filterBar = style({
  display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'flex-end', background: vars.color.paper, padding: vars.space.sm,
  borderRadius: vars.radius, marginBottom: vars.space.md, '@media': { print: { display: 'none' } },
});
export const filterField = style({ display: 'flex', flexDirection: 'column', gap: '2px', fontSize: '0.8rem', color: vars.color.secondaryLight });
export const control = style({ padding: '0.3rem 0.4rem', border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.background, fontSize: '0.9rem' });
export const preset = style({
  padding: '0.3rem 0.6rem', border: `1px solid ${vars.color.primaryMain}`, borderRadius: vars.radius, color: vars.color.primaryMain, textDecoration: 'none', fontSize: '0.9rem', background: vars.color.background,
  font: 'inherit', lineHeight: 'inherit', cursor: 'pointer',
  // Pressed: filled with the button's own colour, text in the page's (≥ 8.5:1 in both themes; the dark
  // theme's header fill was hardly apart from the page, issue 41).
  selectors: { '&[aria-pressed=true]': { background: vars.color.primaryMain, color: vars.color.background, fontWeight: 600 } },
});
export const tiles = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(11rem, 1fr))', gap: vars.space.sm, marginBottom: vars.space.md });
export const tile = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.sm, breakInside: 'avoid' });
export const tileLabel = style({ fontSize: '0.8rem', color: vars.color.secondaryLight });
export const tileValue = style({ fontSize: '1.4rem', fontWeight: 700, color: vars.color.primaryMain });
export const tileChange = style({ fontSize: '0.8rem', color: vars.color.secondaryLight });
export const charts = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(22rem, 1fr))', gap: vars.space.md, marginBottom: vars.space.md });
export const chartCard = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.sm, breakInside: 'avoid', minWidth: 0 });
/** The box a chart measures and draws into; below the chart's minimum width it scrolls sideways. */
export const chartBox = style({ overflowX: 'auto', maxWidth: '100%' });
/** Axis and label text, grid lines and the edge between stacked bars, in the theme's colours (issue 38: 1.7:1 in dark before). */
export const chartText = style({ fill: vars.color.chartText });
export const chartGrid = style({ stroke: vars.color.chartGrid });
export const chartBarEdge = style({ stroke: vars.color.background, strokeWidth: 0.5 });
export const chartTitle = style({ fontSize: '0.95rem', margin: `0 0 ${vars.space.xs}`, color: vars.color.secondaryLight });
export const legend = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, fontSize: '0.8rem', margin: 0, padding: 0, listStyle: 'none' });
export const tableWrap = style({ overflowX: 'auto' });
export const table = style({ borderCollapse: 'collapse', width: '100%', fontSize: '0.88rem' });
export const th = style({ textAlign: 'right', padding: '0.35rem 0.5rem', borderBottom: `2px solid ${vars.color.border}`, whiteSpace: 'nowrap', position: 'sticky', top: 0, background: vars.color.background });
export const td = style({ textAlign: 'right', padding: '0.3rem 0.5rem', borderBottom: `1px solid ${vars.color.border}`, whiteSpace: 'nowrap' });
globalStyle(`${th}:first-child, ${td}:first-child`, { textAlign: 'left' });
export const sortButton = style({ background: 'none', border: 'none', font: 'inherit', fontWeight: 600, cursor: 'pointer', color: vars.color.primaryMain, padding: 0 });
export const tableActions = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', margin: `${vars.space.sm} 0`, '@media': { print: { display: 'none' } } });
const pulse = keyframes({ '0%': { opacity: 0.5 }, '50%': { opacity: 1 }, '100%': { opacity: 0.5 } });
export const skeleton = style({ background: vars.color.paper, borderRadius: vars.radius, animation: `${pulse} 1.4s ease-in-out infinite` });
export const note = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, color: vars.color.secondaryLight });
export const errorNote = style({ border: `1px solid ${vars.color.error}`, borderRadius: vars.radius, padding: vars.space.md, color: vars.color.error });
export const status = style({ fontSize: '0.85rem', color: vars.color.secondaryLight });
export const cards = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: vars.space.md });
export const heat = style({ textAlign: 'right', padding: '0.3rem 0.5rem', borderBottom: `1px solid ${vars.color.border}`, whiteSpace: 'nowrap', printColorAdjust: 'exact' });
globalStyle(`${heat}:first-child`, { textAlign: 'left' });
export const srOnly = style({ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' });
