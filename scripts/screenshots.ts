/**
 * `npm run screenshots` (issue 20): the sign-in page, the landing page and an open dialog (the logout
 * confirmation) at 1440 and 390 px, light and dark, into docs/screenshots/. Starts the server on a
 * fresh demo database seeded as `npm start` seeds it (the demo accounts and the viewers' world at
 * SEED_SCALE 1, so the landing page shows data; the built app is served: run `npm run build` first if
 * the source changed) and drives headless Chromium.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, SEED_PASSWORD, startServer } from '../e2e/harness';

const OUT = join(process.cwd(), 'docs', 'screenshots');
const WIDTHS = [1440, 390] as const;
const SCHEMES = ['light', 'dark'] as const;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // startServer runs the compiled server (dist-server/main.js), as the browser tests' global setup builds it.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const [server, browser] = await Promise.all([
    // SEED_SCALE 1 is `npm start`'s default (startServer's own default is an empty world).
    startServer({ ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', LOG_LEVEL: 'warn', SEED_SCALE: '1' }),
    launchBrowser(),
  ]);
  try {
    for (const width of WIDTHS) {
      for (const scheme of SCHEMES) {
        const context = await browser.newContext({ viewport: { width, height: width > 900 ? 900 : 844 }, colorScheme: scheme });
        const page = await context.newPage();
        const shot = (name: string) => page.screenshot({ path: join(OUT, `${name}-${width}-${scheme}.png`) });
        await page.goto(`${server.url}/`);
        await page.getByLabel('Username').waitFor();
        await shot('sign-in');
        await page.getByLabel('Username').fill('admin@demo.test');
        await page.getByLabel('Password', { exact: true }).fill(SEED_PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.waitForURL((url) => url.pathname === '/analytics');
        // The header shows once the landing page is on screen; wait for the networks and the report too.
        await page.getByTestId('header').waitFor();
        await page.waitForFunction(() => !document.querySelector('[data-testid=report-skeleton]')
          && document.querySelector('[data-testid=network-current]')?.textContent !== 'Loading networks…');
        await page.waitForLoadState('networkidle');
        await shot('landing');
        if (width < 900) await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByTestId('user-menu').locator('summary').click();
        await page.getByRole('menuitem', { name: 'Logout' }).click();
        await page.getByRole('dialog', { name: 'Logout' }).waitFor();
        await shot('dialog');
        await context.close();
        console.log(`screenshots: ${width} px ${scheme}`);
      }
    }
    console.log(`written to ${OUT}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
