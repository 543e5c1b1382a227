// Batched range reads of a published index (RangeReader.readRanges in runtimes/shared/range-channel.ts,
// RemoteFile's prefetch): the sample workspace indexed and packed at 4 KB pages, served by a real
// range server on 127.0.0.1 that answers several ranges in one request with a multipart/byteranges
// reply (as nginx and Apache do) and by one that answers such a request with the whole file (HTTP
// 200, as servers that honour one range only do). Scattered rows read ahead take one request on the
// first and one request per run on the second (after one refused multi-range request, never asked
// again); the bytes match the file's on disk, and a search answers as the local index does on both.
// Over the first no page between the rows is read (a range per run); the second gets small gaps read through.
// Opening reads the children of the looked-up B-trees' roots ahead over the first only (over the
// second they would be a request each: http-vfs.ts readRoots).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openRemoteIndex, openWorkspace } from '../runtimes/node/workspace.ts';
import { createNodeRangeReader } from '../runtimes/node/http-reader.ts';
import type { HttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { fetchRowPages } from '../runtimes/shared/btree-pages.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
// No gap read through: every file's pages are a run of their own (the sample is small; its files lie close together).
const remote = { revalidateMs: 3_600_000, prefetchGapBytes: 0 };
const QUERIES = ['Button', 'render text', 'public class', 'path:src class'];

describe('batched range reads of a published index', () => {
  let root: string;
  let out: string;
  let multi: RangeServer;
  let single: RangeServer;
  /** Files whose stored data lies far apart in the packed file: every fourth by size. */
  let files: number[];
  const local: Record<string, unknown[]> = {};
  const open: HciWorkspace[] = [];

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-batch-');
    out = tmpDir('hci-batch-out-');
    await indexAndPack(root, path.join(out, 'index.sqlite'), { pageSize: 4096 });
    const ws = await openWorkspace(root);
    try {
      ({ value: files } = await ws.read((db) => (db.selectValues('SELECT file_id FROM file_data ORDER BY length(data) DESC LIMIT 40') as number[]).filter((_, i) => i % 4 === 0)));
      for (const q of QUERIES) local[q] = (await ws.search({ query: q, limit: 10 })).hits.map((h) => [h.path, h.start_line, h.score]);
    } finally {
      ws.close();
    }
    multi = await startRangeServer(out);
    single = await startRangeServer(out, { multiRange: false });
  }, 120_000);

  afterAll(async () => {
    for (const ws of open) ws.close();
    await multi?.close();
    await single?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  const reader = async (server: RangeServer) => {
    const ws = await openRemoteIndex(server.url('index.sqlite'), { remote });
    open.push(ws);
    const storage = ws.host.storage as HttpIndexStorage;
    return { ws, storage, db: storage.open(ws.engine) };
  };

  it('a batch of ranges comes back byte for byte, in one request where the server answers them so', () => {
    const file = fs.readFileSync(path.join(out, 'index.sqlite'));
    const ranges = [[0, 99], [8192, 12287], [20000, 20000], [file.length - 4096, file.length - 1]] as const;
    for (const server of [multi, single]) {
      const reader = createNodeRangeReader();
      try {
        server.reset();
        const reply = reader.readRanges!(server.url('index.sqlite'), ranges, true);
        expect(reply.status).toBe(206);
        expect(reply.parts!.map((p) => Buffer.from(p).toString('hex'))).toEqual(ranges.map(([a, b]) => file.subarray(a, b + 1).toString('hex')));
        expect(reply.size).toBe(file.length);
        if (server === multi) {
          expect([reply.multi, reply.requests, server.stats.requests, server.stats.multipart]).toEqual([true, 1, 1, 1]);
        } else {
          // The multi-range request answered with the whole file (its body not read), then one request per range.
          expect([reply.multi, reply.requests, server.stats.requests, server.stats.full]).toEqual([false, 1 + ranges.length, 1 + ranges.length, 1]);
          const again = reader.readRanges!(server.url('index.sqlite'), ranges, false);
          expect([again.multi, again.requests]).toEqual([null, ranges.length]);
          expect(again.parts!.map((p) => p.length)).toEqual(ranges.map(([a, b]) => b - a + 1));
        }
      } finally {
        reader.close?.();
      }
    }
  });

  it('reads scattered rows ahead in one request from a server that answers several ranges, one per run from one that does not', async () => {
    const rows = (db: Awaited<ReturnType<typeof reader>>['db']) => db.selectArrays(`SELECT file_id, length(data), hex(substr(data, -16)) FROM file_data WHERE file_id IN (${files.join(',')}) ORDER BY file_id`);
    const got: Record<string, { requests: number; rows: unknown[] }> = {};
    for (const [name, server] of [['multi', multi], ['single', single]] as const) {
      const { storage, db } = await reader(server);
      const before = storage.stats().requests;
      server.reset();
      storage.prefetchRows!(db, 'file_data', files);
      const requests = storage.stats().requests - before;
      // What the reader counts is what the server saw.
      expect(requests).toBe(server.stats.requests);
      const read = rows(db);
      expect(storage.stats().requests - before).toBe(requests);
      got[name] = { requests, rows: read };
      db.close();
    }
    expect(got.multi.rows).toEqual(got.single.rows);
    expect(got.multi.rows.length).toBe(files.length);
    // The file_data pages of these files lie apart: several runs, one multipart request for them all.
    expect(got.multi.requests).toBeLessThanOrEqual(2);
    expect(got.single.requests).toBeGreaterThan(got.multi.requests + 2);
  });

  it('reads no page between scattered rows from a server that answers several ranges: only the pages that hold them', async () => {
    // The reader's default gap (32 KiB, 8 pages here): read through only for a server that answers one range per request.
    const bytes = fs.readFileSync(path.join(out, 'index.sqlite'));
    const pageSize = bytes.readUInt16BE(16);
    const pageOf = (n: number) => bytes.subarray((n - 1) * pageSize, n * pageSize);
    const brought: Record<string, Set<number>> = {};
    for (const [name, server] of [['multi', multi], ['single', single]] as const) {
      const pages = (brought[name] = new Set<number>());
      let counting = false;
      const ws = await openRemoteIndex(server.url('index.sqlite'), { remote: { revalidateMs: 3_600_000, onPages: (first, count) => {
        for (let p = first; counting && p < first + count; p++) pages.add(p + 1);
      } } });
      open.push(ws);
      const storage = ws.host.storage as HttpIndexStorage;
      const db = storage.open(ws.engine);
      const root = Number(db.selectValue("SELECT rootpage FROM sqlite_schema WHERE name = 'file_data'"));
      counting = true;
      storage.prefetchRows!(db, 'file_data', files);
      counting = false;
      if (name === 'multi') {
        // Every page the walk of the file_data B-tree reads for these rows (its interior pages, leaves and overflow), and no other.
        const walked = new Set<number>();
        const rows = fetchRowPages((n) => (walked.add(n), pageOf(n)), () => {}, root, files, pageSize - bytes[20]);
        const needed = new Set([...walked, ...rows.leaves, ...rows.overflow]);
        expect([...pages].filter((p) => !needed.has(p))).toEqual([]);
        expect(rows.leaves.every((p) => pages.has(p))).toBe(true);
      }
      db.close();
    }
    // The single-range server got the gaps between them read through: more pages, fewer requests.
    expect(brought.single.size).toBeGreaterThan(brought.multi.size);
  });

  it("opening reads the roots' children ahead only from a server that answers several ranges in one request", async () => {
    const opened: Record<string, { requests: number; pages: number }> = {};
    for (const [name, server] of [['multi', multi], ['single', single]] as const) {
      let pages = 0;
      const ws = await openRemoteIndex(server.url('index.sqlite'), { remote: { ...remote, onPages: (_first, count) => void (pages += count) } });
      open.push(ws);
      const storage = ws.host.storage as HttpIndexStorage;
      storage.open(ws.engine).close();
      opened[name] = { requests: storage.stats().requests, pages };
    }
    // The same probe, roots and records; the children of roots only over the multipart server.
    expect(opened.multi.pages).toBeGreaterThan(opened.single.pages);
    // Over the one-range server as many requests but the one refused multi-range request (with the children: 2 more).
    expect(opened.single.requests).toBeLessThanOrEqual(opened.multi.requests + 1);
  });

  it('a search answers as the local index does over either server, in fewer requests over the multipart one', async () => {
    const requests: Record<string, number> = { multi: 0, single: 0 };
    for (const [name, server] of [['multi', multi], ['single', single]] as const) {
      for (const q of QUERIES) {
        const { ws, storage } = await reader(server);
        const before = storage.stats().requests;
        const hits = (await ws.search({ query: q, limit: 10 })).hits.map((h) => [h.path, h.start_line, h.score]);
        expect(hits).toEqual(local[q]);
        requests[name] += storage.stats().requests - before;
      }
    }
    expect(multi.stats.multipart).toBeGreaterThan(0);
    expect(requests.multi).toBeLessThan(requests.single);
  });
});
