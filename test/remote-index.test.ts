// A published index (hci pack) read over HTTP range requests under Node: the sample workspace is
// indexed and packed, a real HTTP server on 127.0.0.1 serves the packed file, and the same verbs
// through the same service answer the same as the local index (search, explain, outline, resolve,
// status counts). Failures are structured: a server that ignores ranges (remote_no_ranges), a 404
// (remote_unreachable), a file replaced under its URL while it is read (remote_changed, then the
// next call reads the new file), indexing and watching a published index (not_available). The CLI
// reads it with --index (the built CLI, npm run build).
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { openRemoteIndex } from '../runtimes/node/workspace.ts';
import type { HttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { ensureBuilt, runCli, sqliteText } from './helpers/hci-process.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const QUERIES = ['CatalogService', 'GetAsync', 'order total discount', 'appsettings connection string', '"public async Task"', 'IRepository<T>', 'button click handler', 'ext:json logging'];

/** What must be equal between a local and a remote answer (freshness differs: the remote one is read-only, has no pending count). */
const hitsOf = (r: { hits: Array<Record<string, unknown>> }) => r.hits.map((h) => ({ id: h.hit_id, path: h.path, lines: [h.start_line, h.end_line], score: h.score, kind: h.kind, symbol: h.symbol }));

describe('a published index read over HTTP ranges (Node)', () => {
  let root: string;
  let out: string;
  let packed: string;
  let server: RangeServer;
  const services: HciService[] = [];
  const service = (r: string) => {
    const svc = new HciService({ root: r, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    services.push(svc);
    return svc;
  };

  beforeAll(async () => {
    ensureBuilt();
    root = copyWorkspace(sample, 'hci-remote-');
    out = tmpDir('hci-remote-out-');
    packed = path.join(out, 'index.sqlite');
    const manifest = await indexAndPack(root, packed, { pageSize: 4096 });
    expect(manifest).toMatchObject({ hci_pack: 1, file: 'index.sqlite', files: 79, page_size: 4096 });
    server = await startRangeServer(out);
  }, 120_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('writes a pack any SQLite opens, with its manifest and the counts every answer reports', () => {
    const manifest = JSON.parse(fs.readFileSync(`${packed}.json`, 'utf8'));
    expect(manifest.bytes).toBe(fs.statSync(packed).size);
    expect(manifest.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(sqliteText(packed, 'PRAGMA page_size').trim()).toBe('4096');
    expect(sqliteText(packed, 'SELECT count(*) FROM chunks').trim()).toBe(String(manifest.chunks));
    expect(sqliteText(packed, "SELECT value FROM meta WHERE key = 'count_chunks'").trim()).toBe(String(manifest.chunks));
    expect(sqliteText(packed, 'PRAGMA integrity_check').trim()).toBe('ok');
  });

  it('answers search, explain, outline and resolve as the local index does', async () => {
    const local = service(root);
    const remote = service(server.url('index.sqlite'));
    let answered = 0;
    for (const query of QUERIES) {
      const [a, b] = await Promise.all([local.call('search', { query, limit: 10 }), remote.call('search', { query, limit: 10 })]);
      expect(b.status, query).toBe(a.status);
      expect(hitsOf(b), query).toEqual(hitsOf(a));
      if (a.status === 'ok') answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(QUERIES.length - 2);
    const first = (await local.call('search', { query: 'CatalogService', limit: 3 })).hits[0];
    const [ea, eb] = await Promise.all([local.call('explain', { hit_id: first.hit_id, query: 'CatalogService' }), remote.call('explain', { hit_id: first.hit_id, query: 'CatalogService' })]);
    expect(eb.status).toBe('ok');
    expect({ ...eb, index: undefined }).toEqual({ ...ea, index: undefined });
    const [oa, ob] = await Promise.all([local.call('outline', { path: first.path }), remote.call('outline', { path: first.path })]);
    expect(ob.status).toBe('ok');
    expect(ob.symbols).toEqual(oa.symbols);
    const member = (await local.call('search', { query: 'CatalogService', limit: 10 })).hits.find((h) => h.symbol?.member_key)!;
    const key = { member_key: member.symbol!.member_key! };
    const [ra, rb] = await Promise.all([local.call('resolve', key), remote.call('resolve', key)]);
    expect(rb.locations).toEqual(ra.locations);
    expect(rb.locations.length).toBeGreaterThan(0);
    const status = await remote.call('status', { check_pending: true });
    expect(status.index).toMatchObject({ files: 79, read_only: true, pending_changes: null });
  });

  it('refuses indexing and watching a published index: not_available', async () => {
    const remote = service(server.url('index.sqlite'));
    const r = await remote.call('reindex', {});
    expect(r).toMatchObject({ status: 'error', error: { code: 'not_available' } });
    const w = await remote.call('watch', { enabled: true });
    expect(w).toMatchObject({ status: 'error', error: { code: 'not_available' } });
    // The read verbs still answer after the refusals.
    expect((await remote.call('search', { query: 'CatalogService' })).status).toBe('ok');
  });

  it('says when the server does not serve ranges, and when there is no file', async () => {
    const plain = await startRangeServer(out, { ranges: false });
    try {
      await expect(openRemoteIndex(plain.url('index.sqlite'))).rejects.toMatchObject({ code: 'remote_no_ranges' });
      // Only the probe was sent: the whole file was not read.
      expect(plain.stats.requests).toBe(1);
    } finally {
      await plain.close();
    }
    const missing = await service(server.url('nothing-here.sqlite')).call('search', { query: 'CatalogService' });
    expect(missing).toMatchObject({ status: 'error', error: { code: 'remote_unreachable' } });
    expect(missing.error?.message).toContain('404');
    await expect(openRemoteIndex(server.url('index.sqlite.json'))).rejects.toMatchObject({ code: 'index_unrecognized' });
  });

  it('detects the file replaced under its URL while it is read, and reads the new one on the next call', async () => {
    const dir = tmpDir('hci-remote-swap-');
    const other = copyWorkspace(sample, 'hci-remote-next-');
    try {
      fs.copyFileSync(packed, path.join(dir, 'index.sqlite'));
      const swap = await startRangeServer(dir);
      try {
        // revalidateMs 0: every read transaction checks the file; a small cache so later queries fetch pages.
        const ws = await openRemoteIndex(swap.url('index.sqlite'), { remote: { revalidateMs: 0, cacheBytes: 8192 } });
        const before = await ws.search({ query: 'CatalogService', limit: 5 });
        expect(before.hits.length).toBeGreaterThan(0);
        // A new pack of a workspace with one more file replaces the published one.
        fs.writeFileSync(path.join(other, 'src', 'Zebra.cs'), 'namespace Demo;\npublic class ZebraStripes { public int Count => 7; }\n');
        await indexAndPack(other, path.join(dir, 'next.sqlite'), { pageSize: 4096 });
        fs.renameSync(path.join(dir, 'next.sqlite'), path.join(dir, 'index.sqlite'));
        const during = await ws.search({ query: 'OrderTotal', limit: 5 });
        expect(during).toMatchObject({ status: 'error', error: { code: 'remote_changed' } });
        // The next call opens the new file.
        const after = await ws.search({ query: 'ZebraStripes', limit: 5 });
        expect(after.hits[0]?.path).toBe('src/Zebra.cs');
        ws.close();
      } finally {
        await swap.close();
      }
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts its requests and bytes: a query reads a fraction of the file', async () => {
    const ws = await openRemoteIndex(server.url('index.sqlite'));
    const storage = ws.host.storage as HttpIndexStorage;
    await ws.search({ query: 'CatalogService', limit: 10 });
    const s = storage.stats();
    expect(s.requests).toBeGreaterThan(0);
    expect(s.bytes).toBeLessThan(fs.statSync(packed).size);
    const warm = { ...s };
    await ws.search({ query: 'CatalogService', limit: 10 });
    // The same query again: answered from the page cache (a revalidation at most).
    expect(storage.stats().requests - warm.requests).toBeLessThanOrEqual(1);
    ws.close();
  });

  it('hci search/outline/status --index <url> answer from the published index', async () => {
    const url = server.url('index.sqlite');
    const local = await runCli(['search', 'CatalogService', '--root', root, '--json']);
    const remote = await runCli(['search', 'CatalogService', '--index', url, '--json']);
    expect(remote.code, remote.stderr).toBe(0);
    expect(hitsOf(JSON.parse(remote.stdout))).toEqual(hitsOf(JSON.parse(local.stdout)));
    const status = await runCli(['status', '--index', url, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).index).toMatchObject({ read_only: true });
    const bad = await runCli(['search', 'x', '--index', server.url('missing.sqlite')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/404/);
    const reindex = await runCli(['index', url]);
    expect(reindex.code).not.toBe(0);
    // A folder or a malformed URL given to --index (search's repeatable --index too), and --index with --root
    // where one index is read (status; search takes both: several repositories as one): usage errors (exit 2)
    // before anything is opened.
    for (const args of [['search', 'x', '--index', root], ['search', 'x', '--index', 'http://exa mple.org/index.sqlite'], ['status', '--index', root], ['status', '--index', url, '--root', root]]) {
      const usage = await runCli([...args, '--json']);
      expect(usage.code, args.join(' ')).toBe(2);
      expect(JSON.parse(usage.stdout).error.code).toBe('usage');
    }
  });
});
