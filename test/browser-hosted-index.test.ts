// A published index (`hci pack`) read over HTTP ranges in a real browser (issue 37 / 36): the sample
// workspace is indexed and packed under Node, a real HTTP server on 127.0.0.1 (another origin, with
// CORS) serves the packed file, and headless Chromium opens it by its URL — the browser runtime's
// Worker reads pages with synchronous XMLHttpRequests (runtimes/browser/xhr-reader.ts), stores
// nothing in OPFS and answers search, explain and outline as the local index does; indexing and
// export are not_available; a server without ranges, a 404 and a file that is no index are
// structured errors. Then the explorer: a link with ?index=<url> opens the index with no upload,
// named by its manifest, reading a part of the file (not every page), and its hits are the local index's; a URL typed on the workspaces screen
// opens the same way and its last place is offered there; a host without ranges is a plain notice.
// @lane browser
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import { openSamplePage, call, callError, REPO, type SamplePage } from './helpers/browser.ts';
import { startWebDemo, searchIdle, type WebDemo } from './helpers/web-demo.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';

const chromium = chromiumBinary();
const sample = path.join(REPO, 'test/sample-workspace');
const QUERIES = ['CatalogService', 'GetAsync', 'order total discount', 'appsettings connection string', '"public async Task"', 'IRepository<T>'];
/** A host on another origin that allows any page: the range request and the headers the reader reads. */
const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Range', 'Access-Control-Expose-Headers': 'Content-Range, ETag' };

const hitsOf = (r: { hits: Array<Record<string, unknown>> }) => r.hits.map((h) => ({ id: h.hit_id, path: h.path, lines: [h.start_line, h.end_line], score: h.score, kind: h.hit_kind, symbol: h.symbol }));

describe.skipIf(!chromium)(titled('a published index read over HTTP ranges in the browser (headless Chromium)', { Chromium: chromium }), () => {
  let root: string;
  let out: string;
  let ranged: RangeServer;
  let plain: RangeServer;
  let local: HciService;

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-hosted-');
    out = tmpDir('hci-hosted-out-');
    const ws = await openWorkspace(root);
    await ws.index();
    await ws.pack(nodePackTarget(path.join(out, 'index.sqlite')), { fileName: 'index.sqlite', pageSize: 4096, repository: 'contoso/shop' });
    ws.close();
    ranged = await startRangeServer(out, { headers: CORS });
    plain = await startRangeServer(out, { headers: CORS, ranges: false });
    local = new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
  }, 120_000);

  afterAll(async () => {
    await local?.close();
    await ranged?.close();
    await plain?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  describe('the browser runtime (test page, module Worker)', () => {
    let test: SamplePage | undefined;
    let page: Page;

    beforeAll(async () => {
      test = await openSamplePage(chromium);
      page = test.page;
    }, 120_000);

    afterAll(async () => {
      await test?.close();
    });

    it('opens the index by its URL (nothing in OPFS) and answers search, explain and outline as the local index', async () => {
      const url = ranged.url('index.sqlite');
      ranged.reset();
      const info = await call(page, 'openIndex', 'hosted', url);
      expect(info).toMatchObject({ has_index: true, has_source: false, index: url, location: url });
      let answered = 0;
      for (const query of QUERIES) {
        const [a, b] = await Promise.all([local.call('search', { query, limit: 10 }), call(page, 'search', 'hosted', { query, limit: 10 })]);
        expect(b.status, query).toBe(a.status);
        expect(hitsOf(b as never), query).toEqual(hitsOf(a));
        if (a.hits.length) answered++;
      }
      expect(answered).toBeGreaterThanOrEqual(QUERIES.length - 1);
      const first = (await local.call('search', { query: 'CatalogService', limit: 3 })).hits[0];
      const [ea, eb] = await Promise.all([local.call('explain', { hit_id: first.hit_id, query: 'CatalogService' }), call(page, 'verb', 'hosted', 'explain', { hit_id: first.hit_id, query: 'CatalogService' })]);
      expect(eb.status).toBe('ok');
      expect({ ...eb, index: undefined }).toEqual({ ...ea, index: undefined });
      const [oa, ob] = await Promise.all([local.call('outline', { path: first.path }), call(page, 'outline', 'hosted', first.path)]);
      expect(ob.symbols).toEqual(oa.symbols);
      // Read in ranges from the host, none of it whole; nothing of it in this browser's storage.
      expect(ranged.stats.ranges).toBeGreaterThan(1);
      expect(ranged.stats.full).toBe(0);
      expect(ranged.stats.bytes).toBeLessThan(fs.statSync(path.join(out, 'index.sqlite')).size);
      expect((await call(page, 'list')).map((w) => w.workspace)).not.toContain('hosted');
    });

    it('is read-only: indexing and export answer not_available; status says read_only', async () => {
      expect((await callError(page, 'index', 'hosted'))?.code).toBe('not_available');
      expect((await callError(page, 'exportIndex', 'hosted'))?.code).toBe('not_available');
      const status = await call(page, 'status', 'hosted');
      expect(status.status).not.toBe('error');
      expect(status.index).toMatchObject({ files: (await local.call('status', {})).index?.files, read_only: true, pending_changes: null });
    });

    it('answers a host without ranges, a 404 and a file that is no index with structured errors', async () => {
      plain.reset();
      const noRanges = await callError(page, 'openIndex', 'plain', plain.url('index.sqlite'));
      expect(noRanges?.code).toBe('remote_no_ranges');
      expect(noRanges?.message).toMatch(/does not serve byte ranges/);
      expect(plain.stats.full).toBe(1);
      const missing = await callError(page, 'openIndex', 'missing', ranged.url('nothing-here.sqlite'));
      expect(missing?.code).toBe('remote_unreachable');
      expect(missing?.message).toMatch(/HTTP 404/);
      const notIndex = await callError(page, 'openIndex', 'manifest', ranged.url('index.sqlite.json'));
      expect(notIndex?.code).toBe('index_unrecognized');
      // The Worker is fine after them: the index opened before still answers.
      expect((await call(page, 'search', 'hosted', { query: 'CatalogService', limit: 1 })).hits.length).toBe(1);
    });
  });

  describe('the explorer: ?index=<url>', () => {
    let demo: WebDemo;

    beforeAll(async () => {
      demo = await startWebDemo(chromium);
    }, 180_000);

    afterAll(async () => {
      await demo?.close();
    });

    /** The hits on screen, in order: `path:start-end`. */
    const shownHits = (page: Page) =>
      page.$$eval('.results .group', (groups) =>
        groups.flatMap((g) => {
          const file = `${g.querySelector('.file-head .dir')?.textContent ?? ''}${g.querySelector('.file-head .name')?.textContent ?? ''}`;
          return [...g.querySelectorAll('.hit .lines')].map((l) => `${file}:${(l.textContent ?? '').replace(/^L/, '').replace('–', '-')}`);
        }),
      );

    it('opens a hosted index from the link with no upload, and shows the local index\'s hits', async () => {
      const page = demo.page;
      const url = ranged.url('index.sqlite');
      ranged.reset();
      await page.goto(`${demo.server.url}/?index=${encodeURIComponent(url)}`);
      await page.waitForSelector('#search-input:not([disabled])', { timeout: 60_000 });
      // Named by the manifest beside the file; read-only, no re-index.
      await expect.poll(() => page.textContent('.ws-current')).toMatch(/contoso\/shop.*hosted, read-only/);
      // Opening reads a part of the file, not all of it (the status page check and a regex search
      // for the start screen's examples each read every page: a whole download over HTTP).
      await page.waitForSelector('.start-here .examples .example');
      await page.waitForTimeout(500);
      expect(ranged.stats.bytes).toBeLessThan(fs.statSync(path.join(out, 'index.sqlite')).size / 2);
      for (const query of ['CatalogService', 'order total discount', 'appsettings connection string']) {
        await page.fill('#search-input', query);
        await page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, query);
        await searchIdle(page);
        await expect.poll(() => shownHits(page), { timeout: 20_000 }).not.toEqual([]);
        const shown = await shownHits(page);
        const expected = (await local.call('search', { query, limit: 50 })).hits.map((h) => `${h.path}:${h.start_line}-${h.end_line}`);
        // The first file's first hit is the local index's best, and every hit shown is one of the local index's.
        expect(shown[0], query).toBe(expected[0]);
        for (const h of shown) expect(expected, `${query}: ${h}`).toContain(h);
      }
      // The link keeps naming the index, so it opens the same way anywhere.
      expect(new URL(page.url()).searchParams.get('index')).toBe(url);
    });

    it('opens a URL typed on the workspaces screen; after a file was opened there, the screen offers to go back to it', async () => {
      const page = demo.page;
      const url = ranged.url('index.sqlite');
      await page.goto(`${demo.server.url}/`);
      await page.waitForSelector('html[data-ready="true"]');
      await page.fill('#hosted-url', url);
      await page.click('.hosted-form button[type=submit]');
      await expect.poll(() => page.textContent('.ws-current'), { timeout: 60_000 }).toMatch(/contoso\/shop/);
      expect(new URL(page.url()).searchParams.get('index')).toBe(url);
      await page.fill('#search-input', 'CatalogService');
      await searchIdle(page);
      await page.click('.results .group .hit');
      await page.waitForSelector('.viewer .row.hl');
      const opened = decodeURIComponent(new URL(page.url()).hash);
      expect(opened).toMatch(/^#\/w\/contoso\/shop\/f\/src\/.+#L\d+/);
      // A fresh page: the hosted index's last place is offered, and it opens from its link alone.
      await page.goto(`${demo.server.url}/`);
      const resume = await page.waitForSelector('.resume a:has-text("contoso/shop")');
      await resume.click();
      await page.waitForSelector('.viewer .row.hl');
      expect(decodeURIComponent(new URL(page.url()).hash)).toBe(opened);
      expect(new URL(page.url()).searchParams.get('index')).toBe(url);
    });

    it('says in plain words when the host does not serve ranges', async () => {
      const page = demo.page;
      await page.goto(`${demo.server.url}/?index=${encodeURIComponent(plain.url('index.sqlite'))}`);
      const notice = await page.waitForSelector('.notice.error', { timeout: 60_000 });
      expect(await notice.textContent()).toMatch(/does not serve byte ranges.*publish the index on a host that answers HTTP range requests/s);
    });
  });
});
