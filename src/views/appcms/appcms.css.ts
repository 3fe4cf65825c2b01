import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const subtitle = style({ color: vars.color.secondaryLight, margin: `0 0 ${vars.space.md}` });
export const note = style({
  background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.lg, color: vars.color.secondaryLight, lineHeight: 1.5,
});
export const errorNote = style([note, { color: vars.color.error }]);
export const grid = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: vars.space.md });
export const card = style({ background: vars.color.paper, borderRadius: vars.radius, padding: vars.space.md });
export const cardTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '1rem', color: vars.color.primaryMain });
export const images = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm });
export const figure = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, margin: 0, minWidth: 0 });
export const image = style({
  width: 48, height: 48, flexShrink: 0, objectFit: 'contain', background: vars.color.background, borderRadius: vars.radius,
  border: `1px solid ${vars.color.border}`,
});
export const imagePlaceholder = style([image, {
  display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center',
  fontSize: '0.65rem', lineHeight: 1.1, color: vars.color.muted,
}]);
export const figureCaption = style({ display: 'flex', flexDirection: 'column', minWidth: 0, fontSize: '0.85rem' });
export const url = style({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: '0.8rem' });
export const swatchRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, margin: `${vars.space.xs} 0` });
export const swatch = style({ width: 20, height: 20, borderRadius: vars.radius, border: `1px solid ${vars.color.border}`, flexShrink: 0 });
export const table = style({ width: '100%', borderCollapse: 'collapse', background: vars.color.paper, borderRadius: vars.radius });
export const cell = style({ textAlign: 'left', padding: vars.space.sm, borderBottom: `1px solid ${vars.color.border}` });
export const headCell = style([cell, { color: vars.color.secondaryLight, fontWeight: 600 }]);
export const updated = style({ marginTop: vars.space.md, color: vars.color.secondaryLight, fontSize: '0.85rem' });
export const editorLayout = style({ display: 'grid', gap: vars.space.lg, gridTemplateColumns: 'minmax(0, 1fr)', '@media': { 'screen and (min-width: 1100px)': { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)' } } });
export const group = style({ minWidth: 0, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.md, margin: `0 0 ${vars.space.md}` });
export const legend = style({ fontWeight: 600, color: vars.color.primaryMain, padding: `0 ${vars.space.xs}` });
export const help = style({ color: vars.color.muted, fontSize: '0.8rem', margin: 0 });
export const colourRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, flexWrap: 'wrap', margin: `${vars.space.xs} 0` });
export const colourInput = style({ width: 44, height: 32, padding: 0, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, background: 'none' });
export const hexInput = style({ width: '7.5rem', fontFamily: 'monospace' });
export const contrastOk = style({ fontSize: '0.85rem', color: vars.color.secondaryLight, margin: `${vars.space.xs} 0` });
export const contrastLow = style({ fontSize: '0.85rem', color: vars.color.error, fontWeight: 600, margin: `${vars.space.xs} 0` });
export const previewRow = style({ display: 'flex', gap: vars.space.md, flexWrap: 'wrap', alignItems: 'flex-start' });
export const sample = style({ borderRadius: vars.radius, overflow: 'hidden', border: `1px solid ${vars.color.border}`, width: '100%', maxWidth: '22rem', fontSize: '0.85rem' });
export const sampleBar = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, padding: vars.space.sm, minHeight: 36, boxSizing: 'border-box' });
export const sampleBody = style({ padding: vars.space.sm, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const sampleTiles = style({ display: 'flex', gap: vars.space.xs });
export const sampleTile = style({ flex: 1, height: 36, borderRadius: 4, opacity: 0.85 });
/** The apps' button: in the chosen font (a button does not inherit it by default). */
export const sampleButton = style({ alignSelf: 'flex-start', border: 0, borderRadius: 4, padding: `${vars.space.xs} ${vars.space.sm}`, fontWeight: 600, fontFamily: 'inherit' });
export const sizes = style({ display: 'flex', gap: vars.space.sm, alignItems: 'flex-end', flexWrap: 'wrap', margin: `${vars.space.xs} 0` });
export const sizeBox = style({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, fontSize: '0.7rem', color: vars.color.muted });
export const sizedImage = style({ objectFit: 'contain', background: vars.color.background, border: `1px solid ${vars.color.border}`, borderRadius: 4 });
export const diffTable = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.85rem' });
export const versionList = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const versionItem = style({ display: 'flex', justifyContent: 'space-between', gap: vars.space.sm, alignItems: 'center', padding: vars.space.xs, borderRadius: vars.radius, border: `1px solid ${vars.color.border}` });
export const versionSelected = style([versionItem, { borderColor: vars.color.primaryMain, background: vars.color.background }]);
export const templateGrid = style({ minWidth: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))', gap: vars.space.md, border: 0, padding: 0, margin: 0 });
export const templateCard = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, padding: vars.space.md, borderRadius: vars.radius, border: `2px solid ${vars.color.border}`, background: vars.color.paper, cursor: 'pointer' });
export const templateChosen = style([templateCard, { borderColor: vars.color.primaryMain }]);
export const templatePreview = style({ display: 'grid', gap: 3, height: 90, padding: 4, background: vars.color.background, borderRadius: 4 });
export const templateBlock = style({ background: vars.color.border, borderRadius: 2 });
export const keyRow = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center', flexWrap: 'wrap' });
export const sideColumn = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0, alignSelf: 'start' });
export const urlBlock = style({ display: 'block', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: '0.8rem' });
globalStyle(`${diffTable} td`, { wordBreak: 'break-word', overflowWrap: 'anywhere' });
export const tableScroll = style({ overflowX: 'auto', maxWidth: '100%' });
/**
 * The Devices table's version field shrinks with the column, so the table fits a 390 px phone (issue 38:
 * a reader's table sits in a disabled fieldset, where a scrolling box cannot take focus).
 */
export const versionInput = style({ width: '100%', minWidth: '6rem' });
/* The AppCMS overview (/appcms): one card per section. */
export const overviewLine = style({ margin: `0 0 ${vars.space.sm}`, lineHeight: 1.5, overflowWrap: 'anywhere' });
export const overviewLink = style({ color: vars.color.primaryMain, fontWeight: 600 });
export const overviewBrand = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm });
export const overviewLogo = style({ height: 32, maxWidth: 96, objectFit: 'contain', background: vars.color.background, borderRadius: 4, border: `1px solid ${vars.color.border}` });
export const overviewColour = style({ display: 'inline-flex', alignItems: 'center', gap: 4, fontSize: '0.85rem' });
export const visuallyHidden = style({ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' });
export const overviewNoLogo = style({ fontSize: '0.8rem', color: vars.color.secondaryLight, border: `1px dashed ${vars.color.border}`, borderRadius: 4, padding: `2px ${vars.space.xs}` });
/** The sample screen's theme name, in the console's colours above the brand's. */
export const sampleCaption = style({ background: vars.color.paper, color: vars.color.secondaryMain, fontWeight: 600, padding: `${vars.space.xs} ${vars.space.sm}`, fontFamily: vars.font.body });
