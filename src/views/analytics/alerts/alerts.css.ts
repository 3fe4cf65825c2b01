/** The Alerts page, the header's count and the Dashboard's open incidents (issue 41). */
import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme/theme.css';

export const sections = style({ display: 'grid', gap: vars.space.lg, alignContent: 'start', minWidth: 0 });
export const section = style({ display: 'grid', gap: vars.space.sm });
export const sectionHead = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm });
export const sectionTitle = style({ fontSize: '1.1rem', margin: 0, color: vars.color.primaryMain });
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.sm });
export const item = style({
  border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.sm, display: 'grid', gap: vars.space.xs, minWidth: 0,
});
export const openItem = style([item, { borderLeft: `4px solid ${vars.color.error}` }]);
export const itemHead = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: vars.space.sm });
export const itemName = style({ fontWeight: 700, color: vars.color.primaryMain, overflowWrap: 'anywhere' });
export const meta = style({ fontSize: '0.85rem', color: vars.color.secondaryLight, overflowWrap: 'anywhere' });
export const facts = style({ display: 'flex', flexWrap: 'wrap', gap: `${vars.space.xs} ${vars.space.md}`, margin: 0, fontSize: '0.9rem' });
export const fact = style({ display: 'flex', gap: vars.space.xs });
export const factTerm = style({ color: vars.color.secondaryLight });
export const factValue = style({ margin: 0, fontWeight: 600 });
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs });
export const badge = style({ fontSize: '0.75rem', fontWeight: 700, borderRadius: '999px', padding: '0.1rem 0.5rem', border: `1px solid ${vars.color.border}` });
export const editor = style({ border: `1px solid ${vars.color.primaryMain}`, borderRadius: vars.radius, padding: vars.space.md, display: 'grid', gap: vars.space.xs });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'flex-end' });
export const filterRow = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'flex-end', borderTop: `1px dashed ${vars.color.border}`, paddingTop: vars.space.xs });
export const notice = style({ margin: 0, padding: vars.space.sm, borderRadius: vars.radius, background: vars.color.paper });
export const failure = style({ margin: 0, padding: vars.space.sm, borderRadius: vars.radius, border: `1px solid ${vars.color.error}`, color: vars.color.error });
export const pager = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });
export const layout = style({ display: 'grid', gap: vars.space.lg, alignItems: 'start', gridTemplateColumns: 'minmax(0, 1fr)', '@media': { 'screen and (min-width: 1200px)': { gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)' } } });
export const headerCount = style({
  display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, fontWeight: 700, fontSize: '0.85rem', padding: '0.2rem 0.6rem',
  borderRadius: '999px', textDecoration: 'none', color: vars.color.info, background: vars.color.errorFill, whiteSpace: 'nowrap',
});
