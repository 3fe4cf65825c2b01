/** The QoE pieces of Dashboard 360 (issue 41): filter chips and the picker, the breakdown choice, Views and one view's timeline strip. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const qoeBar = style({
  display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center', marginBottom: vars.space.md, '@media': { print: { display: 'none' } },
});
export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, listStyle: 'none', margin: 0, padding: 0 });
export const chip = style({
  display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, maxWidth: '100%', padding: '0.15rem 0.25rem 0.15rem 0.6rem',
  border: `1px solid ${vars.color.primaryMain}`, borderRadius: '999px', fontSize: '0.85rem', color: vars.color.secondaryMain, background: vars.color.paper,
  overflowWrap: 'anywhere',
});
export const chipRemove = style({
  display: 'inline-flex', alignItems: 'center', justifyContent: 'center', minWidth: '1.6rem', minHeight: '1.6rem', borderRadius: '999px',
  color: vars.color.primaryMain, textDecoration: 'none', fontWeight: 700,
  selectors: { '&:hover, &:focus-visible': { background: vars.color.background } },
});
export const picker = style({
  flexBasis: '100%', display: 'flex', flexDirection: 'column', gap: vars.space.sm, background: vars.color.paper, borderRadius: vars.radius,
  padding: vars.space.sm, border: `1px solid ${vars.color.border}`, maxWidth: '40rem', boxSizing: 'border-box',
});
export const pickerRow = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'flex-end' });
export const values = style({ listStyle: 'none', margin: 0, padding: 0, maxHeight: '18rem', overflowY: 'auto', border: `1px solid ${vars.color.border}`, borderRadius: vars.radius });
export const value = style({
  display: 'flex', justifyContent: 'space-between', gap: vars.space.sm, padding: '0.35rem 0.5rem', borderBottom: `1px solid ${vars.color.border}`, cursor: 'pointer',
  fontSize: '0.9rem', color: vars.color.secondaryMain,
});
export const count = style({ color: vars.color.secondaryLight, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' });
export const fieldset = style({ border: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, fontSize: '0.85rem', color: vars.color.secondaryLight });
export const section = style({ marginTop: vars.space.lg });
export const sectionTitle = style({ fontSize: '1.15rem', margin: `0 0 ${vars.space.sm}`, color: vars.color.primaryMain });
export const dimensions = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(10rem, 1fr))', gap: vars.space.xs, margin: 0 });
export const dimension = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.xs, overflowWrap: 'anywhere' });
export const dimensionLabel = style({ fontSize: '0.78rem', color: vars.color.secondaryLight });
export const dimensionValue = style({ margin: 0, fontWeight: 600, color: vars.color.secondaryMain });
export const strip = style({ position: 'relative', height: '2.2rem', background: vars.color.paper, borderRadius: vars.radius, margin: `${vars.space.sm} 0`, border: `1px solid ${vars.color.border}` });
export const mark = style({ position: 'absolute', top: '0.3rem', bottom: '0.3rem', width: '4px', marginLeft: '-2px', borderRadius: '2px' });
export const timeline = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const timelineItem = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', fontSize: '0.9rem', color: vars.color.secondaryMain });
export const timelineTime = style({ color: vars.color.secondaryLight, fontVariantNumeric: 'tabular-nums', minWidth: '6.5rem' });
export const legend = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, fontSize: '0.8rem', color: vars.color.secondaryLight, listStyle: 'none', margin: `0 0 ${vars.space.sm}`, padding: 0 });
export const swatch = style({ display: 'inline-block', width: '0.7rem', height: '0.7rem', borderRadius: '2px', marginRight: '0.3rem', verticalAlign: 'middle' });
