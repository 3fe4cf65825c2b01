/** Theme colours of spec §9, verbatim. Plain data so index.html checks and the theme read one source. */
export const COLORS = {
  primaryLight: '#1370B3',
  primaryMain: '#0C5177',
  secondaryMain: 'black',
  secondaryLight: '#404040',
  success: '#00B523',
  info: 'white',
  paperBackground: '#f1f1f1',
  defaultBackground: 'white',
  themeColorMeta: '#1370B3',
  requiredAsterisk: 'red',
  error: '#C62828',
  warning: '#ED6C02',
} as const;
