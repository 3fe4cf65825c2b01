/** Monetization › Coupons: a code's History beside the list, and the row's actions. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** The bar above a code's History: the code, its offer, Close history. */
export const historyBar = style({
  display: 'flex', gap: vars.space.sm, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap',
});

/**
 * A code's History: beside the list on a wide screen; above it on a narrower one (where the columns
 * stack), so the History asked for is in view rather than below twenty rows.
 */
export const historyColumn = style({
  '@media': { 'screen and (max-width: 1099px)': { order: -1 } },
});

/** Disable/Enable and History: side by side where the cell allows, one above the other where it does not. */
export const rowActions = style({ display: 'flex', gap: vars.space.xs, flexWrap: 'wrap', alignItems: 'center' });
