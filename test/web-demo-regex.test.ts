// The explorer's query modes (issue 18's "explorer regex toggle"), built and driven in headless
// Chromium: the sample workspace is indexed from a zip; the mode switch turns the search box into a
// regex (RE2) or exact-text search through the Worker's literal channel; each hit's match_lines are
// listed and those snippet lines stand out, checked line by line against the sample's own files; the
// case and whole-word switches change the answer; the mode lives in the URL and survives a reload.
// Screens are saved under test-output/web-demo/ (looked at, not compared).
// @lane browser
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO, type StaticServer } from './helpers/browser.ts';
import { openIndexed, sampleWorkspaceZip, searchSettled, webDemoShot, webDemoSuite } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();

const sample = path.join(REPO, 'test/sample-workspace');
const WS = 'regex-shop';
const REGEX = 'Get\\w+Async\\(';

const fileLines = (rel: string) => fs.readFileSync(path.join(sample, rel), 'utf8').split(/\r?\n/);

interface ShownHit {
  path: string;
  start: number;
  end: number;
  kind: string;
  listed: number[];
  snippet: Array<{ line: number; text: string; match: boolean; marks: string[] }>;
}

/** The hits as the page shows them: path, range, badge, the listed match lines and the snippet lines. */
function shownHits(page: Page): Promise<ShownHit[]> {
  return page.$$eval('.results .group', (groups) =>
    groups.flatMap((g) => {
      const p = `${g.querySelector('.file-head .dir')?.textContent ?? ''}${g.querySelector('.file-head .name')?.textContent ?? ''}`;
      return [...g.querySelectorAll('.hit')].map((h) => {
        const [start, end] = (h.querySelector('.lines')?.textContent ?? '').replace(/^L/, '').split('–').map(Number);
        const listed = (h.querySelector('.match-lines')?.textContent ?? '').replace(/^lines?\s*/, '').split(/[,\s]+/).filter((x) => /^\d+$/.test(x)).map(Number);
        return {
          path: p,
          start,
          end,
          kind: h.querySelector('.hit-head .badge')?.textContent ?? '',
          listed,
          snippet: [...h.querySelectorAll('.snip-line')].map((l) => ({
            line: Number((l as HTMLElement).dataset.line),
            text: l.querySelector('.snip-n')?.nextSibling ? (l.textContent ?? '').slice((l.querySelector('.snip-n')?.textContent ?? '').length) : (l.textContent ?? ''),
            match: l.classList.contains('match'),
            marks: [...l.querySelectorAll('mark')].map((m) => m.textContent ?? ''),
          })),
        };
      });
    }),
  );
}

/** The status of the current query's final answer (the whole page in, nothing on its way). */
async function settled(page: Page): Promise<string> {
  await searchSettled(page);
  return (await page.textContent('.statusline .badge')) ?? '';
}

describe.skipIf(!chromium)(titled('web-demo: regex and exact-text modes (match_lines highlighted)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let page: Page;

  webDemoSuite(chromium, 'regex', async (demo) => {
    ({ server, page } = demo);
    await openIndexed(demo, WS, sampleWorkspaceZip(WS));
  });

  it('a regex lists each hit\'s matching lines and marks them in the snippet, as the files say', async () => {
    // Before: words mode, the case and word switches are off and disabled.
    expect(await page.getAttribute('.mode-switch [data-mode=keyword]', 'aria-pressed')).toBe('true');
    expect(await page.isDisabled('.mode-switch [data-opt=case]')).toBe(true);
    await page.click('.mode-switch [data-mode=regex]');
    expect(await page.isDisabled('.mode-switch [data-opt=case]')).toBe(false);
    await page.click('#search-input');
    await page.keyboard.type(REGEX, { delay: 20 });
    expect(await settled(page)).toBe('ok');
    expect(await page.textContent('.searchbar .mode')).toBe('regex');
    // The URL takes the query once typing pauses.
    await page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, REGEX);
    const url = new URL(page.url());
    expect(url.searchParams.get('mode')).toBe('regex');
    expect(url.searchParams.get('q')).toBe(REGEX);

    const hits = await shownHits(page);
    expect(hits.length).toBeGreaterThan(3);
    const re = new RegExp(REGEX, 'i');
    let highlighted = 0;
    for (const h of hits) {
      expect(h.kind).toBe('text_literal');
      // The listed lines are exactly the lines of the hit's range that match, in the file itself.
      const lines = fileLines(h.path);
      const expected: number[] = [];
      for (let n = h.start; n <= h.end; n++) if (re.test(lines[n - 1] ?? '')) expected.push(n);
      expect(h.listed.slice(0, 12), `${h.path}:${h.start}-${h.end}`).toEqual(expected.slice(0, 12));
      for (const s of h.snippet) {
        if (!Number.isFinite(s.line)) continue;
        // A snippet line stands out exactly when it is one of the match lines...
        expect(s.match, `${h.path}:${s.line} ${s.text}`).toBe(expected.includes(s.line));
        expect(re.test(lines[s.line - 1] ?? '')).toBe(s.match);
        // ...and what is marked in it is what the regex matches.
        if (s.match) {
          highlighted++;
          expect(s.marks.length).toBeGreaterThan(0);
          for (const m of s.marks) expect(m).toMatch(new RegExp(`^${REGEX}$`, 'i'));
        }
      }
    }
    expect(highlighted).toBeGreaterThan(3);
    expect(await page.$$eval('.snip-line.match', (els) => els.length)).toBe(highlighted);
    await webDemoShot(page, 'regex-01-match-lines');
  });

  it('exact text finds punctuation and parts of identifiers; case and whole words change the answer', async () => {
    await page.click('.mode-switch [data-mode=literal]');
    await page.fill('#search-input', 'productbyidasync(');
    expect(await settled(page)).toBe('ok');
    expect(await page.textContent('.searchbar .mode')).toBe('literal');
    const loose = await shownHits(page);
    expect(loose.length).toBeGreaterThan(0);
    for (const h of loose) {
      expect(h.listed.length).toBeGreaterThan(0);
      for (const n of h.listed) expect(fileLines(h.path)[n - 1].toLowerCase()).toContain('productbyidasync(');
    }
    expect(await page.$$eval('.snip-line.match mark', (els) => els.every((e) => e.textContent?.toLowerCase() === 'productbyidasync('))).toBe(true);
    await webDemoShot(page, 'regex-02-literal');

    // Match case: the lower-case text is nowhere.
    await page.click('.mode-switch [data-opt=case]');
    expect(await settled(page)).toBe('empty');
    expect(new URL(page.url()).searchParams.get('case')).toBe('1');
    expect(await page.textContent('.statusline .hint')).toBeTruthy();
    await page.fill('#search-input', 'ProductByIdAsync(');
    expect(await settled(page)).toBe('ok');
    expect((await shownHits(page)).length).toBe(loose.length);

    // Whole words: "ProductById" inside GetProductByIdAsync is not a word of its own.
    await page.fill('#search-input', 'ProductById');
    expect(await settled(page)).toBe('ok');
    await page.click('.mode-switch [data-opt=word]');
    expect(await settled(page)).toBe('empty');
    await webDemoShot(page, 'regex-03-whole-word-empty');
  });

  it('the mode, case and whole-word switches live in the URL and survive a reload', async () => {
    await page.click('.mode-switch [data-opt=word]'); // whole words off again
    await page.click('.mode-switch [data-mode=regex]');
    await page.fill('#search-input', 'Task<\\w+\\?>');
    expect(await settled(page)).toBe('ok');
    const before = await shownHits(page);
    expect(before.every((h) => h.listed.length > 0)).toBe(true);
    // A permalink names the workspace; the query and its mode come from ?q=…&mode=…&case=1.
    const link = new URL(page.url());
    link.hash = `#/w/${WS}`;
    await page.goto(link.href);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    expect(await settled(page)).toBe('ok');
    expect(await page.getAttribute('.mode-switch [data-mode=regex]', 'aria-pressed')).toBe('true');
    expect(await page.getAttribute('.mode-switch [data-opt=case]', 'aria-pressed')).toBe('true');
    expect(await page.inputValue('#search-input')).toBe('Task<\\w+\\?>');
    expect((await shownHits(page)).map((h) => `${h.path}:${h.start}`)).toEqual(before.map((h) => `${h.path}:${h.start}`));
    // Back to words: the request has no mode, the URL neither, and hits are keyword hits again.
    await page.click('.mode-switch [data-mode=keyword]');
    await page.fill('#search-input', 'PricingEngine');
    expect(await settled(page)).toBe('ok');
    expect(new URL(page.url()).searchParams.get('mode')).toBeNull();
    expect(new URL(page.url()).searchParams.get('case')).toBeNull();
    expect(await page.$$eval('.hit-head .badge', (els) => els.every((e) => e.textContent === 'text_fts'))).toBe(true);
    await webDemoShot(page, 'regex-04-after-reload');
  });
});
