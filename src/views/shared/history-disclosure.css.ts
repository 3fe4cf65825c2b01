/** A History behind a button (src/views/shared/HistoryDisclosure.tsx): Admin › Staff and the subscriber page. */
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const disclosure = style({ display: 'flex', flexDirection: 'column', alignItems: 'stretch', gap: vars.space.sm, margin: `0 0 ${vars.space.md}` });
export const toggle = style({ alignSelf: 'flex-start', padding: `2px ${vars.space.sm}`, fontSize: '0.8rem' });
