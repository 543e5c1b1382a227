// Read-ahead of a published index's scans (runtimes/shared/remote-file.ts with btree-pages.ts
// interiorChildren): a database file of two tables written one after the other, served by a real
// range server on 127.0.0.1 and read through the hci-http VFS. A full scan of the first table reads
// ahead in runs that grow with the scan (a few requests for its ~150 pages), and never past its own
// B-tree: every page fetched for the scan belongs to that table (its parent page lists the pages
// the scan reads next), none to the table stored after it. Which page belongs to which B-tree:
// SQLite's dbstat over the same bytes.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEngine, type SqliteEngine } from '../core/sqlite/engine.ts';
import { createHttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import { createNodeRangeReader } from '../runtimes/node/http-reader.ts';
import type { RangeReader } from '../runtimes/shared/remote-file.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';

const PAGE = 4096;

describe('read-ahead of a scan over HTTP ranges', () => {
  let engine: SqliteEngine;
  let dir: string;
  let server: RangeServer;
  /** Page number → the B-tree (table or index) it belongs to. */
  const owner = new Map<number, string>();
  let expected: number;
  /** index.sqlite's tables → their root pages. */
  const roots = new Map<string, number>();

  beforeAll(async () => {
    engine = await loadEngine();
    dir = tmpDir('hci-readahead-');
    const db = new engine.sqlite3.oo1.DB(':memory:');
    try {
      db.exec(`PRAGMA page_size = ${PAGE}; VACUUM`);
      db.exec('CREATE TABLE a(id INTEGER PRIMARY KEY, t TEXT NOT NULL); CREATE TABLE b(id INTEGER PRIMARY KEY, t TEXT NOT NULL)');
      for (const table of ['a', 'b']) {
        db.exec('BEGIN');
        for (let i = 1; i <= 3000; i++) db.exec({ sql: `INSERT INTO ${table}(id, t) VALUES (?, ?)`, bind: [i, `${table}${i} `.repeat(30).slice(0, 180)] });
        db.exec('COMMIT');
      }
      for (const [page, name] of db.selectArrays('SELECT pageno, name FROM dbstat') as Array<[number, string]>) owner.set(page, name);
      expected = Number(db.selectValue('SELECT sum(length(t)) FROM a'));
      fs.writeFileSync(path.join(dir, 'two.sqlite'), engine.sqlite3.capi.sqlite3_js_db_export(db));
    } finally {
      db.close();
    }
    // An index's search tables beside the literal and vector channels' (each filled before the next is made: their roots lie far apart).
    const idx = new engine.sqlite3.oo1.DB(':memory:');
    try {
      idx.exec(`PRAGMA page_size = ${PAGE}; VACUUM`);
      for (const table of ['chunks', 'files_grams', 'chunk_vectors', 'file_data']) {
        idx.exec(`CREATE TABLE ${table}(id INTEGER PRIMARY KEY, t TEXT NOT NULL); BEGIN`);
        for (let i = 1; i <= 500; i++) idx.exec({ sql: `INSERT INTO ${table}(id, t) VALUES (?, ?)`, bind: [i, `${table}${i} `.repeat(30).slice(0, 180)] });
        idx.exec('COMMIT');
      }
      for (const [name, root] of idx.selectArrays("SELECT name, rootpage FROM sqlite_schema WHERE type = 'table'") as Array<[string, number]>) roots.set(name, Number(root));
      fs.writeFileSync(path.join(dir, 'index.sqlite'), engine.sqlite3.capi.sqlite3_js_db_export(idx));
    } finally {
      idx.close();
    }
    server = await startRangeServer(dir);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a whole table in a few growing runs, none past its own B-tree', async () => {
    const ranges: Array<[number, number]> = [];
    const observed = (inner: RangeReader): RangeReader => ({
      read: (url, start, end) => {
        ranges.push([start, end]);
        return inner.read(url, start, end);
      },
      close: () => inner.close?.(),
    });
    const storage = createHttpIndexStorage(server.url('two.sqlite'), { reader: () => observed(createNodeRangeReader()), revalidateMs: 3_600_000 });
    try {
      await storage.exists();
      const db = storage.open(engine);
      // Opening read the probe and the roots; what the scan reads comes after.
      const opened = ranges.length;
      expect(Number(db.selectValue('SELECT sum(length(t)) FROM a'))).toBe(expected);
      const scan = ranges.slice(opened);
      const pagesOfA = [...owner.values()].filter((n) => n === 'a').length;
      expect(pagesOfA).toBeGreaterThan(100);
      // Runs that grow with the scan: a handful of requests for well over a hundred pages.
      expect(scan.length).toBeLessThan(16);
      const strays: string[] = [];
      for (const [start, end] of scan) {
        for (let p = Math.floor(start / PAGE) + 1; p <= Math.floor(end / PAGE) + 1; p++) {
          if (owner.get(p) !== 'a') strays.push(`${p}:${owner.get(p)}`);
        }
      }
      expect(strays).toEqual([]);
      db.close();
    } finally {
      storage.close();
    }
  });

  it('tells an observer every run of pages its replies brought (the remote bench attributes them to B-trees)', async () => {
    const runs: Array<[number, number]> = [];
    const storage = createHttpIndexStorage(server.url('two.sqlite'), { reader: () => createNodeRangeReader(), revalidateMs: 3_600_000, onPages: (first, count) => runs.push([first, count]) });
    try {
      await storage.exists();
      const db = storage.open(engine);
      const opened = runs.length;
      // (b's texts are as long as a's: 180 characters each.)
      expect(Number(db.selectValue('SELECT sum(length(t)) FROM b'))).toBe(expected);
      // Every byte fetched is in a run told (the file's last page may be short), and the scan's pages are b's (dbstat numbers pages from 1).
      const told = runs.reduce((n, [, count]) => n + count, 0);
      expect(told * PAGE).toBeGreaterThanOrEqual(storage.stats().bytes);
      expect((told - 1) * PAGE).toBeLessThan(storage.stats().bytes);
      const scanned = runs.slice(opened).flatMap(([first, count]) => Array.from({ length: count }, (_, i) => owner.get(first + i + 1)));
      expect(scanned.filter((n) => n === 'b').length).toBeGreaterThan(100);
      expect(scanned.filter((n) => n !== 'b')).toEqual([]);
      db.close();
    } finally {
      storage.close();
    }
  });

  it("reads ahead on opening the roots of the B-trees a keyword search reads, not the literal or vector channels' (core/index/schema.ts ROOTS_NOT_READ_AHEAD)", async () => {
    const runs: Array<[number, number]> = [];
    const storage = createHttpIndexStorage(server.url('index.sqlite'), { reader: () => createNodeRangeReader(), revalidateMs: 3_600_000, onPages: (first, count) => runs.push([first, count]) });
    try {
      await storage.exists();
      const db = storage.open(engine);
      // (onPages numbers pages from 0, sqlite_schema from 1.)
      const read = new Set(runs.flatMap(([first, count]) => Array.from({ length: count }, (_, i) => first + i + 1)));
      expect(read.has(roots.get('chunks')!)).toBe(true);
      expect(read.has(roots.get('file_data')!)).toBe(true);
      expect(read.has(roots.get('files_grams')!)).toBe(false);
      expect(read.has(roots.get('chunk_vectors')!)).toBe(false);
      // Read when asked all the same.
      expect(Number(db.selectValue('SELECT count(*) FROM chunk_vectors'))).toBe(500);
      db.close();
    } finally {
      storage.close();
    }
  });
});
