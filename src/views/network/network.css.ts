import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const switcher = style({ position: 'relative' });
export const trigger = style({
  listStyle: 'none', cursor: 'pointer', display: 'flex', alignItems: 'center', gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`, borderRadius: vars.radius, border: `1px solid rgba(255,255,255,0.35)`,
  color: vars.color.info, fontFamily: vars.font.body,
  selectors: { '&::-webkit-details-marker': { display: 'none' }, '&::after': { content: '"▾"' } },
});
export const visuallyHidden = style({
  position: 'absolute', width: 1, height: 1, padding: 0, margin: -1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0,
});
export const panel = style({
  position: 'absolute', right: 0, top: '115%', width: '20rem', zIndex: 40,
  background: vars.color.background, color: vars.color.secondaryMain, borderRadius: vars.radius,
  boxShadow: '0 6px 20px rgba(0,0,0,0.2)', padding: vars.space.sm,
  // On a narrow screen the panel spans the viewport below the trigger (issue 30: at 390 px it was
  // cut off on the left, "nnel"): fixed with its static top, a margin on either side.
  '@media': { 'screen and (max-width: 40rem)': { position: 'fixed', top: 'auto', left: vars.space.sm, right: vars.space.sm, width: 'auto' } },
});
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
const optionBase = style({
  width: '100%', display: 'flex', alignItems: 'center', gap: vars.space.sm, padding: vars.space.sm,
  border: '1px solid transparent', borderRadius: vars.radius, background: 'transparent', cursor: 'pointer', textAlign: 'left',
  color: vars.color.secondaryMain, fontFamily: vars.font.body,
  selectors: { '&:hover': { background: vars.color.paper } },
});
export const option = styleVariants({
  normal: [optionBase],
  current: [optionBase, { borderColor: vars.color.primaryLight, background: vars.color.paper, fontWeight: 700 }],
});
export const logo = style({ width: 28, height: 28, borderRadius: vars.radius, objectFit: 'contain', background: vars.color.paper, flexShrink: 0 });
/** Whole names, wrapped when long (never cut). */
export const name = style({ flex: 1, minWidth: 0, overflowWrap: 'anywhere' });
const markBase = style({ fontSize: '0.75rem', fontWeight: 600, padding: `0 ${vars.space.xs}`, borderRadius: vars.radius, whiteSpace: 'nowrap' });
export const mark = styleVariants({
  // The spec's green (#00B523) is 2.75:1 on white: the mark uses the theme's darker text green (AA).
  launched: [markBase, { color: vars.color.successText, border: `1px solid ${vars.color.successText}` }],
  notLaunched: [markBase, { color: vars.color.secondaryLight, border: `1px solid ${vars.color.secondaryLight}` }],
  default: [markBase, { color: vars.color.primaryMain, border: `1px solid ${vars.color.primaryMain}` }],
});
export const actions = style({
  display: 'flex', flexDirection: 'column', gap: vars.space.xs, marginTop: vars.space.sm,
  paddingTop: vars.space.sm, borderTop: `1px solid ${vars.color.border}`,
});
/** Spec §5: why Launch and Copy are disabled on the default network, shown above them. */
export const refusal = style({ margin: 0, fontSize: 13 });
/** Issue 38: the last change and its lasting Undo, under the actions. */
export const lastChange = style({
  display: 'flex', flexDirection: 'column', gap: vars.space.xs, marginTop: vars.space.sm,
  paddingTop: vars.space.sm, borderTop: `1px solid ${vars.color.border}`, fontSize: 13,
});
globalStyle(`${lastChange} p`, { margin: 0 });
/** The launch dialog's list of what the network lacks. */
export const gaps = style({ margin: `${vars.space.xs} 0`, paddingLeft: vars.space.lg });
export const empty = style({ padding: vars.space.sm, color: vars.color.secondaryLight });

/** The copy dialog's list of changes: scrolls inside the dialog when long or wide. */
export const changes = style({ maxHeight: 260, overflow: 'auto', marginTop: vars.space.xs });
export const changeTable = style({ width: '100%', borderCollapse: 'collapse', fontSize: 13 });
globalStyle(`${changeTable} th, ${changeTable} td`, {
  textAlign: 'left', padding: `4px ${vars.space.xs}`, borderBottom: `1px solid ${vars.color.border}`, overflowWrap: 'anywhere',
});
