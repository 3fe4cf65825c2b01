import { describe, expect, it } from 'vitest';
import { isHeaderHidden } from './header-visibility';

describe('header visibility (spec §2.9)', () => {
  it.each(['/', '/reset-password', '/forgot-password', '/content/video/42', '/logout', '/verify-number', '/forbidden'])('is hidden on %s', (path) => {
    expect(isHeaderHidden(path)).toBe(true);
  });
  it.each(['/analytics', '/content', '/monetization/models', '/appcms/brand', '/users', '/admin'])('is shown on %s', (path) => {
    expect(isHeaderHidden(path)).toBe(false);
  });
});
