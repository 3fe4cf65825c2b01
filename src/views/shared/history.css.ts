import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const panel = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, alignSelf: 'start', minWidth: 0 });
export const title = style({ margin: `0 0 ${vars.space.md}`, fontSize: '1.2rem', color: vars.color.primaryMain });
export const list = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.sm });
export const item = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.sm, background: vars.color.background });
export const itemSelected = style([item, { borderColor: vars.color.primaryLight, boxShadow: `0 0 0 1px ${vars.color.primaryLight}` }]);
export const meta = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, alignItems: 'baseline', fontSize: '0.9rem' });
export const muted = style({ color: vars.color.muted, fontSize: '0.85rem' });
export const changes = style({ margin: `${vars.space.xs} 0`, paddingLeft: '1.2rem', fontSize: '0.9rem', overflowWrap: 'anywhere' });
export const actions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', marginTop: vars.space.sm });
export const banner = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, background: vars.color.background, borderLeft: `4px solid ${vars.color.primaryLight}` });
export const bannerError = style([banner, { borderLeftColor: vars.color.error }]);
export const diff = style({ marginTop: vars.space.md, borderTop: `1px solid ${vars.color.border}`, paddingTop: vars.space.md });
export const tableWrap = style({ overflowX: 'auto' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.9rem' });
export const cell = style({ textAlign: 'left', padding: vars.space.xs, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top', overflowWrap: 'anywhere' });
export const headCell = style([cell, { fontWeight: 600, color: vars.color.secondaryLight, overflowWrap: 'normal', wordBreak: 'normal' }]);
/** The field's name in the comparison: never broken inside a word. */
export const fieldCell = style([cell, { fontWeight: 600, overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'auto' }]);
/** An editor with its History below it (the side column of a list page, or the main column of an object page). */
export const editorColumn = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0, alignSelf: 'start' });
