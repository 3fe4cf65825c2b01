import { describe, expect, it } from 'vitest';
import { cancelsNavigation, routerNavigator } from './router-navigator';

describe("a machine's address correction while the operator is leaving the page", () => {
  it("is not applied when it replaces the address of the page being left (the library's list answering after a click on a row)", () => {
    expect(cancelsNavigation('/content?tab=video&page=2', { replace: true }, '/content', '/content/video/v1')).toBe(true);
    expect(cancelsNavigation('/monetization/plans?search=gold', { replace: true }, '/monetization/plans', '/users')).toBe(true);
  });

  it('is applied when the router is not going anywhere else, when it is a push, or when it is for the page being opened', () => {
    expect(cancelsNavigation('/content?tab=video&page=2', { replace: true }, '/content', '/content')).toBe(false);
    expect(cancelsNavigation('/content?tab=series', {}, '/content', '/content/video/v1')).toBe(false);
    expect(cancelsNavigation('/content?tab=series', undefined, '/content', '/content/video/v1')).toBe(false);
    expect(cancelsNavigation('/content/video/v1?edit=1', { replace: true }, '/content', '/content/video/v1')).toBe(false);
  });

  it('is applied before the first page has resolved (nothing shown yet to leave)', () => {
    expect(cancelsNavigation('/content?tab=video', { replace: true }, undefined, '/login')).toBe(false);
  });
});

describe("the machines' navigate through the router", () => {
  const fakeRouter = (shown: string | undefined, goingTo: string) => {
    const calls: { href: string; replace?: boolean }[] = [];
    const router = {
      state: { resolvedLocation: shown === undefined ? undefined : { pathname: shown } },
      latestLocation: { pathname: goingTo },
      navigate: (options: { href: string; replace?: boolean }) => { calls.push(options); return Promise.resolve(); },
    };
    return { router: router as unknown as Parameters<typeof routerNavigator>[0], calls };
  };

  it("drops the library's address write while a click on a row is loading, and passes every other navigation on", () => {
    const leaving = fakeRouter('/content', '/content/video/v1');
    routerNavigator(leaving.router)('/content?tab=video&page=2', { replace: true });
    routerNavigator(leaving.router)('/networks');
    expect(leaving.calls).toEqual([{ href: '/networks', replace: undefined }]);

    const staying = fakeRouter('/content', '/content');
    routerNavigator(staying.router)('/content?tab=video&page=2', { replace: true });
    expect(staying.calls).toEqual([{ href: '/content?tab=video&page=2', replace: true }]);
  });
});
