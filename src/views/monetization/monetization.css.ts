import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** List and editor side by side on wide screens; `listOnly` when no editor is open, so the list takes the width. */
export const layout = style({ display: 'grid', gap: vars.space.lg, gridTemplateColumns: 'minmax(0, 1fr)', '@media': { 'screen and (min-width: 1100px)': { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)' } } });
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center', marginBottom: vars.space.md });
export const grow = style({ flex: '1 1 12rem' });
export const table = style({ width: '100%', borderCollapse: 'collapse', background: vars.color.background });
globalStyle(`${table} th, ${table} td`, { textAlign: 'left', padding: vars.space.sm, borderBottom: `1px solid ${vars.color.border}`, fontSize: '0.9rem' });
globalStyle(`${table} th`, { color: vars.color.muted, fontWeight: 600 });
export const tableWrap = style({ overflowX: 'auto' });
export const paging = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', justifyContent: 'flex-end', marginTop: vars.space.sm, fontSize: '0.9rem' });
export const panel = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, alignSelf: 'start' });
export const panelTitle = style({ margin: `0 0 ${vars.space.md}`, fontSize: '1.2rem', color: vars.color.primaryMain });
export const required = style({ color: vars.color.required, marginLeft: '0.2em' });
export const fieldError = style({ color: vars.color.error, fontSize: '0.85rem', margin: 0 });
/** Spec §5: number inputs hide their spin buttons. */
export const number = style({ MozAppearance: 'textfield' } as never);
globalStyle(`${number}::-webkit-outer-spin-button, ${number}::-webkit-inner-spin-button`, { WebkitAppearance: 'none', margin: 0 });
export const inline = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-start', flexWrap: 'wrap' });
export const checkRow = style({ display: 'flex', gap: vars.space.xs, alignItems: 'center', fontSize: '0.95rem' });
export const actions = style({ display: 'flex', gap: vars.space.sm, flexWrap: 'wrap', marginTop: vars.space.md });
export const banner = style({ padding: vars.space.sm, borderRadius: vars.radius, margin: `0 0 ${vars.space.md}`, background: vars.color.background, borderLeft: `4px solid ${vars.color.primaryLight}` });
export const bannerError = style([banner, { borderLeftColor: vars.color.error }]);
export const orderList = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const orderItem = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', background: vars.color.background, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.xs, cursor: 'grab' });
export const rowLink = style({ fontWeight: 600 });
export const muted = style({ color: vars.color.muted, fontSize: '0.9rem' });
export const outcome = style([banner, { display: 'flex', gap: vars.space.sm, alignItems: 'center', justifyContent: 'space-between' }]);
export const outcomeError = style([outcome, { borderLeftColor: vars.color.error }]);
export const listOnly = style({ display: 'grid', gap: vars.space.lg, gridTemplateColumns: 'minmax(0, 1fr)' });
export const nowrap = style({ whiteSpace: 'nowrap' });
export const rowActions = style({ display: 'flex', gap: vars.space.xs, flexWrap: 'nowrap', alignItems: 'center' });
/** A long offer name in a select or a date input must not widen the page on a phone. */
globalStyle(`${panel} input, ${panel} select, ${panel} textarea`, { maxWidth: '100%', boxSizing: 'border-box' });
globalStyle(`${panel} fieldset`, { minWidth: 0 });
