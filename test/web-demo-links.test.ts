// The explorer's links and start screen (issue 37), built and driven in headless Chromium: the start
// screen's example queries come from the open index (a type, a word, a route, a settings key, a
// folder — here of a small "Gadgets" project, nothing of the bundled sample), and a click searches
// one; the filter chips say what they count; a workspace with vectors offers hybrid and meaning modes
// and "more like this" on a hit (one without offers none); a permalink keeps "why this result" open; Link says the
// link was copied (and it was); the workspaces screen offers to go back where the user was; and a
// link opened in another browser, which does not hold the workspace, says so in plain words (no
// library call, no re-index) and offers a folder, a .zip or an index file — a .zip given there is
// indexed under the link's name and the link then opens the file and lines it names; a reopened
// workspace's examples come from the page's storage for the same index version.
// @lane browser
import { describe, it, expect } from 'vitest';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { launchChromium, type StaticServer } from './helpers/browser.ts';
import { openIndexed, searchIdle as idle, webDemoShot, webDemoSuite } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();
const WS = 'gadgets';

const GADGETS: Record<string, string> = {
  'src/Gadgets.Api/GadgetController.cs': `namespace Gadgets.Api;\n\n[Route("api/gadgets")]\npublic class GadgetController\n{\n    private readonly GadgetStore _store;\n    public GadgetController(GadgetStore store) => _store = store;\n    [HttpGet("{id}")]\n    public Gadget? Get(int id) => _store.Find(id);\n}\n`,
  'src/Gadgets.Api/GadgetStore.cs': `namespace Gadgets.Api;\n\npublic sealed class GadgetStore\n{\n${Array.from({ length: 30 }, (_, i) => `    public Gadget? Find${i}(int id) => null; // shelf ${i}`).join('\n')}\n    public Gadget? Find(int id) => null;\n}\n`,
  'src/Gadgets.Api/GadgetShelf.cs': `namespace Gadgets.Api;\n\npublic record GadgetShelf(int Id, int Capacity);\n`,
  'src/Gadgets.Api/Gadget.cs': `namespace Gadgets.Api;\n\npublic record Gadget(int Id, string Name);\n`,
  'src/Gadgets.Api/Program.cs': `var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\napp.Run();\n`,
  'src/Gadgets.Api/appsettings.json': `{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "Gadgets": {\n    "MaxGadgetsPerShelf": 12,\n    "ShelfName": "main"\n  }\n}\n`,
  'tests/Gadgets.Tests/GadgetStoreTests.cs': `namespace Gadgets.Tests;\n\npublic class GadgetStoreTests\n{\n    public void FindsNothing() { }\n}\n`,
};

function gadgetsZip(top = WS, extra: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [rel, text] of Object.entries({ ...GADGETS, ...extra })) files[`${top}/${rel}`] = new TextEncoder().encode(text);
  return zipSync(files, { level: 6 });
}

describe.skipIf(!chromium)(titled('web-demo links and start screen (built app, headless Chromium)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let page: Page;

  webDemoSuite(chromium, 'links', async (demo) => {
    ({ server, page } = demo);
    await openIndexed(demo, WS, gadgetsZip());
    await demo.session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  it('the start screen\'s examples come from the open index, and a click searches one', async () => {
    await page.waitForSelector('.start-here .examples .example');
    const ex = await page.$$eval('.start-here .example', (els) => els.map((e) => ({ q: e.textContent, what: e.getAttribute('title') })));
    const qs = ex.map((e) => e.q);
    expect(qs).toContain('GadgetStore'); // the biggest code file named with the commonest part
    expect(qs).toContain('gadget');
    expect(qs).toContain('"api/gadgets"');
    expect(qs).toContain('MaxGadgetsPerShelf');
    expect(qs).toContain('path:src/Gadgets.Api/ gadget');
    expect(qs).not.toContain('PricingEngine');
    // No vectors here: no meaning modes, no "more like this".
    expect(await page.$('.mode-switch [data-mode=hybrid]')).toBeNull();
    await webDemoShot(page, 'links-01-examples');
    await page.click('.start-here .example:text-is("MaxGadgetsPerShelf")');
    await page.waitForSelector('.group .file-head .name:text-is("appsettings.json")');
    expect(await page.inputValue('#search-input')).toBe('MaxGadgetsPerShelf');
    // The chips say what they count.
    await page.fill('#search-input', 'gadget');
    await page.waitForSelector('.filters .facet-label');
    expect(await page.textContent('.filters .facet-label')).toMatch(/^\d+ files? holds? (every|some) terms?:$/);
  });

  it('a permalink keeps "why this result" open; Link says it copied the link', async () => {
    await page.fill('#search-input', 'GadgetStore');
    await page.waitForSelector('.group .file-head .name:text-is("GadgetStore.cs")');
    await idle(page);
    await page.click('.group:has(.file-head .name:text-is("GadgetStore.cs")) .hit');
    await page.waitForSelector('.viewer .row.hl');
    await page.click('button:has-text("Why this result?")');
    await page.waitForSelector('.explain dl');
    await page.waitForFunction(() => new URL(location.href).searchParams.has('why'));
    const link = page.url();
    await page.click('.viewer-head button:has-text("Link")');
    await page.waitForSelector('.viewer-head button:has-text("Copied")');
    expect(await page.textContent('.viewer-head [role=status]')).toMatch(/copied/i);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.reload();
    await page.waitForSelector('.explain dl');
    expect(await page.textContent('.explain')).toMatch(/rank\s*1/);
    // Closing it takes it out of the link.
    await page.click('.explain button[aria-label="Close"]');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('why'));
  });

  it('the workspaces screen offers to go back where the user was', async () => {
    const place = page.url();
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.home .resume a');
    expect(await page.textContent('.home .resume')).toContain('GadgetStore.cs');
    await webDemoShot(page, 'links-02-resume');
    await page.click('.home .resume a');
    await page.waitForSelector('.viewer .row.hl');
    expect(page.url()).toBe(place);
  });

  it('with vectors (semantic search on): hybrid and meaning modes, and "more like this" from a hit', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.home');
    await page.setInputFiles('#zip-input', { name: 'gadgets-semantic.zip', mimeType: 'application/zip', buffer: Buffer.from(gadgetsZip('gadgets-semantic', { '.hci/settings.toml': '[semantic]\nenabled = true\ndims = 64\n' })) });
    await page.waitForSelector('.index-panel.phase-done', { timeout: 90_000 });
    await page.waitForSelector('.mode-switch [data-mode=hybrid]');
    await page.click('.mode-switch [data-mode=hybrid]');
    await page.fill('#search-input', 'gadget shelf capacity');
    await page.waitForSelector('.hit');
    await idle(page);
    expect(new URL(page.url()).searchParams.get('mode')).toBe('hybrid');
    expect(await page.textContent('.searchbar .mode')).toBe('hybrid');
    await page.click('.mode-switch [data-mode=semantic]');
    await page.waitForFunction(() => document.querySelector('.searchbar .mode')?.textContent === 'semantic');
    expect(await page.$$eval('.hit .badge.hitkind-text_vector', (els) => els.length)).toBeGreaterThan(0);
    await page.click('.mode-switch [data-mode=keyword]');
    await page.fill('#search-input', 'GadgetShelf');
    await page.waitForSelector('.group .file-head .name:text-is("GadgetShelf.cs")');
    await idle(page);
    const before = await page.$$eval('.hit', (els) => els.length);
    await page.click('.group:has(.file-head .name:text-is("GadgetShelf.cs")) .hit .more-like');
    await page.waitForSelector('.similar-head');
    expect(await page.textContent('.similar-head')).toContain('src/Gadgets.Api/GadgetShelf.cs');
    await page.waitForFunction(() => document.querySelectorAll('.hit .badge.hitkind-text_vector').length > 0);
    await webDemoShot(page, 'links-04-more-like-this');
    await page.click('.similar-head button:has-text("back to the search")');
    await page.waitForFunction(() => !document.querySelector('.similar-head') && !document.querySelector('.hit .badge.hitkind-text_vector'));
    expect(await page.$$eval('.hit', (els) => els.length)).toBe(before);
  }, 120_000);

  it('a link opened in another browser says, in plain words, the workspace is not there; a .zip given there opens the linked lines', async () => {
    const link = `${server.url}/?q=GadgetStore#/w/${WS}/f/src/Gadgets.Api/GadgetStore.cs#L4-6`;
    const other = await launchChromium(chromium);
    try {
      const p = other.page;
      await p.setViewportSize({ width: 1280, height: 800 });
      await p.goto(link);
      await p.waitForSelector('.missing-link');
      const text = (await p.textContent('.missing-link')) ?? '';
      expect(text).toContain(`${WS} is not in this browser`);
      expect(text).toContain('src/Gadgets.Api/GadgetStore.cs');
      expect(text).not.toMatch(/no_index|index\(\)|opfs:/);
      expect(await p.$('.topbar button:has-text("re-index")')).toBeNull();
      for (const b of ['Upload the folder', 'Open a .zip of it', 'Import its index file']) expect(await p.isVisible(`.missing-link button:has-text("${b}")`)).toBe(true);
      await webDemoShot(p, 'links-03-missing');
      // The zip's own name is another; what is given here is indexed as the link's workspace.
      await p.setInputFiles('#missing-zip-input', { name: 'gadgets-main.zip', mimeType: 'application/zip', buffer: Buffer.from(gadgetsZip()) });
      await p.waitForSelector('.viewer .row.hl', { timeout: 60_000 });
      expect(await p.$$eval('.viewer .row.hl', (els) => els.map((e) => Number((e as HTMLElement).dataset.line)))).toEqual([4, 5, 6]);
      expect(await p.textContent('.topbar .ws-current b')).toBe(WS);
      expect(p.url()).toBe(link);
    } finally {
      await other.close();
    }
  }, 120_000);

  it('a reopened workspace\'s examples come from the page\'s storage for the same index version: nothing asked of the Worker', async () => {
    const key = `hci-examples:${WS}`;
    type Kept = { version: string; list: Array<{ q: string; mode: string; what: string }> };
    const kept = (await page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null'), key)) as Kept | null;
    expect(kept?.list.map((e) => e.q)).toContain('GadgetStore');
    const reopen = async (entry: Kept) => {
      await page.evaluate(([k, v]) => localStorage.setItem(k, v), [key, JSON.stringify(entry)]);
      await page.goto(`${server.url}/#/w/${WS}`);
      await page.reload();
      await page.waitForSelector('.start-here .examples .example');
      return page.$$eval('.start-here .example', (els) => els.map((e) => e.textContent));
    };
    // What is kept for this version is what the start screen shows (an entry put there by the test).
    expect(await reopen({ ...kept!, list: [{ q: 'KeptGadget', mode: 'keyword', what: 'a type' }] })).toEqual(['KeptGadget']);
    // Kept for another version (the index changed since): chosen from the index again, and kept.
    const again = await reopen({ version: `${kept!.version}-before`, list: [{ q: 'KeptGadget', mode: 'keyword', what: 'a type' }] });
    expect(again).toContain('GadgetStore');
    expect(again).not.toContain('KeptGadget');
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').list?.some((e: { q: string }) => e.q === 'GadgetStore'), key);
  });
});
