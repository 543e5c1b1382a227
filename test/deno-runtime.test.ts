// hci under Deno, as a user runs it: `deno run` of runtimes/deno/cli.ts with the narrowest permissions
// (read the workspace and hci's node_modules, write only `.hci/`, the host name). The index file is shared
// with Node: each runtime opens what the other built, and both follow one lock protocol (busy
// answers, stale locks of dead processes, a Node reader during a Deno writer).
// @lane runtimes
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SearchHit, SearchResponse } from '../core/search/contract.ts';
import { openWorkspace, createNodeIndexStorage } from '../runtimes/node/index.ts';
import { DotLock } from '../runtimes/node/dot-lock.ts';
import { listFiles } from './helpers/browser.ts';
import { denoFlags, denoSession, runDenoCli, startDeno, REPO } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const QUERIES = ['CatalogService', 'discount applied order', 'MaxItemsPerOrder ext:json', 'ShoppingCart', 'appsettings connection string'];
const essentials = (hits: SearchHit[]) => hits.map((h) => ({ rank: h.rank, path: h.path, start_line: h.start_line, end_line: h.end_line, score: h.score, hit_kind: h.hit_kind, hit_id: h.hit_id }));

/** Every path and mtime outside `.hci/`: what a run with write access to `.hci/` only must not change. */
function snapshot(root: string): string[] {
  return listFiles(root).map((rel) => `${rel} ${fs.statSync(path.join(root, rel)).mtimeMs}`).sort();
}

async function nodeSearch(root: string, query: string, settings = {}): Promise<SearchResponse> {
  const ws = await openWorkspace(root, { settings });
  try {
    return await ws.search({ query });
  } finally {
    ws.close();
  }
}

const deno = denoBinary();
describe.skipIf(!deno)(titled('Deno runtime', { Deno: deno }), () => {
  const tmp: string[] = [];
  const workspace = (prefix: string) => {
    const dir = copyWorkspace(sample, prefix);
    tmp.push(dir);
    return dir;
  };
  let denoBuilt: string;

  beforeAll(() => {
    denoBuilt = workspace('hci-deno-built-');
  });

  afterAll(() => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('indexes and searches with read access to the workspace and write access to .hci/ only', async () => {
    const before = snapshot(denoBuilt);
    const idx = await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--json']);
    expect(idx.code, idx.stderr).toBe(0);
    expect(idx.json).toMatchObject({ status: 'ok', files_scanned: idx.json.files_indexed });
    expect(idx.json.files_indexed).toBeGreaterThan(50);

    const res = await runDenoCli(deno, denoBuilt, ['search', 'CatalogService', '--root', denoBuilt, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.status).toBe('ok');
    expect(res.json.hits[0].path).toBe('src/Contoso.Shop.Application/Catalog/CatalogService.cs');
    const human = await runDenoCli(deno, denoBuilt, ['search', 'CatalogService', '-k', '2', '--root', denoBuilt]);
    expect(human.stdout).toMatch(/^ 1 {2}src\/Contoso\.Shop\.Application\/Catalog\/CatalogService\.cs:\d+-\d+/);
    const explain = await runDenoCli(deno, denoBuilt, ['explain', res.json.hits[0].hit_id, '--root', denoBuilt, '--json']);
    expect(explain.json).toMatchObject({ status: 'ok', explanation: { rank: 1 } });


    // Nothing outside .hci/ was touched; no lock or temp file is left behind; the file is sound.
    expect(snapshot(denoBuilt)).toEqual(before);
    expect(fs.readdirSync(path.join(denoBuilt, '.hci')).sort()).toEqual(['index.sqlite', 'recent-queries.ndjson']);
    expect(execFileSync('/usr/bin/sqlite3', [path.join(denoBuilt, '.hci/index.sqlite'), 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim()).toBe('ok');

    // A missing permission is a clear error naming the flag, not a crash or a prompt.
    const noWrite = await startDeno(deno, ['--no-prompt', `--allow-read=${denoBuilt},${path.join(REPO, 'node_modules')}`, '--allow-sys=hostname'], path.join(REPO, 'runtimes/deno/cli.ts'), ['index', denoBuilt, '--json']).exited;
    expect(noWrite.code).toBe(5);
    expect(noWrite.json).toMatchObject({ status: 'error', error: { code: 'permission_needed' } });
    expect(noWrite.json.hint).toContain(`--allow-write=${path.join(denoBuilt, '.hci')}`);
    const noHost = await startDeno(deno, ['--no-prompt', `--allow-read=${denoBuilt},${path.join(REPO, 'node_modules')}`, `--allow-write=${path.join(denoBuilt, '.hci')}`], path.join(REPO, 'runtimes/deno/cli.ts'), ['search', 'x', '--root', denoBuilt, '--json']).exited;
    expect(noHost.code).toBe(5);
    expect(noHost.json.hint).toContain('--allow-sys=hostname');

    // One edited file indexed by path: only it is considered, and its new text is found.
    const edited = path.join(denoBuilt, 'src/Contoso.Shop.Application/Catalog/CatalogService.cs');
    const original = fs.readFileSync(edited, 'utf8');
    fs.appendFileSync(edited, '\n// QuokkaMarkerFromDeno\n');
    const byPath = await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--path', edited, '--json']);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.json).toMatchObject({ status: 'ok', files_scanned: 1, files_indexed: 1 });
    expect((await runDenoCli(deno, denoBuilt, ['search', 'QuokkaMarkerFromDeno', '--root', denoBuilt, '--json'])).json.hits[0]?.path).toBe(
      'src/Contoso.Shop.Application/Catalog/CatalogService.cs',
    );
    expect((await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--path', edited, '--full'])).code).toBe(2);
    fs.writeFileSync(edited, original);
    expect((await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--path', edited, '--json'])).json.files_indexed).toBe(1);
  });

  it('Node opens a Deno-built index and Deno a Node-built one, with identical results', async () => {
    // Deno-built → Node (search, then an incremental run that finds nothing to do).
    const fromDeno = (await denoSession(deno, { root: denoBuilt, queries: QUERIES.map((query) => ({ query })) })).answers;
    for (const [i, q] of QUERIES.entries()) {
      const fromNode = await nodeSearch(denoBuilt, q);
      expect(fromNode.status, q).toBe('ok');
      expect(fromDeno[i].status, q).toBe(fromNode.status);
      expect(essentials(fromDeno[i].hits), q).toEqual(essentials(fromNode.hits));
    }
    const nodeWs = await openWorkspace(denoBuilt);
    try {
      expect(await nodeWs.index()).toMatchObject({ files_indexed: 0, files_removed: 0 });
    } finally {
      nodeWs.close();
    }

    // Node-built (one project of the sample, to keep the test fast) → Deno.
    const nodeBuilt = copyWorkspace(path.join(sample, 'src/Contoso.Shop.Web'), 'hci-node-built-');
    tmp.push(nodeBuilt);
    const webQueries = ['CatalogService', 'cart quantity'];
    const ws = await openWorkspace(nodeBuilt);
    const expected: Record<string, SearchResponse> = {};
    try {
      await ws.index();
      for (const q of webQueries) expected[q] = await ws.search({ query: q });
    } finally {
      ws.close();
    }
    const session = await denoSession(deno, { root: nodeBuilt, queries: webQueries.map((query) => ({ query })), index: 'after' });
    for (const [i, q] of webQueries.entries()) {
      expect(expected[q].hits.length, q).toBeGreaterThan(0);
      expect(essentials(session.answers[i].hits), q).toEqual(essentials(expected[q].hits));
    }
    expect(session.summary).toMatchObject({ files_indexed: 0, files_removed: 0 });
  });

  it('shares the lock protocol with Node: busy answers both ways, and a dead Deno holder is recovered by Node', async () => {
    const hci = path.join(denoBuilt, '.hci');
    fs.writeFileSync(path.join(hci, 'settings.toml'), 'lock_timeout_ms = 300\n');
    try {
      // Node indexing (its indexer lock) → Deno cannot start a second run.
      const storage = createNodeIndexStorage(denoBuilt);
      const claim = storage.claimIndexer();
      expect(claim).not.toBeNull();
      const busy = await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--json']);
      expect(busy.code).toBe(4);
      expect(busy.json.error).toMatchObject({ code: 'index_busy' });
      expect(busy.json.error.message).toContain(`pid ${process.pid}`);
      claim!.release();

      // Node holding the whole-file database lock (as an hci of the all-exclusive lock protocol does in
      // any transaction) → a Deno reader waits lock_timeout_ms, then index_busy.
      const dbLock = new DotLock(path.join(hci, 'index.sqlite.lock'));
      expect(dbLock.tryAcquire()).toBe(true);
      const waiting = await runDenoCli(deno, denoBuilt, ['search', 'CatalogService', '--root', denoBuilt, '--json']);
      dbLock.release();
      expect(waiting.code).toBe(4);
      expect(waiting.json).toMatchObject({ status: 'error', error: { code: 'index_busy' } });
      expect((await runDenoCli(deno, denoBuilt, ['search', 'CatalogService', '--root', denoBuilt, '--json'])).json.status).toBe('ok');

      // Deno holding both locks → Node sees a busy index and names the Deno pid …
      const holder = startDeno(deno, denoFlags(denoBuilt), path.join(REPO, 'test/helpers/deno-lock-holder.ts'), [path.join(hci, 'indexer.lock'), path.join(hci, 'index.sqlite.lock')]);
      const held = JSON.parse(await holder.firstLine) as { pid: number; held: string[] };
      expect(held.held).toHaveLength(2);
      const owner = JSON.parse(fs.readFileSync(path.join(hci, 'indexer.lock'), 'utf8'));
      expect(owner).toMatchObject({ pid: held.pid, host: os.hostname(), purpose: 'index' });
      expect(createNodeIndexStorage(denoBuilt).claimIndexer()).toBeNull();
      expect(createNodeIndexStorage(denoBuilt).indexerHolder()?.pid).toBe(held.pid);
      const blocked = await nodeSearch(denoBuilt, 'CatalogService', { lock_timeout_ms: 300 });
      expect(blocked.error?.code).toBe('index_busy');
      // … and once that Deno process dies (SIGKILL: no cleanup), Node recognises its locks as stale.
      holder.child.kill('SIGKILL');
      await holder.exited;
      expect((await nodeSearch(denoBuilt, 'CatalogService')).status).toBe('ok');
      const reclaimed = createNodeIndexStorage(denoBuilt).claimIndexer();
      expect(reclaimed).not.toBeNull();
      reclaimed!.release();
    } finally {
      fs.rmSync(path.join(hci, 'settings.toml'), { force: true });
    }
  });

  it('never breaks a lock it cannot verify: without --allow-run a dead holder is reported, with it the lock is cleared', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    const lockPath = path.join(denoBuilt, '.hci/indexer.lock');
    fs.writeFileSync(lockPath, JSON.stringify({ pid: deadPid, host: os.hostname(), token: 'f'.repeat(24), acquired_at: Date.now(), purpose: 'index' }));
    const unsure = await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--json']);
    expect(unsure.code).toBe(4);
    expect(unsure.json.hint).toContain('--allow-run');
    expect(fs.existsSync(lockPath)).toBe(true);
    const sure = await runDenoCli(deno, denoBuilt, ['index', denoBuilt, '--json'], ['--allow-run']);
    expect(sure.code, sure.stderr).toBe(0);
    expect(sure.json).toMatchObject({ status: 'ok', files_indexed: 0 });
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it('a Node reader never sees a torn index while Deno rebuilds it', async () => {
    const run = startDeno(deno, denoFlags(denoBuilt), path.join(REPO, 'runtimes/deno/cli.ts'), ['index', denoBuilt, '--full', '--json']);
    const ws = await openWorkspace(denoBuilt);
    const statuses = new Map<string, number>();
    let exited = false;
    void run.exited.then(() => (exited = true));
    const deadline = Date.now() + 45_000;
    try {
      while (!exited && Date.now() < deadline) {
        const r = await ws.search({ query: 'CatalogService' });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        expect(r.error, JSON.stringify(r.error)).toBeUndefined();
        if (r.status === 'ok') expect(r.hits[0].path).toMatch(/CatalogService|ProductDetails|Catalog/);
        // A search that finds the lock free never leaves the microtask queue: let the exit event in.
        await new Promise((r) => setTimeout(r, 5));
      }
      const done = await run.exited;
      expect(done.code, done.stderr).toBe(0);
      expect(done.json.batches).toBeGreaterThan(1);
      const final = await ws.search({ query: 'CatalogService' });
      expect(final.index?.generation).toBe(done.json.generation);
    } finally {
      ws.close();
    }
    expect([...statuses.keys()].every((s) => s === 'ok' || s === 'indexing')).toBe(true);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(3);
  });
});
