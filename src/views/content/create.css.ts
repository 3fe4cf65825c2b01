import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

const narrow = 'screen and (max-width: 720px)';

export const kinds = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, border: 'none', padding: 0, margin: `0 0 ${vars.space.md}` });
export const kindOption = style({
  display: 'flex', alignItems: 'center', gap: vars.space.xs, padding: `${vars.space.sm} ${vars.space.md}`, borderRadius: vars.radius,
  border: `1px solid ${vars.color.border}`, background: vars.color.paper, cursor: 'pointer', fontWeight: 600,
  selectors: { '&:has(input:checked)': { borderColor: vars.color.primaryMain, color: vars.color.primaryMain } },
});
export const artworkGrid = style({
  display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: vars.space.md, gridColumn: '1 / -1', marginBottom: vars.space.md,
  '@media': { [narrow]: { gridTemplateColumns: '1fr' } },
});
export const artworkSlot = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius, padding: vars.space.md, minWidth: 0 });
export const previews = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.sm, marginTop: vars.space.sm });
export const preview = style({ display: 'flex', flexDirection: 'column', gap: 2, fontSize: '0.75rem', color: vars.color.secondaryLight, maxWidth: '100%' });
export const previewImage = style({ display: 'block', objectFit: 'cover', borderRadius: 4, maxWidth: '100%', height: 'auto' });
/** A neutral box where no artwork is: never a broken image. */
export const placeholder = style({
  display: 'flex', alignItems: 'center', justifyContent: 'center', background: vars.color.background, color: vars.color.secondaryLight,
  border: `1px dashed ${vars.color.border}`, borderRadius: 4, fontSize: '0.8rem', textAlign: 'center', maxWidth: '100%',
});
export const poster = style({ width: '100%', maxWidth: 240, aspectRatio: '2 / 3', objectFit: 'cover', borderRadius: vars.radius, display: 'block' });
export const posterBox = style([placeholder, { width: '100%', maxWidth: 240, aspectRatio: '2 / 3' }]);
// Smaller on a phone, so a title keeps its words whole beside it.
export const thumb = style({ width: 96, aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 4, display: 'block', flex: '0 0 auto', '@media': { [narrow]: { width: 48 } } });
export const thumbBox = style([placeholder, { width: 96, aspectRatio: '16 / 9', flex: '0 0 auto', fontSize: '0.65rem', '@media': { [narrow]: { width: 48, fontSize: '0.5rem' } } }]);
export const family = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });
export const season = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const seasonHead = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: vars.space.sm });
export const episodes = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const episode = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm, minWidth: 0, overflowWrap: 'break-word' });
export const nowrap = style({ whiteSpace: 'nowrap' });
export const familySection = style({ marginBottom: vars.space.lg });
export const headerArt = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm, minWidth: 0 });
