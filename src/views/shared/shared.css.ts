import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { DIALOG_MAX_WIDTH, SNACKBAR_MAX_WIDTH } from '../../../common/constants';

export const overlay = style({ position: 'fixed', inset: 0, background: 'rgba(0,0,0,0.45)', zIndex: 50 });
export const dialog = style({
  position: 'fixed', top: '50%', left: '50%', transform: 'translate(-50%, -50%)',
  width: 'calc(100vw - 2rem)', maxWidth: DIALOG_MAX_WIDTH,
  // A tall dialog (a long form, a History) stays inside the screen: its body scrolls, the title and
  // the buttons stay in view.
  maxHeight: ['calc(100vh - 2rem)', 'calc(100dvh - 2rem)'],
  background: vars.color.background, borderRadius: vars.radius, boxShadow: '0 10px 30px rgba(0,0,0,0.25)',
  zIndex: 51, display: 'flex', flexDirection: 'column',
});
export const dialogHeader = style({ padding: vars.space.md, borderBottom: `1px solid ${vars.color.border}`, fontWeight: 700, fontSize: '1.1rem', margin: 0, color: vars.color.primaryMain });
export const dialogBody = style({ padding: vars.space.md, overflowY: 'auto', minHeight: 0 });
export const dialogFooter = style({ padding: vars.space.md, display: 'flex', justifyContent: 'flex-end', gap: vars.space.sm, borderTop: `1px solid ${vars.color.border}` });

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });
export const loadingOverlay = style({
  position: 'fixed', inset: 0, background: `color-mix(in srgb, ${vars.color.background} 75%, transparent)`, display: 'flex',
  alignItems: 'center', justifyContent: 'center', zIndex: 60, flexDirection: 'column', gap: vars.space.md,
});
export const spinner = style({
  width: 44, height: 44, borderRadius: '50%', border: `4px solid ${vars.color.paper}`,
  borderTopColor: vars.color.primaryLight, animation: `${spin} 0.8s linear infinite`,
});

export const toastViewport = style({
  // Top snackbar (spec §2.10), below the 56 px header bar so it never covers the area tabs or menus.
  position: 'fixed', top: `calc(56px + ${vars.space.sm})`, left: '50%', transform: 'translateX(-50%)',
  width: 'calc(100vw - 2rem)', maxWidth: SNACKBAR_MAX_WIDTH, zIndex: 100, listStyle: 'none', margin: 0, padding: 0,
});
const toastBase = style({
  display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.md}`, borderRadius: vars.radius, boxShadow: '0 4px 14px rgba(0,0,0,0.2)',
  fontWeight: 600,
});
export const toast = styleVariants({
  // Fills dark enough for white text (AA); the spec's #00B523 and #ED6C02 are under 3:1 with white.
  success: [toastBase, { background: vars.color.successFill, color: vars.color.info }],
  error: [toastBase, { background: vars.color.errorFill, color: vars.color.info }],
  warning: [toastBase, { background: vars.color.warningFill, color: vars.color.info }],
  info: [toastBase, { background: vars.color.background, color: vars.color.secondaryMain, border: `1px solid ${vars.color.border}` }],
});
export const toastClose = style({ background: 'transparent', border: 0, color: 'inherit', cursor: 'pointer', fontSize: '1.1rem' });
/** The snackbar's Undo (issue 28): an outlined button in the message's own colour, pushed to the right. */
export const toastUndo = style({
  marginLeft: 'auto', background: 'transparent', color: 'inherit', border: '1px solid currentColor', borderRadius: vars.radius,
  padding: `2px ${vars.space.sm}`, font: 'inherit', cursor: 'pointer', whiteSpace: 'nowrap',
  selectors: { '&:disabled': { cursor: 'progress', opacity: 0.8 } },
});

const slide = keyframes({ '0%': { transform: 'translateX(-100%)' }, '100%': { transform: 'translateX(250%)' } });
export const progressTrack = style({ position: 'fixed', top: 0, left: 0, right: 0, height: 3, overflow: 'hidden', zIndex: 110 });
export const progressBar = style({ width: '40%', height: '100%', background: vars.color.primaryLight, animation: `${slide} 1s ease-in-out infinite` });
