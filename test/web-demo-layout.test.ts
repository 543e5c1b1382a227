// The explorer from 390 px to wide screens, light and dark (issue 37), built and driven in headless
// Chromium: at phone width the page never scrolls sideways and an opened file's code is on screen
// (one column: the hits or the file, "← Results" between them); at 1440 px the results, outline and
// side panel are resized by dragging or by keys on their splitters and folded, long lines wrap on
// request; the theme follows the system and the toggle overrides it across a reload, code colours
// included; and axe-core finds no violation of any impact on the home screen, the results, the file
// view and the conversation panel, in both themes, nor on an indexing run's panel (and no serious or
// critical one on the file tree); the file tree (role=tree) opens folders a
// level at a time with their file counts, moves by the ARIA tree keys, filters, and opens a file; lines
// of a file are marked from the keyboard (Alt/Shift with the arrows) and the link follows. The screens are saved under
// test-output/web-demo/ (to be looked at), and into docs/explorer/ when HCI_EXPLORER_SHOTS=1, with
// all-screens.png, the four screens at both widths in both themes in one picture (the README shows it).
// @lane browser
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { zipSync } from 'fflate';
import { REPO, type StaticServer } from './helpers/browser.ts';
import { indexZip, openIndexed, sampleWorkspaceZip, searchIdle as idle, webDemoShot, webDemoSuite } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();
const WS = 'layout-shop';
const AXE = path.join(REPO, 'node_modules/axe-core/axe.min.js');
const DOCS_SHOTS = process.env.HCI_EXPLORER_SHOTS === '1' ? path.join(REPO, 'docs/explorer') : null;

/** One file whose lines are far wider than any screen. */
const WIDE = `namespace Contoso.Shop.Web;\n\npublic static class WideLines\n{\n    public const string Banner = "${'a very long banner text that keeps going '.repeat(12)}";\n}\n`;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** axe-core's violations on the page as it is now (WCAG 2.x A/AA rules and best practices), of every impact. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
}

/** How far the page itself scrolls sideways (0: not at all). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * docs/explorer/all-screens.png: the four screens at 1440 and 390 px, light and dark, as one picture (a
 * row a screen), laid out in a page of the same browser from the screenshots just written.
 */
async function contactSheet(page: Page, dir: string): Promise<void> {
  const img = (name: string, height: number) =>
    `<figure><img style="height:${height}px" src="data:image/png;base64,${fs.readFileSync(path.join(dir, `${name}.png`)).toString('base64')}"><figcaption>${name}</figcaption></figure>`;
  const rows = ['home', 'results', 'file', 'conversation'].map((screen) =>
    `<div class="row">${['1440-light', '1440-dark', '390-light', '390-dark'].map((v) => img(`${screen}-${v}`, 300)).join('')}</div>`).join('');
  const sheet = await page.context().newPage();
  try {
    await sheet.setViewportSize({ width: 1300, height: 800 });
    await sheet.setContent(`<!doctype html><style>body{margin:8px;font:12px system-ui,sans-serif;background:#fff}.row{display:flex;gap:8px;margin-bottom:6px}figure{margin:0}img{display:block;border:1px solid #ccc}figcaption{color:#444;padding:2px 0}</style>${rows}`);
    await sheet.screenshot({ path: path.join(dir, 'all-screens.png'), fullPage: true });
  } finally {
    await sheet.close();
  }
}

async function shot(page: Page, name: string): Promise<void> {
  await webDemoShot(page, name);
  if (DOCS_SHOTS) {
    fs.mkdirSync(DOCS_SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(DOCS_SHOTS, `${name}.png`) });
  }
}

describe.skipIf(!chromium)(titled('web-demo layout, themes and accessibility (built app, headless Chromium)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let page: Page;

  webDemoSuite(chromium, 'layout', async (demo) => {
    ({ server, page } = demo);
    await openIndexed(demo, WS, sampleWorkspaceZip(WS, { 'src/Contoso.Shop.Web/WideLines.cs': WIDE }));
  });

  it('at 390 px: no sideways scrolling on any screen; the file opens in one column with its code on screen; "← Results" goes back', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('.topbar .brand');
    await page.waitForSelector('.home');
    expect(await sideways(page)).toBe(0);
    await page.click(`.ws-table tr[data-workspace="${WS}"] .ws-name`);
    await page.waitForSelector('.results-pane');
    await page.fill('#search-input', 'PricingEngine');
    await page.waitForSelector('.hit');
    await idle(page);
    expect(await sideways(page)).toBe(0);
    // The search box spans the screen.
    const box = await page.$eval('#search-input', (e) => e.getBoundingClientRect().width);
    expect(box).toBeGreaterThan(300);
    await page.click('.hit');
    await page.waitForSelector('.viewer .row.hl');
    expect(await sideways(page)).toBe(0);
    // One column: the hits give way to the file, whose code fills the screen's width and is in view.
    expect(await page.isVisible('.results-pane')).toBe(false);
    const code = await page.$eval('.viewer .code', (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    expect(code.left).toBeGreaterThanOrEqual(0);
    expect(code.right).toBeLessThanOrEqual(390);
    expect(code.right - code.left).toBeGreaterThan(340);
    expect(code.top).toBeLessThan(844 - 200);
    const hl = await page.$eval('.viewer .row.hl .src', (e) => e.getBoundingClientRect());
    expect(hl.top).toBeGreaterThanOrEqual(code.top);
    expect(hl.bottom).toBeLessThanOrEqual(844);
    expect(hl.left).toBeLessThan(390);
    // The outline is folded until asked for.
    expect(await page.isVisible('.outline')).toBe(false);
    await page.click('.viewer-head button:has-text("Outline")');
    await page.waitForSelector('.outline .sym');
    expect(await sideways(page)).toBe(0);
    await page.click('.viewer-head button:has-text("Outline")');
    await page.click('.back-to-results');
    await page.waitForSelector('.results-pane .hit');
    expect(await page.isVisible('.viewer')).toBe(false);
  });

  it('at 1440 px: the results, outline and side panel resize by drag and by keys, fold, and keep their sizes over a reload; wrap keeps long lines on screen', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.click('.group:has(.file-head .name:text-is("PricingEngine.cs")) .hit');
    await page.waitForSelector('.viewer .row.hl');
    const width = (sel: string) => page.$eval(sel, (e) => Math.round(e.getBoundingClientRect().width));
    const before = await width('.results-pane');
    // Drag the results' splitter 200 px to the left.
    const s = (await page.$('.splitter-results'))!;
    const b = (await s.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + 200);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 - 200, b.y + 200, { steps: 5 });
    await page.mouse.up();
    expect(Math.abs((await width('.results-pane')) - (before - 200))).toBeLessThanOrEqual(2);
    // Keys: → widens by 20 px, Shift+→ by 80; the separator says its value.
    await page.focus('.splitter-results');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    const now = await width('.results-pane');
    expect(Math.abs(now - (before - 100))).toBeLessThanOrEqual(2);
    expect(Number(await page.getAttribute('.splitter-results', 'aria-valuenow'))).toBe(Math.round(before - 100));
    // The outline's splitter, and the side panel's (explain open), which sits on the code's right.
    const outline = await width('.outline');
    await page.focus('.splitter-outline');
    await page.keyboard.press('Shift+ArrowRight');
    expect(await width('.outline')).toBe(outline + 80);
    await page.click('button:has-text("Why this result?")');
    await page.waitForSelector('.explain dl');
    const side = await width('.side-panels');
    await page.focus('.splitter-side');
    await page.keyboard.press('ArrowLeft');
    expect(await width('.side-panels')).toBe(side + 20);
    // Sizes survive a reload.
    await page.reload();
    await page.waitForSelector('.viewer .row.hl');
    expect(Math.abs((await width('.results-pane')) - now)).toBeLessThanOrEqual(2);
    expect(await width('.outline')).toBe(outline + 80);
    // Folding: Enter on the results' splitter hides the hits; "← Results" brings them back. The outline folds from its button.
    await page.focus('.splitter-results');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('.results-pane') || getComputedStyle(document.querySelector('.results-pane')!).display === 'none');
    const codeWide = await width('.viewer .code');
    await page.click('.viewer-head button:has-text("Outline")');
    await page.waitForFunction(() => !document.querySelector('.outline'));
    expect(await width('.viewer .code')).toBeGreaterThan(codeWide);
    await webDemoShot(page, 'layout-folded-1440');
    await page.click('.viewer-head button:has-text("Outline")');
    await page.click('.back-to-results');
    await page.waitForSelector('.results-pane .hit');
    // Wrap: a line far wider than the code column is cut without it, wholly on screen with it.
    await page.keyboard.press('Control+p');
    await page.keyboard.type('WideLines');
    await page.waitForFunction(() => document.querySelector('.quick-list li.sel .qname')?.textContent === 'WideLines.cs');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.viewer .row[data-line="5"] .src');
    const overflow = () => page.$eval('.viewer .code', (c) => {
      const src = c.querySelector('.row[data-line="5"] .src')!.getBoundingClientRect();
      return src.right - c.getBoundingClientRect().right;
    });
    if (await page.getAttribute('.viewer-head button:has-text("Wrap")', 'aria-pressed') === 'true') await page.click('.viewer-head button:has-text("Wrap")');
    expect(await overflow()).toBeGreaterThan(100);
    await page.click('.viewer-head button:has-text("Wrap")');
    expect(await page.getAttribute('.viewer-head button:has-text("Wrap")', 'aria-pressed')).toBe('true');
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await page.$eval('.viewer .row[data-line="5"]', (e) => e.getBoundingClientRect().height)).toBeGreaterThan(40);
    await page.click('.viewer-head button:has-text("Wrap")');
  });

  it('follows the system theme; the toggle overrides it across a reload, code colours included', async () => {
    const colours = () => page.evaluate(() => ({
      bg: getComputedStyle(document.documentElement).backgroundColor,
      panel: getComputedStyle(document.querySelector('.viewer')!).backgroundColor,
      keyword: getComputedStyle(document.querySelector('.viewer .hljs-keyword')!).color,
    }));
    const dark = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return (r * 299 + g * 587 + b * 114) / 1000 < 80;
    };
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector('.viewer .hljs-keyword');
    const light = await colours();
    expect(dark(light.bg)).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    const sys = await colours();
    expect(dark(sys.bg)).toBe(true);
    expect(dark(sys.panel)).toBe(true);
    expect(sys.keyword).not.toBe(light.keyword);
    // The toggle's state follows the system through a media-query listener: polled, as the colours are not.
    await expect.poll(() => page.getAttribute('.theme-toggle', 'aria-pressed')).toBe('true');
    // The toggle picks light while the system is dark, and that choice outlives a reload.
    await page.click('.theme-toggle');
    expect(dark((await colours()).bg)).toBe(false);
    await page.reload();
    await page.waitForSelector('.viewer .hljs-keyword');
    expect(dark((await colours()).bg)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    // Toggling back to what the system says follows the system again.
    await page.click('.theme-toggle');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(dark((await colours()).bg)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(dark((await colours()).bg)).toBe(false);
  });

  it('a file tree: folders with file counts opened a level at a time, keyboard as the ARIA tree pattern, a filter, Enter opens a file', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/#/w/${WS}`);
    await page.waitForSelector('.results-pane .start-here');
    await page.click('.pane-tabs [role=tab]:text-is("Files")');
    await page.waitForSelector('[role=tree] [role=treeitem][data-path="src/"]');
    const item = (p: string) => `[role=tree] [role=treeitem][data-path="${p}"]`;
    // The root: its folders (with the files below each) and its own files add up to the index's files.
    const top = await page.$$eval('[role=tree] > [role=treeitem][aria-level="1"]', (els) =>
      els.map((e) => ({ path: (e as HTMLElement).dataset.path!, folder: e.hasAttribute('aria-expanded'), n: parseInt(e.querySelector('.tree-n')?.textContent ?? '', 10) })));
    const total = Number((await page.textContent('.tree-count'))!.replace(/[^\d]/g, ''));
    expect(total).toBe(Number((await page.textContent('.topbar .ws-current .muted'))!.replace(/[^\d]/g, '')));
    expect(top.filter((t) => t.folder).map((t) => t.path)).toEqual(['.github/', 'docs/', 'src/', 'tests/', 'tools/']);
    expect(top.filter((t) => t.folder).reduce((a, t) => a + t.n, 0) + top.filter((t) => !t.folder).length).toBe(total);
    // Keys: from the filter ↓ enters the tree; ↓ moves; → opens a folder, → again steps into it; ← steps out, ← closes.
    await page.focus('.tree-filter');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-path') === '.github/');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-path') === 'docs/');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-path') === 'src/');
    expect(await page.getAttribute(item('src/'), 'aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(item('src/Contoso.Shop.Application/'));
    expect(await page.getAttribute(item('src/'), 'aria-expanded')).toBe('true');
    expect(await page.getAttribute(item('src/Contoso.Shop.Application/'), 'aria-level')).toBe('2');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-path') === 'src/Contoso.Shop.Application/');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-path') === 'src/');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => !document.querySelector('[data-path="src/Contoso.Shop.Application/"]'));
    // One item is in the tab order.
    expect(await page.$$eval('[role=treeitem][tabindex="0"]', (els) => els.length)).toBe(1);
    // A filter shows the matching files under their folders; Enter opens one, which the tree marks.
    await page.fill('.tree-filter', 'pricingengine');
    await page.waitForSelector(item('tests/Contoso.Shop.Tests/PricingEngineTests.cs'));
    const files = await page.$$eval('[role=treeitem]:not([aria-expanded])', (els) => els.map((e) => (e as HTMLElement).dataset.path));
    expect(files).toEqual(['src/Contoso.Shop.Application/Pricing/PricingEngine.cs', 'tests/Contoso.Shop.Tests/PricingEngineTests.cs']);
    expect(await page.textContent('.tree-count')).toMatch(/^2 of \d+ files$/);
    await page.focus(item('src/Contoso.Shop.Application/Pricing/PricingEngine.cs'));
    await page.keyboard.press('Enter');
    await page.waitForSelector('.viewer .row .src');
    expect(page.url()).toContain('/f/src/Contoso.Shop.Application/Pricing/PricingEngine.cs');
    expect(await page.getAttribute(item('src/Contoso.Shop.Application/Pricing/PricingEngine.cs'), 'aria-selected')).toBe('true');
    await shot(page, 'tree-1440-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    // Typing a query goes back to the hits.
    await page.click('#search-input');
    await page.keyboard.type('Pricing');
    await page.waitForSelector('.results-pane .hit');
    expect(await page.getAttribute('.pane-tabs [role=tab]:text-is("Hits")', 'aria-selected')).toBe('true');
  });

  it('marks lines from the keyboard in the file: Alt+↓/↑ one line, Shift+↓/↑ a range around where it began, Shift+End to the end; the link and the highlight follow; the help lists the keys', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const file = 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs';
    await page.goto(`${server.url}/#/w/${WS}/f/${file}#L40`);
    await page.waitForSelector('.viewer .row.hl[data-line="40"]');
    const marked = () => page.$$eval('.viewer .row.hl', (rows) => rows.map((r) => Number(r.getAttribute('data-line'))));
    const linesInUrl = () => /#L(\d+(?:-\d+)?)$/.exec(decodeURIComponent(page.url()))?.[1];
    // The code region is in the tab order (tabIndex 0); focused, it takes the marking keys.
    await page.focus('.viewer .code');
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(linesInUrl).toBe('41');
    expect(await marked()).toEqual([41]);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(linesInUrl).toBe('41-43');
    expect(await marked()).toEqual([41, 42, 43]);
    // Past the anchor the range turns over: 41 stays, the free end goes to 40.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(linesInUrl).toBe('40-41');
    expect(await page.getAttribute('.viewer .code', 'aria-label')).toMatch(/lines 40–41 marked/);
    // Plain arrows still scroll (nothing marked changes).
    await page.keyboard.press('ArrowDown');
    expect(linesInUrl()).toBe('40-41');
    // Shift+End: from the anchor to the last line, whose row is then on screen.
    await page.keyboard.press('Shift+End');
    await expect.poll(linesInUrl).toBe('41-455');
    await expect
      .poll(() => page.$eval('.viewer .code', (c) => {
        const row = c.querySelector('[data-line="455"]')!.getBoundingClientRect();
        const box = c.getBoundingClientRect();
        return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
      }), { timeout: 10_000 }) // a long scroll: on a loaded machine it outlasted the default second
      .toBe(true);
    // A reload opens the same lines (the link is the mark).
    await page.reload();
    await page.waitForSelector('.viewer .row.hl[data-line="455"]');
    expect((await marked()).length).toBe(455 - 41 + 1);
    // The help (`?`, loaded when first opened) lists these keys.
    await page.focus('.viewer .code');
    await page.keyboard.press('?');
    expect(await (await page.waitForSelector('.popover.help')).textContent()).toMatch(/Shift-↓ \/ ↑.*Alt-↓ \/ ↑/s);
    await page.keyboard.press('Escape');
  });

  it('axe-core: no violation (of any impact) on home, results, file and conversation, light and dark, at 1440 and 390 px, nor on an indexing run\'s panel; screens saved', async () => {
    const found: Record<string, AxeViolation[]> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const w of [1440, 390]) {
        await page.setViewportSize({ width: w, height: w > 500 ? 900 : 844 });
        await page.goto(`${server.url}/#/w/${WS}`);
        await page.click('.pane-tabs [role=tab]:text-is("Hits")');
        await page.waitForSelector('.results-pane .start-here');
        await page.click('.topbar .brand');
        await page.waitForSelector('.home .ws-table');
        found[`home-${scheme}-${w}`] = await axeViolations(page);
        await shot(page, `home-${w}-${scheme}`);
        await page.click('.topbar .brand');
        await page.fill('#search-input', 'PricingEngine');
        await page.waitForSelector('.hit');
        await idle(page);
        await page.waitForSelector('.filters .chip-count');
        found[`results-${scheme}-${w}`] = await axeViolations(page);
        await shot(page, `results-${w}-${scheme}`);
        await page.click('.group:has(.file-head .name:text-is("PricingEngine.cs")) .hit');
        await page.waitForSelector('.viewer .row.hl .hljs-keyword');
        if (w > 500) {
          await page.click('button:has-text("Why this result?")');
          await page.waitForSelector('.explain dl');
        }
        found[`file-${scheme}-${w}`] = await axeViolations(page);
        await shot(page, `file-${w}-${scheme}`);
        if (w > 500) await page.click('.explain button[aria-label="Close"]');
        await page.click('#conversation-toggle');
        await page.waitForSelector('.conversation');
        found[`conversation-${scheme}-${w}`] = await axeViolations(page);
        await shot(page, `conversation-${w}-${scheme}`);
        await page.click('.conversation button[aria-label="Close conversation"]');
      }
    }
    if (DOCS_SHOTS) await contactSheet(page, DOCS_SHOTS);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    // A run's panel as it ends (its progress bar, the summary): a workspace of one file dropped on the
    // home screen, with no query (a query folds the panel to one line).
    await page.fill('#search-input', '');
    await page.click('.topbar .brand');
    await page.waitForSelector('.home .ws-table');
    await indexZip(page, 'axe-panel.zip', zipSync({ 'axe-panel/src/One.cs': new TextEncoder().encode('namespace One;\npublic class One { }\n') }));
    expect(await page.$('.index-panel:not(.compact) [role=progressbar]')).not.toBeNull();
    found['index-panel-light-1440'] = await axeViolations(page);
    const bad = Object.fromEntries(Object.entries(found).filter(([, v]) => v.length));
    expect(bad).toEqual({});
  }, 240_000);
});
