/** The Admin area: sub-navigation, staff table, role grid, audit filters. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const subNav = style({ display: 'flex', gap: vars.space.md, borderBottom: `1px solid ${vars.color.border}`, marginBottom: vars.space.md });
export const subLink = style({
  padding: `${vars.space.sm} 0`, textDecoration: 'none', color: vars.color.secondaryLight, borderBottom: '3px solid transparent',
  selectors: { '&[data-status="active"]': { color: vars.color.primaryMain, borderBottomColor: vars.color.primaryMain, fontWeight: 600 } },
});
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'flex-end', marginBottom: vars.space.md });
export const grow = style({ flex: '1 1 14rem' });
export const tableWrap = style({ overflowX: 'auto', background: vars.color.background, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius });
// Narrow screens scroll the table sideways rather than squeeze every column.
export const table = style({ width: '100%', minWidth: '52rem', borderCollapse: 'collapse', fontSize: '0.9rem' });
export const th = style({ textAlign: 'left', padding: vars.space.sm, background: vars.color.paper, whiteSpace: 'nowrap' });
export const td = style({ padding: vars.space.sm, borderTop: `1px solid ${vars.color.border}`, verticalAlign: 'top' });
export const muted = style({ color: vars.color.secondaryLight, fontSize: '0.85rem' });
export const rowActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs });
export const small = style({ padding: `2px ${vars.space.sm}`, fontSize: '0.8rem' });
export const pager = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', justifyContent: 'flex-end', marginTop: vars.space.md });
export const notice = style({ padding: vars.space.sm, borderRadius: vars.radius, marginBottom: vars.space.md, display: 'flex', justifyContent: 'space-between', gap: vars.space.sm });
export const success = style({ background: '#e6f7ea', color: '#0b5d1e' });
export const failure = style({ background: '#fdecea', color: '#8a1c12' });
export const roleGrid = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.8rem', marginBottom: vars.space.md });
export const roleCell = style({ textAlign: 'center', padding: '2px' });
export const linkBox = style({ wordBreak: 'break-all', background: vars.color.paper, padding: vars.space.sm, borderRadius: vars.radius, fontFamily: 'monospace', fontSize: '0.8rem' });
export const badge = style({ display: 'inline-block', padding: '0 6px', borderRadius: '999px', background: vars.color.paper, fontSize: '0.75rem', marginRight: '4px' });
export const checkboxRow = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', marginBottom: vars.space.md });
/** The site's second-factor rule (issue 30): one group of three choices, stacked at every width. */
export const ruleGroup = style({ minWidth: 0, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.md, margin: `0 0 ${vars.space.md}` });
export const ruleLegend = style({ fontWeight: 600, color: vars.color.primaryMain, padding: `0 ${vars.space.xs}` });
export const ruleChoices = style({
  display: 'grid', gap: vars.space.sm, gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))', marginTop: vars.space.sm,
});
export const ruleChoice = style({
  display: 'flex', gap: vars.space.sm, alignItems: 'flex-start', padding: vars.space.sm, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, cursor: 'pointer',
  selectors: {
    '&:has(input:checked)': { borderColor: vars.color.primaryMain, background: vars.color.paper },
    '&:has(input:disabled:not(:checked))': { opacity: 0.55, cursor: 'not-allowed' },
  },
});
export const ruleText = style({ display: 'flex', flexDirection: 'column', gap: '2px' });
/** A History behind its disclosure button (the rule's, an account's in its dialog). */
/** A History inside a dialog scrolls within it, so the dialog's buttons stay on screen. */
export const historyScroll = style({ maxHeight: 'calc(100vh - 15rem)', overflowY: 'auto' });
export const tabs = style({ display: 'flex', gap: vars.space.xs, borderBottom: `1px solid ${vars.color.border}`, marginBottom: vars.space.md });
export const tab = style({
  background: 'none', border: 'none', borderBottom: '2px solid transparent', padding: `${vars.space.xs} ${vars.space.sm}`, cursor: 'pointer',
  color: vars.color.secondaryLight, font: 'inherit',
  selectors: { '&[aria-selected="true"]': { borderBottomColor: vars.color.primaryMain, color: vars.color.primaryMain, fontWeight: 600 } },
});
