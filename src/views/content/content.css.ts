import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

const narrow = 'screen and (max-width: 720px)';

export const menu = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, marginBottom: vars.space.md });
export const tabs = style({ display: 'flex', gap: vars.space.xs, borderBottom: `1px solid ${vars.color.border}`, marginBottom: vars.space.md, overflowX: 'auto' });
export const tab = style({
  background: 'transparent', border: 'none', borderBottom: '3px solid transparent', padding: `${vars.space.sm} ${vars.space.md}`,
  cursor: 'pointer', fontWeight: 600, color: vars.color.secondaryLight, whiteSpace: 'nowrap',
  selectors: { '&[aria-selected="true"]': { color: vars.color.primaryMain, borderBottomColor: vars.color.primaryLight } },
});
export const toolbar = style({
  display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md, marginBottom: vars.space.md,
});
export const toolbarField = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: '12rem', flex: '1 1 12rem' });
export const bulkBar = style({
  display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm, padding: vars.space.sm,
  background: vars.color.paper, borderRadius: vars.radius, marginBottom: vars.space.sm,
});
export const tableWrap = style({ overflowX: 'auto', position: 'relative' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.95rem' });
export const cell = style({
  textAlign: 'left', padding: vars.space.sm, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'middle',
  '@media': { [narrow]: { padding: `${vars.space.sm} ${vars.space.xs}` } },
});
export const numberCell = style([cell, { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }]);
/** Column headers may wrap on a phone, so the plays column stays on screen. */
export const numberHeadCell = style([numberCell, { color: vars.color.secondaryLight, fontWeight: 600, '@media': { [narrow]: { whiteSpace: 'normal' } } }]);
export const headCell = style([cell, { color: vars.color.secondaryLight, fontWeight: 600, whiteSpace: 'nowrap' }]);
export const hideNarrow = style({ '@media': { [narrow]: { display: 'none' } } });
export const sortButton = style({
  background: 'transparent', border: 'none', padding: 0, font: 'inherit', color: 'inherit', fontWeight: 600, cursor: 'pointer',
});
export const statusBadge = styleVariants({
  // The text variants keep AA contrast (4.5:1) in light and dark (the spec's green and orange do not on white).
  published: { color: vars.color.successText, fontWeight: 600 },
  unpublished: { color: vars.color.secondaryLight, fontWeight: 600 },
  draft: { color: vars.color.primaryMain, fontWeight: 600 },
  scheduled: { color: vars.color.warningText, fontWeight: 600 },
});
export const pager = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginTop: vars.space.md, flexWrap: 'wrap' });
export const busy = style({ opacity: 0.55 });
export const message = style({
  background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, textAlign: 'center', color: vars.color.secondaryLight,
});
export const errorMessage = style([message, { color: vars.color.error }]);

export const detailPage = style({ padding: vars.space.lg, maxWidth: '72rem', margin: '0 auto' });
export const backLink = style({ display: 'inline-block', marginBottom: vars.space.md, fontWeight: 600 });
export const detailHeader = style({
  display: 'grid', gridTemplateColumns: 'minmax(0, 20rem) 1fr', gap: vars.space.lg, alignItems: 'start', marginBottom: vars.space.lg,
  '@media': { [narrow]: { gridTemplateColumns: '1fr' } },
});
export const artwork = style({ width: '100%', aspectRatio: '16 / 9', borderRadius: vars.radius, display: 'block', objectFit: 'cover' });
export const facts = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: `${vars.space.xs} ${vars.space.md}`, margin: 0 });
export const factTerm = style({ color: vars.color.secondaryLight, fontWeight: 600 });
export const factValue = style({ margin: 0, overflowWrap: 'anywhere' });
export const sections = style({
  display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: vars.space.lg,
  '@media': { [narrow]: { gridTemplateColumns: '1fr' } },
});
export const section = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, minWidth: 0 });
export const sectionTitle = style({ margin: `0 0 ${vars.space.md}`, fontSize: '1.1rem', color: vars.color.primaryMain });
export const stats = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(8rem, 1fr))', gap: vars.space.md, margin: `0 0 ${vars.space.md}` });
export const stat = style({ display: 'flex', flexDirection: 'column' });
export const statValue = style({ fontSize: '1.4rem', fontWeight: 700, color: vars.color.secondaryMain, margin: 0 });
export const statLabel = style({ color: vars.color.secondaryLight, fontSize: '0.85rem' });
export const bars = style({ display: 'flex', alignItems: 'flex-end', gap: 2, height: 80 });
export const bar = style({ flex: 1, background: vars.color.primaryLight, borderRadius: '2px 2px 0 0', minHeight: 1 });
export const histogram = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, fontSize: '0.85rem', margin: `0 0 ${vars.space.md}` });
export const histogramRow = style({ display: 'grid', gridTemplateColumns: '5.5rem 1fr 3rem', alignItems: 'center', gap: vars.space.sm });
export const histogramTrack = style({ background: vars.color.background, borderRadius: 3, height: 10 });
export const histogramFill = style({ background: vars.color.primaryMain, borderRadius: 3, height: 10 });
export const form = style({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: `0 ${vars.space.md}`, '@media': { [narrow]: { gridTemplateColumns: '1fr' } } });
export const wide = style({ gridColumn: '1 / -1' });
export const formActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center', gridColumn: '1 / -1' });
export const notice = style({ gridColumn: '1 / -1', padding: vars.space.sm, borderRadius: vars.radius, background: vars.color.background });
export const savedText = style({ color: vars.color.success, fontWeight: 600 });
export const editArea = style({ marginTop: vars.space.lg });

/* Issue 29: filter chips and the bulk action's confirmation. */
export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, listStyle: 'none', padding: 0, margin: `0 0 ${vars.space.md}` });
export const chip = style({
  display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, padding: `2px ${vars.space.sm}`, borderRadius: '999px',
  background: vars.color.paper, border: `1px solid ${vars.color.border}`, fontSize: '0.9rem', maxWidth: '100%', overflowWrap: 'anywhere',
});
export const chipRemove = style({ border: 'none', background: 'transparent', cursor: 'pointer', fontSize: '1rem', lineHeight: 1, padding: '0 2px', color: 'inherit' });
export const confirm = style({
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: vars.color.paper, padding: vars.space.md, marginBottom: vars.space.md,
});
export const confirmTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: '1.05rem' });
export const confirmActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginTop: vars.space.sm });
