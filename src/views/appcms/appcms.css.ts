import { style } from '@vanilla-extract/css';
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
