import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, justifyContent: 'center', marginTop: vars.space.md });
