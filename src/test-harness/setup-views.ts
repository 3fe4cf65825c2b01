import { configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor wait up to 5 s (Testing Library's default is 1 s) for what a view shows once a
// lazily loaded part of it has arrived: under load (a fresh-clone run at load 9.6, the views beside the
// server and browser tests) the header's first import took longer than 1 s and RootLayout's test
// failed. What they wait for is unchanged; a failing one only fails later.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no layout and no pointer capture. The router restores scroll on every navigation (jsdom's
// scrollTo only logs "Not implemented"); Radix's toast and dialog use pointer capture for swipes and
// outside clicks. Views under test depend on neither.
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};

// Issue 38: forms keep drafts in the tab's session storage; each test starts with none kept.
afterEach(() => { sessionStorage.clear(); });
