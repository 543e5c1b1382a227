// The browser runtime in a real browser: headless Chromium loads a Vite build of test/browser, whose
// module Worker runs the core with its index on OPFS (opfs-sahpool). Covers the three file sources
// (zip, <input webkitdirectory>, a directory handle), progress and cancel over comlink, reloads,
// a second tab, separate workspaces, the index file crossing between the browser and Node, and
// searches in a lane (a newer one drops those still waiting).
// @lane browser
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SearchHit, SearchResponse } from '../core/search/contract.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import type { TreeResponse } from '../core/contract/tree.ts';
import { GRAMMARS } from '../core/languages/grammars.ts';
import { buildTestPage, serveStatic, launchChromium, zipFolder, listFiles, call, callError, ready, REPO, type BrowserSession, type StaticServer } from './helpers/browser.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const SQLITE3 = '/usr/bin/sqlite3';

/** What must be identical wherever a search runs. */
const essentials = (hits: SearchHit[]) => hits.map((h) => ({ rank: h.rank, path: h.path, start_line: h.start_line, end_line: h.end_line, score: h.score, hit_kind: h.hit_kind, hit_id: h.hit_id }));

/** The workspace's `hci/<key>.json` in the page's OPFS (its name, summary and page-check record). */
async function readWorkspaceMeta(page: BrowserSession['page'], key: string): Promise<{ workspace?: string; health?: string }> {
  return page.evaluate(async (k) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('hci');
    return JSON.parse(await (await (await dir.getFileHandle(`${k}.json`)).getFile()).text());
  }, key);
}

const chromium = chromiumBinary();
describe.skipIf(!chromium)(titled('browser runtime (headless Chromium, module Worker, OPFS)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let session: BrowserSession;
  const tmp: string[] = [];
  let sampleFileCount = 0;

  beforeAll(async () => {
    // Chromium starts while Vite builds the page.
    const [out, launched] = await Promise.all([buildTestPage(), launchChromium(chromium)]);
    tmp.push(out);
    session = launched;
    server = await serveStatic(out);
    server.put('/fixtures/sample.zip', zipFolder(sample));
    sampleFileCount = listFiles(sample).length;
    await session.open(server.url);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('indexes a .zip into OPFS with progress callbacks, searches, explains; a reload keeps the index', async () => {
    const page = session.page;
    const opened = await call(page, 'openZip', 'zip-ws', '/fixtures/sample.zip');
    expect(opened).toMatchObject({ has_index: false, has_source: true });
    expect(opened.location).toMatch(/^opfs:\/hci\/zip-ws-[0-9a-z]+\/index\.sqlite$/);

    const run = await call(page, 'index', 'zip-ws');
    expect(run.summary.files_indexed).toBeGreaterThan(50);
    expect(run.summary.files_scanned).toBe(run.summary.files_indexed);
    expect(run.phases).toEqual(['scan', 'index', 'done']);
    expect(run.reports).toBeGreaterThanOrEqual(3);

    const res = await call(page, 'search', 'zip-ws', { query: 'CatalogService' });
    expect(res.status).toBe('ok');
    expect(res.hits[0].path).toBe('src/Contoso.Shop.Application/Catalog/CatalogService.cs');
    expect(res.index?.location).toBe(opened.location);
    // Keystrokes' searches sent at once in one lane (protocol 6) while the Worker runs a search (the
    // regex, in no lane: the calls after it are all waiting when it ends): only the newest of the lane
    // runs, the others answer `superseded` unrun; a call in another lane, or in none, runs whatever comes after it.
    const typed = await call(page, 'searchLanes', 'zip-ws', [
      { req: { query: '\\w+Service\\b', mode: 'regex' }, lane: null },
      { req: { query: 'Cat' }, lane: 'typing' },
      { req: { query: 'Catalog' }, lane: null },
      { req: { query: 'Catalo' }, lane: 'typing' },
      { req: { query: 'Catalog' }, lane: 'other' },
      { req: { query: 'CatalogService' }, lane: 'typing' },
    ]);
    expect(typed.map((t) => (t === 'superseded' ? t : t.query))).toEqual(['\\w+Service\\b', 'superseded', 'Catalog', 'superseded', 'Catalog', 'CatalogService']);
    expect(typed[5]).toEqual({ query: 'CatalogService', first: res.hits[0].path });
    // Exact text through the Worker (protocol 4): a regex, with the lines it matched.
    const re = await call(page, 'search', 'zip-ws', { query: 'Get\\w+Async\\(', mode: 'regex', case_sensitive: true });
    expect(re).toMatchObject({ status: 'ok', mode: 'regex' });
    expect(re.hits[0]).toMatchObject({ hit_kind: 'text_literal', match_lines: expect.arrayContaining([expect.any(Number)]) });
    const why = await call(page, 'explain', 'zip-ws', res.hits[0].hit_id);
    expect(why.status).toBe('ok');
    expect(why.explanation?.rank).toBe(1);
    const outline = await call(page, 'outline', 'zip-ws', 'src/Contoso.Shop.Application/Catalog/CatalogService.cs');
    expect(outline.status).toBe('ok');
    // A verb through the Worker's one call() with the contract's request: the tree of the same files, as Node's service answers it.
    const node = new HciService({ root: copyWorkspace(sample, 'hci-browser-tree-'), host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    tmp.push(node.root);
    try {
      await node.index();
      for (const folder of ['', 'src/', 'tests/Contoso.Shop.Tests']) {
        const inWorker = (await call(page, 'verb', 'zip-ws', 'tree', { folder })) as TreeResponse;
        const inNode = await node.call('tree', { folder });
        expect(inWorker.status).toBe('ok');
        expect({ ...inWorker, index: null }).toEqual({ ...inNode, index: null });
      }
    } finally {
      await node.close();
    }
    const before = await call(page, 'status', 'zip-ws');
    expect(before.index?.build_state).toBe('complete');
    // SQLite's page check found the file sound: its record (the header's stamp) is kept in OPFS.
    const key = /^opfs:\/hci\/([^/]+)\//.exec(opened.location)![1];
    const health = async () => ((await readWorkspaceMeta(page, key)).health ?? null) as string | null;
    await expect.poll(health).toMatch(/"sound":"[0-9A-F]{40}"/);
    const checked = await health();

    // Reload: a new Worker, the same OPFS. The index is there; nothing is indexed again.
    await page.reload();
    await ready(page);
    const again = await call(page, 'openStored', 'zip-ws');
    expect(again).toMatchObject({ has_index: true, has_source: false, location: opened.location });
    const after = await call(page, 'status', 'zip-ws');
    // The same bytes are not checked again after the reload (a check writes a new checked_at).
    expect(await health()).toBe(checked);
    expect(after.status).toBe('ok');
    expect(after.index?.generation).toBe(before.index?.generation);
    expect(after.index?.indexed_at).toBe(before.index?.indexed_at);
    expect(after.last_run).toEqual(before.last_run);
    const res2 = await call(page, 'search', 'zip-ws', { query: 'CatalogService' });
    expect(essentials(res2.hits)).toEqual(essentials(res.hits));
    // Without its files the stored index is searchable but cannot be updated, and says why.
    const noSource = await callError(page, 'index', 'zip-ws');
    expect(noSource).toMatchObject({ code: 'no_source' });
    expect(noSource?.hint).toMatch(/source/);
  });

  it('answers a second tab on the same workspace with workspace_open_elsewhere, not a crash', async () => {
    const page2 = await session.newPage();
    try {
      const err = await callError(page2, 'openStored', 'zip-ws', 300);
      expect(err).toMatchObject({ code: 'workspace_open_elsewhere' });
      expect(err?.message).toMatch(/another tab/);
      expect(err?.hint).toMatch(/close it there/);
      // Other workspaces are not affected.
      expect(await call(page2, 'openStored', 'second-tab-own-ws')).toMatchObject({ has_index: false });
      // Once the first tab lets go, the second one can open and search it.
      await call(session.page, 'close', 'zip-ws');
      const opened = await call(page2, 'openStored', 'zip-ws');
      expect(opened.has_index).toBe(true);
      expect((await call(page2, 'search', 'zip-ws', { query: 'CatalogService' })).status).toBe('ok');
      await call(page2, 'close', 'zip-ws');
      await call(page2, 'remove', 'second-tab-own-ws');
    } finally {
      await page2.close();
    }
    expect((await call(session.page, 'openStored', 'zip-ws')).has_index).toBe(true);
  });

  it('indexes the files of an <input webkitdirectory> into its own OPFS area', async () => {
    const page = session.page;
    const folder = copyWorkspace(path.join(sample, 'src/Contoso.Shop.Web'), 'hci-picked-');
    tmp.push(folder);
    await page.setInputFiles('#folder', folder);
    const opened = await call(page, 'openPickedFolder', 'picked-ws');
    expect(opened.picked).toBe(listFiles(folder).length);
    const run = await call(page, 'index', 'picked-ws');
    expect(run.summary.files_indexed).toBeGreaterThan(10);
    const res = await call(page, 'search', 'picked-ws', { query: 'ProductDetails' });
    expect(res.status).toBe('ok');
    // Paths are relative to the picked folder (its own name is not part of them).
    expect(res.hits.every((h) => !h.path.startsWith('Contoso.Shop.Web/') && !h.path.startsWith('hci-picked-'))).toBe(true);
    expect(res.hits.map((h) => h.path)).toContain('Components/Pages/ProductDetails.razor.cs');

    const list = await call(page, 'list');
    const names = list.map((w) => w.workspace);
    expect(names).toEqual(expect.arrayContaining(['zip-ws', 'picked-ws']));
    const keys = new Set(list.map((w) => w.key));
    expect(keys.size).toBe(list.length);
    // Each workspace has its own index: the zip workspace knows files the picked one does not.
    expect((await call(page, 'search', 'picked-ws', { query: 'CatalogReadDbContext' })).hits.some((h) => h.path.includes('Contoso.Shop.Application'))).toBe(false);
    expect((await call(page, 'search', 'zip-ws', { query: 'CatalogReadDbContext' })).status).toBe('ok');

    await call(page, 'remove', 'picked-ws');
    expect((await call(page, 'list')).map((w) => w.workspace)).not.toContain('picked-ws');
    expect((await call(page, 'search', 'zip-ws', { query: 'CatalogService' })).status).toBe('ok');
  });

  it('re-indexes a directory handle incrementally (changed, added, deleted files) and cancels a run', async () => {
    const page = session.page;
    expect(await call(page, 'makeOpfsFolder', 'dir1', '/fixtures/sample.zip')).toBe(sampleFileCount);
    await call(page, 'openOpfsFolder', 'dir-ws', 'dir1');
    const first = await call(page, 'index', 'dir-ws');
    const n = first.summary.files_indexed;
    expect(n).toBeGreaterThan(50);

    const unchanged = await call(page, 'index', 'dir-ws');
    expect(unchanged.summary).toMatchObject({ files_indexed: 0, files_unchanged: n, files_removed: 0 });

    expect((await call(page, 'search', 'dir-ws', { query: 'getting started' })).hits.map((h) => h.path)).toContain('docs/getting-started.md');
    await call(page, 'editOpfsFolder', 'dir1', {
      write: {
        'README.md': `${fs.readFileSync(path.join(sample, 'README.md'), 'utf8')}\nThe QuokkaLantern feature flag lives here.\n`,
        'src/Contoso.Shop.Domain/Zebra.cs': 'namespace Contoso.Shop.Domain;\n\npublic sealed class ZebraCrossingPolicy\n{\n    public bool Allows(int hour) => hour < 22;\n}\n',
      },
      remove: ['docs/getting-started.md'],
    });
    const pending = await call(page, 'status', 'dir-ws', true);
    expect(pending.pending).toEqual({ added: 1, modified: 1, deleted: 1 });
    const inc = await call(page, 'index', 'dir-ws');
    expect(inc.summary).toMatchObject({ files_indexed: 2, files_removed: 1, files_unchanged: n - 2 });
    expect((await call(page, 'search', 'dir-ws', { query: 'QuokkaLantern' })).hits[0]?.path).toBe('README.md');
    expect((await call(page, 'search', 'dir-ws', { query: 'ZebraCrossingPolicy' })).hits[0]?.path).toBe('src/Contoso.Shop.Domain/Zebra.cs');
    expect((await call(page, 'search', 'dir-ws', { query: 'getting started' })).hits.map((h) => h.path)).not.toContain('docs/getting-started.md');

    // Cancel from a progress callback: the run stops with `cancelled`, the next run completes.
    expect(await call(page, 'indexAndCancel', 'dir-ws')).toEqual({ code: 'cancelled' });
    const resumed = await call(page, 'index', 'dir-ws');
    expect(resumed.summary.files_scanned).toBe(n);
    expect((await call(page, 'status', 'dir-ws')).index?.build_state).toBe('complete');
    await call(page, 'remove', 'dir-ws');
  });

  it('exports an index file Node and sqlite3 open, and imports a Node-built file', async () => {
    const page = session.page;
    const query = { query: 'discount applied order', limit: 10 };
    const fromBrowser = await call(page, 'search', 'zip-ws', query);
    expect(fromBrowser.status).toBe('ok');

    // Browser → Node: the exported bytes are a plain SQLite file in hci's format.
    const exported = Buffer.from(await call(page, 'exportIndex', 'zip-ws'), 'base64');
    expect(exported.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    const ws1 = copyWorkspace(sample, 'hci-exported-');
    tmp.push(ws1);
    fs.mkdirSync(path.join(ws1, '.hci'));
    fs.writeFileSync(path.join(ws1, '.hci/index.sqlite'), exported);
    expect(execFileSync(SQLITE3, [path.join(ws1, '.hci/index.sqlite'), 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim()).toBe('ok');
    const nodeWs = await openWorkspace(ws1);
    try {
      const fromNode = await nodeWs.search(query);
      expect(essentials(fromNode.hits)).toEqual(essentials(fromBrowser.hits));
      // Node can keep the exported index up to date: nothing changed, so nothing is re-read.
      const s = await nodeWs.index();
      expect(s.files_indexed).toBe(0);
    } finally {
      nodeWs.close();
    }

    // Node → browser: a Node-built index file (of one project, to keep the test fast), imported
    // into a new OPFS workspace.
    const ws2 = copyWorkspace(path.join(sample, 'src/Contoso.Shop.Web'), 'hci-nodebuilt-');
    tmp.push(ws2);
    const built = await openWorkspace(ws2);
    const webQuery = { query: 'CatalogService', limit: 10 };
    let expected: SearchResponse;
    try {
      await built.index();
      expected = await built.search(webQuery);
      expect(expected.hits.length).toBeGreaterThan(1);
    } finally {
      built.close();
    }
    server.put('/fixtures/node-index.sqlite', fs.readFileSync(path.join(ws2, '.hci/index.sqlite')));
    server.put('/fixtures/not-an-index.sqlite', new TextEncoder().encode('this is not a database '.repeat(64)));
    await call(page, 'openStored', 'imported-ws');
    const st = await call(page, 'importIndex', 'imported-ws', '/fixtures/node-index.sqlite');
    expect(st).toMatchObject({ status: 'ok', index: { build_state: 'complete', location: expect.stringMatching(/^opfs:/) } });
    const fromImport = await call(page, 'search', 'imported-ws', webQuery);
    expect(essentials(fromImport.hits)).toEqual(essentials(expected.hits));
    // A file that is not an index is refused, and the imported one stays.
    const bad = await callError(page, 'importIndex', 'imported-ws', '/fixtures/not-an-index.sqlite');
    expect(bad).toMatchObject({ code: 'index_unrecognized' });
    expect(essentials((await call(page, 'search', 'imported-ws', webQuery)).hits)).toEqual(essentials(expected.hits));
    // The same file with a b-tree page garbled: its header (the page check's stamp) is the one found
    // sound at the import above, yet an imported file is checked again, and refused.
    const damagedCopy = fs.readFileSync(path.join(ws2, '.hci/index.sqlite'));
    const pageSize = damagedCopy.readUInt16BE(16) === 1 ? 65536 : damagedCopy.readUInt16BE(16);
    const leaves = Array.from({ length: damagedCopy.length / pageSize }, (_, i) => i).filter((i) => i > 0 && damagedCopy[i * pageSize] === 13);
    const at = leaves[Math.floor(leaves.length / 2)] * pageSize;
    damagedCopy.fill(0xff, at, at + 12);
    server.put('/fixtures/node-index-damaged.sqlite', damagedCopy);
    expect(await callError(page, 'importIndex', 'imported-ws', '/fixtures/node-index-damaged.sqlite')).toMatchObject({ code: 'index_corrupt' });
    expect(essentials((await call(page, 'search', 'imported-ws', webQuery)).hits)).toEqual(essentials(expected.hits));
    await call(page, 'remove', 'imported-ws');
  });

  it('parses a pass over many files in its parse worker, cutting the same chunks as Node; new indexes get 64 KiB pages', async () => {
    const page = session.page;
    // More files than the core's POOL_MIN_FILES (200): C# classes with members, and AXAML views.
    const dir = tmpDir('hci-pool-');
    tmp.push(dir);
    for (let i = 0; i < 230; i++) {
      const members = Array.from({ length: 4 }, (_, k) => `    public int Compute${k}(int x)\n    {\n        return x * ${i + k};\n    }\n`).join('\n');
      fs.mkdirSync(path.join(dir, `src/M${i % 9}`), { recursive: true });
      fs.writeFileSync(path.join(dir, `src/M${i % 9}/Service${i}.cs`), `namespace Pool.M${i % 9};\n\npublic class Service${i}\n{\n${members}}\n`);
      if (i % 10 === 0) fs.writeFileSync(path.join(dir, `src/M${i % 9}/View${i}.axaml`), `<UserControl xmlns="https://github.com/avaloniaui">\n  <StackPanel>\n    <TextBlock Text="View ${i}" />\n  </StackPanel>\n</UserControl>\n`);
    }
    server.put('/fixtures/pool.zip', zipFolder(dir, 'pool'));
    await call(page, 'openZip', 'pool-ws', '/fixtures/pool.zip');
    // The parse worker of a first pass is started before the pass (parse-pool.ts warm()) and is the
    // one its pool uses: one worker for the pass, gone when it ends. Counted as the Worker reports
    // them: Playwright lists a nested worker only once it runs, and one warmed for a short pass and
    // ended with it may never have run (missed 2 of 3 times under load).
    const life = async () => call(page, 'parseWorkerLife');
    const before = (await life()).length;
    const { summary } = await call(page, 'index', 'pool-ws');
    await expect.poll(async () => (await life()).slice(before), { timeout: 5000 }).toEqual(['started', 'ended']);
    expect(summary.files_indexed).toBe(253);
    expect(summary.prepared_in_worker).toBe(summary.files_indexed);
    expect(summary.parse_fallback).toBe(0);
    const hit = (await call(page, 'search', 'pool-ws', { query: 'Service117 Compute2', limit: 3 })).hits[0];
    expect(hit).toMatchObject({ path: 'src/M0/Service117.cs', symbol: { name: 'Service117' } }); // a symbol: tree-sitter cut it

    // The same chunks, file by file, as Node cuts them from the same files.
    const chunkRows = (db: string) =>
      execFileSync(SQLITE3, [db, 'SELECT f.path, c.ordinal, c.start_line, c.end_line, c.kind, c.symbol_kind, c.symbol_name FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY f.path, c.ordinal'], { encoding: 'utf8' });
    const exported = path.join(dir, 'browser.sqlite');
    fs.writeFileSync(exported, Buffer.from(await call(page, 'exportIndex', 'pool-ws'), 'base64'));
    expect(execFileSync(SQLITE3, [exported, 'PRAGMA page_size'], { encoding: 'utf8' }).trim()).toBe('65536');
    const nodeWs = await openWorkspace(dir);
    try {
      await nodeWs.index();
    } finally {
      nodeWs.close();
    }
    const fromNode = chunkRows(path.join(dir, '.hci/index.sqlite'));
    expect(fromNode.trim().split('\n').length).toBeGreaterThanOrEqual(253);
    expect(chunkRows(exported)).toBe(fromNode);
    // A first pass with too few files for the pool: the worker warmed for it is ended with the pass.
    server.put('/fixtures/pool-small.zip', zipFolder(path.join(dir, 'src/M1'), 'small'));
    await call(page, 'openZip', 'pool-small', '/fixtures/pool-small.zip');
    expect((await call(page, 'index', 'pool-small')).summary.prepared_in_worker).toBe(0);
    await expect.poll(async () => (await life()).slice(before), { timeout: 5000 }).toEqual(['started', 'ended', 'started', 'ended']);
    // A pass over an index that exists starts none ahead of time.
    await call(page, 'index', 'pool-small');
    expect((await life()).slice(before)).toHaveLength(4);
    await call(page, 'remove', 'pool-small');
    await call(page, 'remove', 'pool-ws');
  });

  it('a first pass (no journal) cut off by a closed tab leaves no half-built index: the next open starts from an empty one', async () => {
    // A pass long enough to be cut off half-way: 1,500 small C# files.
    const dir = tmpDir('hci-cut-');
    tmp.push(dir);
    for (let i = 0; i < 1500; i++) {
      fs.mkdirSync(path.join(dir, `src/P${i % 20}`), { recursive: true });
      fs.writeFileSync(path.join(dir, `src/P${i % 20}/Widget${i}.cs`), `namespace Cut.P${i % 20};\n\npublic sealed class Widget${i}\n{\n    public string Label => "widget ${i}";\n}\n`);
    }
    server.put('/fixtures/cut.zip', zipFolder(dir, 'cut'));
    const page2 = await session.newPage();
    await page2.goto(`${server.url}/`);
    await ready(page2);
    await call(page2, 'openZip', 'cut-ws', '/fixtures/cut.zip');
    await call(page2, 'indexInBackground', 'cut-ws');
    // Batches are committed (without a journal) and searchable before the tab goes.
    let committed = 0;
    for (let i = 0; i < 200 && committed === 0; i++) {
      committed = (await call(page2, 'search', 'cut-ws', { query: 'Widget', limit: 1 })).hits.length;
      if (!committed) await page2.waitForTimeout(20);
    }
    expect(committed).toBeGreaterThan(0);
    const progress = await page2.evaluate(() => (window as unknown as { hciProgress?: { phase: string; filesDone: number } }).hciProgress);
    expect(progress?.phase).toBe('index'); // still running when the tab closes
    await page2.close();
    const page = session.page;
    await call(page, 'openStored', 'cut-ws', 5000);
    const st = await call(page, 'status', 'cut-ws');
    // Never the half of a pass written without a journal: an empty index (not an error), to be built again.
    expect(st.status).not.toBe('error');
    expect(st.index?.files ?? 0).toBe(0);
    await call(page, 'remove', 'cut-ws');
  });

  it('a finished first pass leaves a plain, journaled file: no pass mark in its header', async () => {
    const page = session.page;
    const exported = path.join(tmpDir('hci-mark-'), 'zip.sqlite');
    tmp.push(path.dirname(exported));
    fs.writeFileSync(exported, Buffer.from(await call(page, 'exportIndex', 'zip-ws'), 'base64'));
    expect(execFileSync(SQLITE3, [exported, 'PRAGMA application_id'], { encoding: 'utf8' }).trim()).toBe('0');
  });

  it('loaded everything (page, Worker, SQLite and grammar wasm) from the 127.0.0.1 test server only', () => {
    const wasm = session.requests.filter((u) => u.endsWith('.wasm'));
    expect(wasm.some((u) => /sqlite3-[\w-]+\.wasm$/.test(u))).toBe(true);
    const csharp = path.basename(GRAMMARS.c_sharp.file, '.wasm'); // the grammar table's file name, as Vite emits it
    expect(wasm.some((u) => path.basename(u).startsWith(`${csharp}-`))).toBe(true);
    const foreign = session.requests.filter((u) => !u.startsWith(`${server.url}/`) && !/^(data|blob|about):/.test(u));
    expect(foreign).toEqual([]);
  });
});
