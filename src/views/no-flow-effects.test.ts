/**
 * Views only render selectors and send events (README, ARCHITECTURE): fetching, timers and navigation
 * decisions belong to machines. This check reads every file under src/views and allows `useEffect`
 * only where it is listed below with the DOM-only reason it is there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const VIEWS = join(import.meta.dirname);

/** file (relative to src/views) → why its effect touches only the DOM. */
const DOM_ONLY_EFFECTS: Record<string, string> = {
  'analytics/charts/Chart.tsx': "measures the chart box's width with a ResizeObserver",
  'auth/SignInScreen.tsx': "sets document.title on the sign-in page's first paint, which has no router",
  'layout/RootLayout.tsx': 'sets document.title from the matched route',
  'network/NetworkSwitcher.tsx': 'closes the <details> panel on a pointer-down outside it',
  'shared/ScrollBox.tsx': 'measures with a ResizeObserver whether its content is wider than the box (then it takes keyboard focus)',
  // Not DOM, but no decision either: these forward an outside change to the page machine as an
  // event and the machine decides what follows (ARCHITECTURE.md, "Where the code stands").
  'appcms/appcms-page.ts': "forwards the network data's new revision (a copy from default) to the page as page.reload",
  'monetization/page-refs.ts': "forwards the address's ?edit= to the page as page.open / page.close",
  'media/ItemVideoPanel.tsx': "forwards the video panel's attach (video.attached) to the item's editor as editor.recordMoved and to History as history.reload, and a started encode (media.status preparing) to History",
  'media/VideoPlayer.tsx': 'tells the player machine its <video> is gone when the preview unmounts (player.leave: hls.js detached, the session ended)',
  'shared/use-linked-record-editors.ts': "forwards one editor's save of a record (editor.versionMoved), or the artwork panel's (artwork.saved), to the page's other editor of it as editor.recordMoved",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('views hold no flow in effects', () => {
  it('uses useEffect (or useLayoutEffect) only for the DOM-only uses listed here', () => {
    const offenders = sourceFiles(VIEWS)
      .map((path) => relative(VIEWS, path))
      .filter((file) => /\buse(Layout)?Effect\b/.test(readFileSync(join(VIEWS, file), 'utf8')))
      .filter((file) => !(file in DOM_ONLY_EFFECTS));
    expect(offenders).toEqual([]);
  });

  it('lists no file that no longer needs its exemption', () => {
    const stale = Object.keys(DOM_ONLY_EFFECTS).filter((file) => !/\buse(Layout)?Effect\b/.test(readFileSync(join(VIEWS, file), 'utf8')));
    expect(stale).toEqual([]);
  });
});
