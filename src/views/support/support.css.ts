/** Layout of the Users pages: search bar, tables that scroll sideways on phones, the subscriber's cards. */
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** The subscription filters (issue 27): one row of equal selects under the search, wrapping on narrow screens. */
export const filterBar = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))',
  gap: vars.space.md,
  alignItems: 'end',
});

export const searchBar = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) 12rem',
  gap: vars.space.md,
  alignItems: 'end',
  marginBottom: vars.space.md,
  '@media': { 'screen and (max-width: 640px)': { gridTemplateColumns: '1fr', gap: 0 } },
});

export const tableWrap = style({ overflowX: 'auto', background: vars.color.paper, borderRadius: vars.radius });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.92rem' });
export const th = style({
  textAlign: 'left', padding: `${vars.space.sm} ${vars.space.md}`, borderBottom: `2px solid ${vars.color.border}`,
  color: vars.color.secondaryLight, whiteSpace: 'nowrap', fontWeight: 600,
  '@media': { 'screen and (max-width: 640px)': { padding: vars.space.sm } },
});
export const td = style({
  padding: `${vars.space.sm} ${vars.space.md}`, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top',
  '@media': { 'screen and (max-width: 640px)': { padding: vars.space.sm } },
});
export const numeric = style({ textAlign: 'right', whiteSpace: 'nowrap' });
export const nowrap = style({ whiteSpace: 'nowrap' });
export const busy = style({ opacity: 0.6, transition: 'opacity 120ms' });

export const pager = style({
  display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.md, flexWrap: 'wrap',
  marginTop: vars.space.md, color: vars.color.secondaryLight,
});
export const pagerButtons = style({ display: 'flex', gap: vars.space.sm });

export const badge = styleVariants({
  good: { background: '#e3f4e8', color: '#1d6b35' },
  warn: { background: '#fff3d6', color: '#7a5300' },
  bad: { background: '#fde4e4', color: '#9b1c1c' },
  neutral: { background: '#eceff3', color: vars.color.secondaryLight },
}, (tone) => [{ display: 'inline-block', padding: '0.1rem 0.5rem', borderRadius: '999px', fontSize: '0.8rem', fontWeight: 600, whiteSpace: 'nowrap' }, tone]);

export const header = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm, marginBottom: vars.space.md });
export const headerTitle = style({ fontSize: '1.5rem', margin: 0, color: vars.color.primaryMain });
export const backLink = style({ display: 'inline-block', marginBottom: vars.space.sm });

export const section = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.md, marginBottom: vars.space.md });
export const sectionHeader = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, flexWrap: 'wrap', marginBottom: vars.space.sm });
export const sectionTitle = style({ fontSize: '1.1rem', margin: 0, color: vars.color.primaryMain });
export const sectionNote = style({ color: vars.color.muted, fontSize: '0.85rem', margin: `0 0 ${vars.space.sm}` });

export const facts = style({
  display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))', gap: vars.space.md, margin: 0,
});
export const factName = style({ color: vars.color.secondaryLight, fontSize: '0.8rem', fontWeight: 600 });
export const factValue = style({ margin: 0, overflowWrap: 'anywhere' });

export const rowActions = style({ display: 'flex', gap: vars.space.xs, flexWrap: 'wrap' });
export const smallButton = style({ padding: `0.2rem ${vars.space.sm}`, fontSize: '0.85rem' });
export const flagged = style({ color: vars.color.error, fontWeight: 600 });

export const notes = style({ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: vars.space.sm });
export const note = style({ borderLeft: `3px solid ${vars.color.primaryLight}`, padding: `${vars.space.xs} ${vars.space.sm}`, background: vars.color.background });
export const noteMeta = style({ color: vars.color.muted, fontSize: '0.8rem' });

export const doneMessage = style({
  background: '#e3f4e8', color: '#1d6b35', borderRadius: vars.radius, padding: `${vars.space.sm} ${vars.space.md}`, marginBottom: vars.space.md,
});
export const radioRow = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-start', marginBottom: vars.space.sm });
export const textarea = style({ minHeight: '5rem', resize: 'vertical' });
export const hint = style({ color: vars.color.muted, fontSize: '0.85rem', margin: `${vars.space.xs} 0 0` });
/** Columns a phone can do without: the row still names the subscriber, the masked e-mail and the status. */
export const narrowHidden = style({ '@media': { 'screen and (max-width: 640px)': { display: 'none' } } });

/**
 * Issue 29: a table whose rows carry actions becomes one card per row on phones (≤ 640 px), each
 * cell under its column's name (data-label), so no action sits off-screen behind a sideways scroll.
 */
export const stackedTable = style({});
const NARROW = 'screen and (max-width: 640px)';
globalStyle(`${stackedTable} thead`, { '@media': { [NARROW]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } } });
globalStyle(`${stackedTable}, ${stackedTable} tbody, ${stackedTable} tr, ${stackedTable} td`, { '@media': { [NARROW]: { display: 'block', width: '100%' } } });
globalStyle(`${stackedTable} tr`, { '@media': { [NARROW]: { borderBottom: `1px solid ${vars.color.border}`, padding: `${vars.space.xs} 0` } } });
globalStyle(`${stackedTable} td`, { '@media': { [NARROW]: { border: 0, padding: `0.2rem ${vars.space.sm}`, textAlign: 'left', whiteSpace: 'normal' } } });
globalStyle(`${stackedTable} td[data-label]::before`, {
  '@media': { [NARROW]: { content: 'attr(data-label)', display: 'block', color: vars.color.secondaryLight, fontSize: '0.75rem', fontWeight: 600 } },
});
export const notFound = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, maxWidth: '36rem' });

/** An object's row followed by its History row: one card on phones, one block on wide screens. */
export const rowWithHistory = style({});
globalStyle(`${rowWithHistory} > td`, { borderBottom: 0 });
globalStyle(`${stackedTable} tr${rowWithHistory}`, { '@media': { [NARROW]: { borderBottom: 0 } } });
export const historyRow = style({});
export const historyCell = style({
  padding: `0 ${vars.space.md} ${vars.space.xs}`, borderBottom: `1px solid ${vars.color.border}`,
  '@media': { [NARROW]: { padding: `0 ${vars.space.sm} ${vars.space.xs}` } },
});
