// Rows read ahead from a published index (runtimes/shared/btree-pages.ts, RemoteFile.prefetch,
// IndexStorage.prefetchRows): the sample workspace indexed and packed at 4 KB pages (so file texts
// overflow their leaf), served by a real range server on 127.0.0.1. After prefetchRows for some
// chunks, files' stored data and chunk lengths, reading exactly those rows makes no request — the
// walk found every page SQLite reads, overflow chains included — and the read-ahead took fewer
// requests than SQLite reading the same rows page by page on a fresh reader. Opening reads every
// B-tree's root ahead: a first lookup by id in any table then costs one leaf; and what every first
// search reads before its own rows (the keyword index's structure and averages, the pack's file list). A query's doclists
// (core/index/doclist-pages.ts) come ahead the same way: FTS5 then reads none of their pages itself.
// A filtered pass asked again in the same generation (which the session's recent answers do not keep)
// names no rows again: the statements that found them ran once (SearchSession.readAheadDue).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openRemoteIndex, openWorkspace } from '../runtimes/node/workspace.ts';
import type { HttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { readPackedFileList } from '../core/index/file-list.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { SearchSession } from '../core/search/session.ts';
import type { Database } from '../core/sqlite/engine.ts';
import { ftsChannel } from '../core/search/channels/fts.ts';
import { parseQuery } from '../core/search/query.ts';
import { compilePathFilter } from '../core/search/filters.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const remote = { revalidateMs: 3_600_000 };

describe('rows read ahead from a published index', () => {
  let root: string;
  let out: string;
  let server: RangeServer;
  /** Row ids in the packed file (VACUUM keeps INTEGER PRIMARY KEY values): every third chunk, and the files with the largest stored data. */
  let chunkIds: number[];
  let bigFiles: number[];
  const open: HciWorkspace[] = [];

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-prefetch-');
    out = tmpDir('hci-prefetch-out-');
    await indexAndPack(root, path.join(out, 'index.sqlite'), { pageSize: 4096 });
    const local = await openWorkspace(root);
    try {
      ({ value: chunkIds } = await local.read((db) => db.selectValues('SELECT id FROM chunks WHERE id % 3 = 0 ORDER BY id') as number[]));
      ({ value: bigFiles } = await local.read((db) => db.selectValues('SELECT file_id FROM file_data ORDER BY length(data) DESC LIMIT 12') as number[]));
    } finally {
      local.close();
    }
    server = await startRangeServer(out);
  }, 120_000);

  afterAll(async () => {
    for (const ws of open) ws.close();
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  /** A fresh reader of the packed index and a connection of its own. */
  const reader = async () => {
    const ws = await openRemoteIndex(server.url('index.sqlite'), { remote });
    open.push(ws);
    const storage = ws.host.storage as HttpIndexStorage;
    return { storage, db: storage.open(ws.engine) };
  };

  const list = (ids: readonly number[]) => ids.join(',');

  it('fetches the pages of the rows asked for: reading them afterwards makes no request', async () => {
    expect(chunkIds.length).toBeGreaterThan(50);
    const readRows = (db: Awaited<ReturnType<typeof reader>>['db']) => [
      db.selectArrays(`SELECT id, file_id, start_line FROM chunks WHERE id IN (${list(chunkIds)})`),
      db.selectArrays(`SELECT file_id, length(data), hex(substr(data, -16)) FROM file_data WHERE file_id IN (${list(bigFiles)})`),
      db.selectArrays(`SELECT id, hex(sz) FROM chunks_fts_docsize WHERE id IN (${list(chunkIds)})`),
    ];

    const plain = await reader();
    const before = plain.storage.stats().requests;
    const expected = readRows(plain.db);
    const unaided = plain.storage.stats().requests - before;

    const ahead = await reader();
    const start = ahead.storage.stats().requests;
    ahead.storage.prefetchRows!(ahead.db, 'chunks', chunkIds);
    ahead.storage.prefetchRows!(ahead.db, 'file_data', bigFiles);
    ahead.storage.prefetchRows!(ahead.db, 'chunks_fts_docsize', chunkIds);
    const prefetched = ahead.storage.stats().requests - start;
    // The stored data of the largest files spans several 4 KB pages: their overflow chains were found too.
    expect(expected[1].some((r) => Number(r[1]) > 4096)).toBe(true);
    expect(readRows(ahead.db)).toEqual(expected);
    expect(ahead.storage.stats().requests - start - prefetched).toBe(0);
    expect(prefetched).toBeGreaterThan(0);
    expect(prefetched).toBeLessThan(unaided);
    plain.db.close();
    ahead.db.close();
  });

  it('reads every table root ahead on opening: a first lookup by id costs one leaf page', async () => {
    const { storage, db } = await reader();
    const before = storage.stats().requests;
    const maxId = Math.max(...chunkIds);
    expect(db.selectValue('SELECT start_line FROM chunks WHERE id = ?', [maxId])).toBeGreaterThan(0);
    expect(storage.stats().requests - before).toBeLessThanOrEqual(1);
    db.close();
  });

  it("reads on opening what every first search reads before its rows: the keyword index's structure and averages and the pack's file list then cost no request", async () => {
    const { storage, db } = await reader();
    const before = storage.stats().requests;
    expect(db.selectValue('SELECT length(block) FROM chunks_fts_data WHERE id = 10')).toBeGreaterThan(0);
    expect(db.selectValue('SELECT length(block) FROM chunks_fts_data WHERE id = 1')).toBeGreaterThan(0);
    expect(readPackedFileList(db, fflateCodec)?.length).toBeGreaterThan(50);
    expect(storage.stats().requests - before).toBe(0);
    db.close();
  });

  it('carries the file list deflated, for the first search to read in a few pages: it equals the files table with their hashes, as the live index one does without them', async () => {
    const { db } = await reader();
    const fromTable = JSON.parse(String(db.selectValue('SELECT json_group_array(json_array(id, path, lang, flags, hash)) FROM (SELECT * FROM files ORDER BY id)'))) as unknown[][];
    expect(fromTable.length).toBeGreaterThan(50);
    expect(readPackedFileList(db, fflateCodec)).toEqual(fromTable);
    const local = await openWorkspace(root);
    try {
      // The indexing pass records it for its generation too (core/index/file-list.ts recordFileList), without the hashes.
      expect((await local.read((d) => readPackedFileList(d, fflateCodec))).value).toEqual(fromTable.map((r) => r.slice(0, 4)));
    } finally {
      local.close();
    }
    db.close();
  });

  it("reads a query's doclists ahead: FTS5 then matches, ranks and counts them without a request", async () => {
    const expr = '"public" AND ("class" OR "void") AND "return value"';
    const statements = [
      `SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH '${expr.replace(/'/g, "''")}' ORDER BY bm25(chunks_fts) LIMIT 5`,
      `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '"public"'`,
    ];
    const run = (db: Awaited<ReturnType<typeof reader>>['db']) => statements.map((sql) => db.selectValues(sql));
    const plain = await reader();
    // The structure record and the terms' index pages, as a search has them before its passes.
    plain.db.selectValue('SELECT block FROM chunks_fts_data WHERE id = 10');
    const start = plain.storage.stats().requests;
    const expected = run(plain.db);
    const unaided = plain.storage.stats().requests - start;

    const ahead = await reader();
    const ws = open[open.length - 1];
    const session = new SearchSession(ahead.db, fflateCodec, (table, ids) => ahead.storage.prefetchRows!(ahead.db, table, ids), () => new ws.engine.sqlite3.oo1.DB(':memory:') as unknown as Database);
    const before = ahead.storage.stats().requests;
    session.prefetchDoclists(expr);
    const prefetched = ahead.storage.stats().requests - before;
    expect(run(ahead.db)).toEqual(expected);
    // Every page of the doclists came with the read-ahead: matching, ranking and counting read none.
    expect(ahead.storage.stats().requests - before - prefetched).toBe(0);
    expect(prefetched).toBeLessThan(unaided);
    // A second time for the same phrases: nothing (once per term and generation).
    session.prefetchDoclists(expr);
    expect(ahead.storage.stats().requests - before - prefetched).toBe(0);
    plain.db.close();
    ahead.db.close();
  });

  it('a filtered keyword pass asked again names its rows once: the same hits, no read-ahead the second time, another filter reads ahead its own', async () => {
    const { storage, db } = await reader();
    const ws = open[open.length - 1];
    let calls = 0;
    const session = new SearchSession(db, fflateCodec, (table, ids) => {
      calls++;
      storage.prefetchRows!(db, table, ids);
    }, () => new ws.engine.sqlite3.oo1.DB(':memory:') as unknown as Database);
    const q = parseQuery('public class');
    const under = (paths: string[]) => session.withPathFilter(compilePathFilter({ paths }), () => ftsChannel.search(session, q, 50).map((h) => [h.row.chunkId, h.row.path, h.score]));
    const first = under(['src']);
    const named = calls;
    expect(first.length).toBeGreaterThan(3);
    expect(named).toBeGreaterThan(0);
    expect(under(['src'])).toEqual(first);
    expect(calls).toBe(named);
    expect(under(['tests']).length).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(named);
    // The same spec compiled again (pushed out of filters.ts's cache of compiled filters by others): still no read-ahead.
    const again = calls;
    const before = compilePathFilter({ paths: ['src'] });
    for (let i = 0; i < 40; i++) compilePathFilter({ paths: [`other-${i}`] });
    expect(compilePathFilter({ paths: ['src'] })).not.toBe(before);
    expect(under(['src'])).toEqual(first);
    expect(calls).toBe(again);
    db.close();
  });

  it('ignores a table it does not know and rows that do not exist', async () => {
    const { storage, db } = await reader();
    const before = storage.stats().requests;
    storage.prefetchRows!(db, 'no_such_table', [1, 2, 3]);
    expect(storage.stats().requests).toBe(before);
    storage.prefetchRows!(db, 'chunks', [10_000_000]);
    expect(db.selectValue('SELECT count(*) FROM chunks WHERE id = 10000000')).toBe(0);
    db.close();
  });
});
