import { afterEach } from 'vitest';

// jsdom has no layout and no pointer capture. The router restores scroll on every navigation (jsdom's
// scrollTo only logs "Not implemented"); Radix's toast and dialog use pointer capture for swipes and
// outside clicks. Views under test depend on neither.
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};

// Issue 38: forms keep drafts in the tab's session storage; each test starts with none kept.
afterEach(() => { sessionStorage.clear(); });
