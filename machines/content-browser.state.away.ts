/** The content browser's `away` state: another page is shown (assembled in ./content-browser.machine.ts). */
import { contentBrowserSetup } from './content-browser.actions';

export const awayState = contentBrowserSetup.createStateConfig({
  description: 'Another page is shown: nothing is loaded; tab, kind, filters and sort wait for the next visit.',
});
