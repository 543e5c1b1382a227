// The web-demo explorer, built (`vite build` of web-demo/) and served on 127.0.0.1 with no COOP/COEP
// headers, driven in headless Chromium as a person would: a zip of the sample workspace (with a fake
// secret) is opened and indexed with progress, searched as you type, filtered, opened in the viewer at
// the hit's lines with its outline, paired file, "why this result" and go to definition; a permalink
// survives a reload; Ctrl-P and the j/k/Enter/Esc keys; export and import of the index; a second tab
// takes the workspace over; a long run is cancelled; and the app works offline after its first load.
// On the home screen the Worker loads the indexing code and a parse worker ahead of a first pass.
// The workspace indexed by the first step serves the rest; from the viewer on, each step opens it afresh
// at the query it needs (fresh), so one failed step does not fail the next.
// Every screen is saved under test-output/web-demo/ (to be looked at, not compared).
// @lane browser
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { listFiles, REPO, type BrowserSession, type StaticServer } from './helpers/browser.ts';
import { indexZip, searchSettled, startWebDemo, webDemoShot, type WebDemo } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';
import { tokenBoundaries } from '../core/text/analyzer.ts';

const chromium = chromiumBinary();
import { tmpDir } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const WS = 'sample-shop-main';
const TOKEN = 'gh' + 'p_' + 'A1b2C3d4E5'.repeat(4).slice(0, 36);

/** The sample workspace as a GitHub-style archive (one top folder), plus a file holding a fake token. */
function sampleZip(): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const rel of listFiles(sample)) files[`${WS}/${rel}`] = fs.readFileSync(path.join(sample, rel));
  files[`${WS}/src/Contoso.Shop.Web/DeployKeys.cs`] = new TextEncoder().encode(
    `namespace Contoso.Shop.Web;\n\npublic static class DeployKeys\n{\n    public const string Token = "${TOKEN}";\n}\n`,
  );
  return zipSync(files, { level: 6 });
}

/** Many small C# files: a run long enough to cancel. */
function bigZip(n: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const enc = new TextEncoder();
  for (let i = 0; i < n; i++) {
    const body = Array.from({ length: 12 }, (_, k) => `    public int Value${k}(int x) => x * ${i + k}; // item ${i}-${k}`).join('\n');
    files[`big/src/Module${i % 40}/Service${i}.cs`] = enc.encode(`namespace Big.Module${i % 40};\n\npublic class Service${i}\n{\n${body}\n}\n`);
  }
  return zipSync(files, { level: 1 });
}

async function shot(page: Page, name: string): Promise<void> {
  await webDemoShot(page, name);
}

describe.skipIf(!chromium)(titled('web-demo explorer (built app, headless Chromium)', { Chromium: chromium }), () => {
  let demo: WebDemo | undefined;
  let server: StaticServer;
  let session: BrowserSession;
  let page: Page;
  const tmp: string[] = [];

  beforeAll(async () => {
    demo = await startWebDemo(chromium);
    ({ server, session, page } = demo);
  }, 180_000);

  // A failed step leaves a picture of where it stopped.
  afterEach(async (ctx) => {
    if (page && ctx.task.result?.state === 'fail') await shot(page, `FAIL-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });

  afterAll(async () => {
    await demo?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  /**
   * Opens the indexed workspace afresh with `q` searched and no filter, the viewer closed: a step sets
   * the state it needs rather than taking what the step before left (the last CI's 'paired files'
   * failed only because 'filters' had left a filter on). Resolves once q's answer is on screen.
   */
  async function fresh(q = ''): Promise<void> {
    await page.goto(`${server.url}/${q ? `?q=${encodeURIComponent(q)}` : ''}#/w/${WS}`);
    await page.waitForFunction((ws) => document.querySelector('.topbar .ws-current b')?.textContent === ws, WS);
    if (q) await page.waitForFunction(() => document.querySelector('.group .file-head .name') && !document.querySelector('.searchbar[data-searching]'));
    expect(new URL(page.url()).searchParams.has('under') || new URL(page.url()).searchParams.has('ext')).toBe(false);
  }

  it('opens a zip of the sample workspace and indexes it with progress; skipped files by reason include the secret', async () => {
    const bad: string[] = [];
    page.on('pageerror', (e) => bad.push(String(e)));
    const loaded: string[] = []; // scripts the page and its Workers asked for (not the service worker's precaching)
    const onRequest = (r: import('playwright-core').Request) => void (r.serviceWorker() === null && loaded.push(new URL(r.url()).pathname));
    page.on('request', onRequest);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('html[data-ready="true"]');
    await page.waitForSelector('.home');
    await shot(page, '01-home');
    // Nothing open on the home screen: the Worker loads the indexing code ahead of a first run
    // (worker-api.ts, PRELOAD_IDLE_MS), before anything is picked.
    await expect.poll(() => loaded.some((u) => /\/assets\/indexer-[\w-]+\.js$/.test(u)), { timeout: 10_000 }).toBe(true);
    page.off('request', onRequest);
    // Watch the progress panel as it changes (the run is short).
    await page.evaluate(() => {
      const seen: Array<{ phase: string; now: string }> = [];
      (window as unknown as { __progress: typeof seen }).__progress = seen;
      new MutationObserver(() => {
        const phase = document.querySelector('.index-panel .phase')?.textContent ?? '';
        const now = document.querySelector('.index-panel [role=progressbar]')?.getAttribute('aria-valuenow') ?? '';
        const last = seen[seen.length - 1];
        if (phase && (!last || last.phase !== phase || last.now !== now)) seen.push({ phase, now });
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await indexZip(page, `${WS}.zip`, sampleZip());
    const progress = await page.evaluate(() => (window as unknown as { __progress: Array<{ phase: string; now: string }> }).__progress);
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toContain('index');
    expect(phases[phases.length - 1]).toBe('done');
    const files = listFiles(sample).length + 1;
    const figures = await page.textContent('.index-panel .figures');
    expect(figures).toMatch(/files\/s/);
    expect(figures).toMatch(/chunks/);
    expect(figures).toMatch(/read/);
    expect(await page.textContent('.index-panel .grammars')).toMatch(/c_sharp/);
    const skipped = await page.textContent('.index-panel .skipped');
    expect(skipped).toMatch(/secret/);
    expect(await page.textContent('.topbar .ws-current')).toContain(WS);
    expect(await page.textContent('.statusline')).toMatch(new RegExp(`${files - 0}|\\d+ files`));
    await shot(page, '02-indexed');
    expect(bad).toEqual([]);
  });

  it('searches as you type: grouped by file, terms marked, badges, status and hint; stale answers never shown', async () => {
    await page.click('#search-input');
    await page.keyboard.type('PricingEngine', { delay: 25 });
    await page.waitForFunction(() => document.querySelector('.statusline .status-row')?.textContent?.includes('hit'));
    await page.waitForFunction(() => !document.querySelector('.searchbar[data-searching]'));
    // The URL takes the query once typing pauses.
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'PricingEngine');
    const groups = await page.$$eval('.group .file-head .name', (els) => els.map((e) => e.textContent));
    expect(groups.length).toBeGreaterThan(1);
    expect(new Set(groups).size).toBe(groups.length);
    expect(groups[0]).toBe('PricingEngine.cs');
    expect(await page.$$eval('.hit mark', (els) => els.length)).toBeGreaterThan(0);
    expect(await page.$$eval('.hit mark', (els) => els.every((e) => /pricing|engine/i.test(e.textContent ?? '')))).toBe(true);
    expect(await page.$$eval('.badge.hitkind-text_fts', (els) => els.length)).toBeGreaterThan(0);
    expect(await page.$$eval('.group .badge.lang-csharp', (els) => els.length)).toBeGreaterThan(0);
    expect(await page.textContent('.statusline .badge')).toBe('ok');
    expect(await page.textContent('.statusline')).toMatch(/match all/);
    // Groups come in the order of their best hit; within a group, hits in rank order.
    const ranks = await page.$$eval('.group', (gs) => gs.map((g) => [...g.querySelectorAll('.hit')].map((h) => Number((h as HTMLElement).dataset.rank))));
    expect(ranks.map((r) => r[0])).toEqual([...ranks.map((r) => r[0])].sort((a, b) => a - b));
    for (const r of ranks) expect(r).toEqual([...r].sort((a, b) => a - b));
    await shot(page, '03-search');

    // Clearing the box shows where to start; the rows stay in the page unpainted (content-visibility),
    // and the next query's answer patches them instead of building the list again.
    const row = await page.$('.hit');
    await page.fill('#search-input', '');
    await page.waitForSelector('.start-here');
    expect(await page.$eval('.results', (e) => getComputedStyle(e).contentVisibility)).toBe('hidden');
    expect(await page.isVisible('.hit')).toBe(false);
    await page.fill('#search-input', 'PricingEngine'); // at once: a prefix with no hits would empty the list on the way
    await page.waitForFunction(() => !document.querySelector('.searchbar[data-searching]') && !document.querySelector('.start-here'));
    expect(await page.$eval('.results', (e) => getComputedStyle(e).contentVisibility)).toBe('visible');
    expect(await row!.evaluate((e) => e.isConnected)).toBe(true);
    expect(await page.isVisible('.hit')).toBe(true);

    // Terms are marked where a word or an identifier part begins, as the core matches them: "order"
    // in `OrderStatus`, `PlaceOrderAsync` and `order`, never inside `border` or `reorderLevel`.
    await page.fill('#search-input', 'order');
    await page.waitForFunction(() => !document.querySelector('.searchbar[data-searching]') && document.querySelector('.results')?.textContent?.toLowerCase().includes('order'));
    await searchSettled(page); // the whole page replaces the first screenful once typing pauses
    const lines = await page.$$eval('.hit .snip-line', (els) => els.map((el) => {
      let text = '';
      const marks: number[] = [];
      for (const n of el.childNodes) {
        if (n instanceof HTMLElement && n.classList.contains('snip-n')) continue;
        if (n instanceof HTMLElement && n.tagName === 'MARK') marks.push(text.length);
        text += n.textContent ?? '';
      }
      return { text, marks };
    }));
    const markedAt = lines.flatMap((l) => l.marks.map((at) => ({ ...l, at })));
    expect(markedAt.length).toBeGreaterThan(0);
    for (const m of markedAt) expect(tokenBoundaries(m.text).has(m.at), `a mark at ${m.at} of "${m.text}"`).toBe(true);
    // Inside other words on the lines shown: there, and nowhere else, the query's letters stay unmarked.
    const inside = lines.flatMap((l) => [...l.text.matchAll(/order/gi)].filter((x) => !tokenBoundaries(l.text).has(x.index)).map((x) => ({ ...l, at: x.index })));
    expect(inside.length, 'lines shown with "order" inside another word').toBeGreaterThan(0);
    for (const m of inside) expect(m.marks, `"${m.text}"`).not.toContain(m.at);

    // A query with no hits says so, with a hint: never a bare empty list.
    await page.fill('#search-input', 'zzqxnothingmatches');
    await page.waitForFunction(() => document.querySelector('.statusline .badge')?.textContent === 'empty');
    expect(await page.textContent('.statusline .hint')).toMatch(/not proof of absence/);
    // Typing fast: only the last query's hits end up on screen.
    await page.fill('#search-input', '');
    await page.keyboard.type('ShoppingCart', { delay: 0 });
    await searchSettled(page);
    expect(await page.textContent('.statusline .badge')).toBe('ok');
    expect(await page.$$eval('.hit mark', (els) => els.length > 0 && els.every((e) => /shopping|cart/i.test(e.textContent ?? '')))).toBe(true);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'ShoppingCart');
  });

  it('filters: extension chips with counts, a folder prefix, hiding tests', async () => {
    await page.fill('#search-input', 'PricingEngine');
    await page.waitForSelector('.filters .chip .chip-count');
    const chips = await page.$$eval('.filters .chip', (els) => els.map((e) => e.textContent ?? ''));
    expect(chips.some((c) => /^\.cs/.test(c))).toBe(true);
    await page.click('.filters .chip:has-text("hide tests")');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('hide') === 'test');
    // Over a non-empty list: every/some over no rows is true while the list is being redrawn.
    await page.waitForFunction(() => {
      const heads = [...document.querySelectorAll('.file-head')];
      return heads.length > 0 && !heads.some((e) => e.textContent?.startsWith('tests/'));
    });
    const withoutTests = await page.$$eval('.file-head', (els) => els.map((e) => e.textContent ?? ''));
    expect(withoutTests.length).toBeGreaterThan(0);
    await page.click('.filters .chip:has-text(".cs")');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('ext') === '.cs');
    await page.waitForFunction(() => {
      const names = [...document.querySelectorAll('.file-head .name')];
      return names.length > 0 && names.every((e) => e.textContent?.endsWith('.cs'));
    });
    await shot(page, '04-filters');
    await page.click('.filters .chip.on:has-text(".cs")');
    await page.click('.filters .chip:has-text("hide tests")');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('ext') && !new URL(location.href).searchParams.has('hide'));
    await page.fill('.filters .under input', 'src/Contoso.Shop.Application/');
    await page.press('.filters .under input', 'Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('under') === 'src/Contoso.Shop.Application/');
    await page.waitForFunction(() => {
      const heads = [...document.querySelectorAll('.file-head')];
      return heads.length > 0 && heads.every((e) => e.textContent?.startsWith('src/Contoso.Shop.Application/'));
    });
    // Cleared at once after the filter took: the box keeps what was typed last (the filter's own
    // update must not put the folder back), and Enter drops it.
    await page.fill('.filters .under input', '');
    await page.press('.filters .under input', 'Enter');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('under'));
    expect(await page.inputValue('.filters .under input')).toBe('');
    await page.waitForFunction(() => [...document.querySelectorAll('.file-head')].some((e) => !e.textContent?.startsWith('src/Contoso.Shop.Application/')));
    // The same as fast as keys come, no wait between: once the frames after it are drawn, the box
    // and the URL both say no folder (a copy of the filter made after the paint put it back).
    await page.fill('.filters .under input', 'src/Contoso.Shop.Application/');
    await page.press('.filters .under input', 'Enter');
    await page.fill('.filters .under input', '');
    await page.press('.filters .under input', 'Enter');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
    expect(await page.inputValue('.filters .under input')).toBe('');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('under'));
  });

  it('opens the viewer at the hit lines, with syntax colouring, outline and "why this result"', async () => {
    await fresh('PricingEngine');
    const first = await page.$eval('.hit .lines', (e) => e.textContent ?? '');
    const [, a, b] = /L(\d+)–(\d+)/.exec(first)!.map(Number);
    await page.click('.hit');
    await page.waitForSelector('.viewer .row.hl');
    const marked = await page.$$eval('.viewer .row.hl', (els) => els.map((e) => Number((e as HTMLElement).dataset.line)));
    expect(marked[0]).toBe(a);
    expect(marked[marked.length - 1]).toBe(b);
    expect(page.url()).toMatch(new RegExp(`#/w/${WS}/f/src/Contoso\\.Shop\\.Application/Pricing/PricingEngine\\.cs#L${a}-${b}$`));
    // Scrolled into view and coloured.
    const inView = await page.$eval('.viewer .row.hl', (row) => {
      const r = row.getBoundingClientRect();
      const c = row.closest('.code')!.getBoundingClientRect();
      return r.top >= c.top && r.bottom <= c.bottom;
    });
    expect(inView).toBe(true);
    expect(await page.$$eval('.viewer .hljs-keyword', (els) => els.length)).toBeGreaterThan(3);
    const symbols = await page.$$eval('.outline .sym-name', (els) => els.map((e) => e.textContent));
    expect(symbols).toContain('PricingEngine');
    await shot(page, '05-viewer');

    await page.click('button:has-text("Why this result?")');
    await page.waitForSelector('.explain dl');
    const why = await page.textContent('.explain');
    expect(why).toMatch(/rank\s*1/);
    expect(why).toMatch(/Matched terms/);
    expect(why).toMatch(/BM25/);
    await shot(page, '06-explain');
    await page.click('.explain button[aria-label="Close"]');

    // An outline symbol marks its lines and updates the permalink.
    const target = await page.$$eval('.outline .sym', (els) => els.findIndex((e) => e.querySelector('.sym-kind')?.textContent === 'method'));
    expect(target).toBeGreaterThanOrEqual(0);
    const before = page.url();
    await (await page.$$('.outline .sym'))[target].click();
    await page.waitForFunction((u) => location.href !== u, before);
    expect(await page.$$eval('.outline .sym.here', (els) => els.length)).toBe(1);
  });

  it('goes to a definition (Ctrl-click), switches to paired files, and a permalink survives a reload', async () => {
    // Ctrl-P finds the test file; Ctrl-click on PricingEngine there opens its definition.
    // The name is typed right after Ctrl-P, without waiting for the dialog, as a person does: every key
    // must reach the finder's box (focused after the next paint, as it was, the first letters went to
    // the search box — all of them but "tests" when frames came late on a loaded machine).
    await fresh();
    await page.keyboard.press('Control+p');
    await page.keyboard.type('pricingenginetests');
    expect(await page.inputValue('.quick-input')).toBe('pricingenginetests');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('quick-input');
    await page.waitForFunction(() => document.querySelector('.quick-list li.sel .qname')?.textContent === 'PricingEngineTests.cs');
    await shot(page, '07-quick-open');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash.includes('PricingEngineTests.cs'));
    await page.waitForSelector('.viewer .row .src');
    const point = await page.evaluate(() => {
      for (const src of document.querySelectorAll('.viewer .row .src')) {
        const walker = document.createTreeWalker(src, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const i = n.textContent!.search(/\bPricingEngine\b/);
          if (i < 0) continue;
          const r = document.createRange();
          r.setStart(n, i + 3);
          r.setEnd(n, i + 4);
          const box = r.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
      }
      return null;
    });
    expect(point).not.toBeNull();
    await page.keyboard.down('Control');
    await page.mouse.click(point!.x, point!.y);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => /\/f\/src\/Contoso\.Shop\.Application\/Pricing\/PricingEngine\.cs#L\d+/.test(location.hash));
    await page.waitForFunction(() => [...document.querySelectorAll('.outline .sym.here .sym-name')].map((e) => e.textContent).join() === 'PricingEngine');
    expect(await page.textContent('.viewer .tab.on')).toBe('PricingEngine.cs');

    // Paired files: a Razor component with its code-behind and scoped CSS.
    await page.fill('#search-input', 'ProductDetails');
    await page.waitForSelector('.group .file-head .name:text-is("ProductDetails.razor")');
    await page.click('.group:has(.file-head .name:text-is("ProductDetails.razor")) .hit');
    await page.waitForSelector('.viewer .tab.on:text-is("ProductDetails.razor")');
    await page.waitForFunction(() => document.querySelectorAll('.viewer .tab').length === 3);
    const tabs = await page.$$eval('.viewer .tab', (els) => els.map((e) => e.textContent));
    expect(tabs).toEqual(['ProductDetails.razor', '.razor.cs', '.razor.css']);
    await page.click('.viewer .tab:text-is(".razor.cs")');
    await page.waitForFunction(() => location.hash.endsWith('ProductDetails.razor.cs'));
    await page.waitForSelector('.viewer .tab.on:text-is(".razor.cs")');
    await page.waitForSelector('.viewer .row .src');
    await shot(page, '08-paired');

    // A permalink to lines, with the query, survives a reload.
    await page.click('.viewer .row[data-line="3"] .ln');
    await page.click('.viewer .row[data-line="6"] .ln', { modifiers: ['Shift'] });
    await page.waitForFunction(() => location.hash.endsWith('#L3-6'));
    const link = page.url();
    await page.reload();
    await page.waitForSelector('.viewer .row.hl');
    expect(page.url()).toBe(link);
    expect(await page.$$eval('.viewer .row.hl', (els) => els.map((e) => Number((e as HTMLElement).dataset.line)))).toEqual([3, 4, 5, 6]);
    expect(await page.inputValue('#search-input')).toBe('ProductDetails');
    await page.waitForSelector('.hit');
    await shot(page, '09-permalink-reload');
  });

  it('is keyboard-first: / focuses, j/k move, Enter opens, Esc closes', async () => {
    await fresh();
    expect(await page.$('.viewer')).toBeNull();
    expect(new URL(page.url()).hash).toBe(`#/w/${WS}`);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    await page.fill('#search-input', 'order');
    await page.waitForFunction(() => document.querySelectorAll('.hit').length >= 3 && !document.querySelector('.searchbar[data-searching]'));
    await page.keyboard.press('Escape'); // leaves the search box
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.$eval('.hit.sel', (e) => Number((e as HTMLElement).dataset.rank))).toBe(2);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.viewer .row.hl');
    await page.keyboard.press('j');
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('.hit.sel')?.dataset.rank) === 3);
    await shot(page, '10-keyboard');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.viewer'));
  });

  it('exports the index and imports it as another workspace; the list shows size, files, chunks and age', async () => {
    // A query on screen when the copy is imported is answered from the imported index (searched when
    // the workspace opened, before its file was in, it said no_index and stayed so).
    await fresh();
    await page.fill('#search-input', 'PricingEngine');
    await page.waitForFunction(() => document.querySelector('.group .file-head .name')?.textContent === 'PricingEngine.cs');
    await page.click('.topbar .brand');
    await page.waitForSelector(`.ws-table tr[data-workspace="${WS}"]`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`.ws-table tr[data-workspace="${WS}"] button:has-text("Export")`)]);
    const saved = path.join(tmpDir('hci-export-'), 'imported-copy.sqlite');
    tmp.push(path.dirname(saved));
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).subarray(0, 15).toString()).toBe('SQLite format 3');
    await page.setInputFiles('#import-input', saved);
    await page.waitForFunction(() => document.querySelector('.topbar .ws-current b')?.textContent === 'imported-copy');
    expect(await page.inputValue('#search-input')).toBe('PricingEngine');
    await page.waitForFunction(() => document.querySelector('.group .file-head .name')?.textContent === 'PricingEngine.cs');
    expect(await page.textContent('.statusline .badge')).toBe('ok');
    await page.click('.topbar .brand');
    await page.waitForSelector('.ws-table tr[data-workspace="imported-copy"]');
    const row = await page.textContent(`.ws-table tr[data-workspace="${WS}"]`);
    expect(row).toMatch(/\d+ files/);
    expect(row).toMatch(/KB|MB/);
    expect(row).toMatch(/just now|min ago/);
    expect(await page.textContent('.storage')).toMatch(/used of/);
    await shot(page, '11-workspaces');
    await page.click('.ws-table tr[data-workspace="imported-copy"] .ws-name');
    await page.waitForSelector('.results-pane');
  });

  it('on the home screen a parse worker waits for a first pass; opening a stored workspace to search ends it', async () => {
    const home = await session.context.newPage();
    try {
      await home.goto(`${server.url}/`);
      await home.waitForSelector(`.ws-table tr[data-workspace="${WS}"]`);
      const parseWorker = () => home.workers().find((w) => /\/parse-worker-[\w-]+\.js$/.test(w.url()));
      await expect.poll(() => parseWorker() !== undefined, { timeout: 10_000 }).toBe(true);
      const ended = new Promise<boolean>((resolve) => {
        parseWorker()!.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 10_000);
      });
      await home.click(`.ws-table tr[data-workspace="${WS}"] .ws-name`);
      await home.waitForSelector('.results-pane');
      expect(await ended).toBe(true);
    } finally {
      await home.close();
    }
  });

  it('a second tab gets a take-over choice, not an error; the first tab hears it and can take it back', async () => {
    const second = await session.context.newPage();
    await second.setViewportSize({ width: 1440, height: 900 });
    await second.goto(`${server.url}/?q=PricingEngine#/w/imported-copy`);
    await second.waitForSelector('.takeover');
    expect(await second.textContent('.takeover h2')).toBe('imported-copy is open in another tab');
    await shot(second, '12-second-tab-ask');
    await second.click('.takeover button:has-text("Take over here")');
    await second.waitForFunction(() => document.querySelector('.group .file-head .name')?.textContent === 'PricingEngine.cs', undefined, { timeout: 20_000 });
    await page.waitForSelector('.notice.warn:has-text("taken over by another tab")');
    await shot(second, '13-second-tab-took-over');
    await shot(page, '14-first-tab-released');
    await page.click('.notice.warn button:has-text("Take it back")');
    await page.waitForFunction(() => document.querySelector('.topbar .ws-current b')?.textContent === 'imported-copy');
    await second.waitForSelector('.notice.warn:has-text("taken over by another tab")');
    await second.close();
  });

  it('cancels a long indexing run and keeps what was committed', async () => {
    await page.fill('#search-input', '');
    await page.click('.topbar .brand');
    await page.setInputFiles('#zip-input', { name: 'big.zip', mimeType: 'application/zip', buffer: Buffer.from(bigZip(8000)) });
    await page.waitForFunction(() => Number(document.querySelector('.index-panel [role=progressbar]')?.getAttribute('aria-valuenow')) > 0, undefined, { timeout: 60_000, polling: 50 });
    await page.click('.index-panel button:has-text("Cancel")', { timeout: 5000 });
    await page.waitForSelector('.index-panel.phase-cancelled', { timeout: 60_000 });
    expect(await page.textContent('.index-panel')).toMatch(/cancelled/i);
    await shot(page, '15-cancelled');
    const files = Number((await page.textContent('.statusline .freshness'))!.match(/([\d,]+) files/)![1].replace(/,/g, ''));
    expect(files).toBeGreaterThan(0);
    expect(files).toBeLessThan(8000);
    await page.fill('#search-input', 'Service1');
    await page.waitForFunction(() => /ok|empty/.test(document.querySelector('.statusline .badge')?.textContent ?? ''));
    expect(await page.textContent('.statusline')).toMatch(/did not finish|partial/);
  }, 120_000);

  it('works offline after the first load (service worker), with no COOP/COEP headers', { timeout: 90_000 }, async () => {
    // The service worker has precached the build (the wasm files and every grammar among it).
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      for (let i = 0; i < 300; i++) {
        const name = (await caches.keys()).find((k) => k.startsWith('hci-explorer-'));
        if (name) {
          const urls = (await (await caches.open(name)).keys()).map((r) => r.url);
          if (urls.some((u) => u.endsWith('.wasm'))) return urls;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      return [];
    });
    expect(cached.some((u) => /sqlite3.*\.wasm$/.test(u))).toBe(true);
    expect(cached.some((u) => /tree-sitter-c[-_]sharp.*\.wasm(\.gz)?$/.test(u))).toBe(true);
    await session.context.setOffline(true);
    try {
      await page.goto(`${server.url}/?q=PricingEngine#/w/${WS}`);
      await page.reload();
      await page.waitForFunction(() => document.querySelector('.group .file-head .name')?.textContent === 'PricingEngine.cs', undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      await page.click('.hit');
      await page.waitForSelector('.viewer .hljs-keyword');
      await shot(page, '16-offline');
    } finally {
      await session.context.setOffline(false);
    }
  });
});
