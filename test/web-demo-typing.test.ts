// Search as you type in the explorer, built and driven in headless Chromium with the page's clock
// under the test's control (Playwright's clock: the page's timers and animation frames run only when
// the test moves time on): a keystroke's answer is drawn without waiting for any timer, and the URL
// takes the query (history.replaceState, the workspace's last place) only once typing pauses
// (search/controller.ts IDLE_MS) — not in the frames right after every answer, where the next
// keystroke's work comes (a quarter of the page's main-thread time while typing in the web bench).
// @lane browser
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { StaticServer } from './helpers/browser.ts';
import { openIndexed, sampleWorkspaceZip, webDemoSuite } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();
const WS = 'typing-shop';

/** Polls from Node (the page's own timers are the fake clock's) until `fn` holds in the page. */
async function until(page: Page, fn: () => boolean): Promise<void> {
  for (;;) {
    if (await page.evaluate(fn)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!chromium)(titled('web-demo typing (built app, headless Chromium, controlled clock)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let page: Page;

  webDemoSuite(chromium, 'typing', async (demo) => {
    ({ server, page } = demo);
    await openIndexed(demo, WS, sampleWorkspaceZip(WS));
  });

  it('draws a keystroke\'s answer with no timer run, and writes the query into the URL only once typing pauses', async () => {
    await page.clock.install();
    // Every URL the page writes with replaceState, in order.
    await page.addInitScript(() => {
      const urls: string[] = [];
      (window as unknown as { __urls: string[] }).__urls = urls;
      const replace = history.replaceState.bind(history);
      history.replaceState = (data: unknown, unused: string, url?: string | URL | null) => {
        urls.push(String(url));
        replace(data, unused, url);
      };
    });
    // A new document (the fake clock and the script above are in it): the workspace reopened from the URL.
    await page.goto(`${server.url}/#/w/${WS}`);
    await page.reload();
    await page.waitForSelector('#search-input:not([disabled])');
    // From here on no timer and no animation frame of the page runs unless the test moves time on.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const written = () => page.evaluate(() => (window as unknown as { __urls: string[] }).__urls.filter((u) => new URL(u, location.href).searchParams.has('q')));

    await page.fill('#search-input', 'PricingEngine');
    await until(page, () => document.querySelector('.results:not(.idle) .group .file-head .name')?.textContent === 'PricingEngine.cs');
    // The frames after the answer (and the timers they start) run: the URL is left alone.
    await page.clock.runFor(60);
    expect(await written()).toEqual([]);
    expect(new URL(page.url()).searchParams.get('q')).toBeNull();
    // A pause: the URL takes the query, once.
    await page.clock.runFor(300);
    await until(page, () => new URL(location.href).searchParams.get('q') === 'PricingEngine');
    expect((await written()).map((u) => new URL(u, server.url).searchParams.get('q'))).toEqual(['PricingEngine']);
    await page.clock.resume();
  });
});
