// A packed index's chunk → file runs (core/index/chunk-files.ts) and the filtered keyword pass that
// uses them (core/search/channels/fts.ts through SearchSession's hci_chunk_ok). A workspace of 40
// files under Gen/ whose member chunks all say "button" and one under Controls/, indexed and packed:
// the runs give every chunk's file as the chunks table does (a live index has none); a pass filtered
// to Controls/ answers the same hits from the packed file as from the live one, and what it reads
// ahead (a remote index's requests) is the rows of the chunks the filter lets through — not the row
// and length of every chunk that matches the word.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEngine, type SqliteEngine } from '../core/sqlite/engine.ts';
import { SearchSession } from '../core/search/session.ts';
import { ftsChannel } from '../core/search/channels/fts.ts';
import { parseQuery } from '../core/search/query.ts';
import { ChunkFiles, readPackedChunkFiles } from '../core/index/chunk-files.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import { memberMethods, packedButtonPanels, type PackedPanels } from './helpers/published-index.ts';

const PANELS = 40;

describe('chunk → file runs of a packed index', () => {
  let engine: SqliteEngine;
  let fixture: PackedPanels;
  let live: string;
  let packed: string;

  beforeAll(async () => {
    engine = await loadEngine();
    fixture = await packedButtonPanels(`namespace Demo.Controls;\n\npublic class Factory\n{\n${memberMethods('Press', 12, 'button')}}\n`, { panels: PANELS, param: 'button', prefix: 'hci-chunk-files' });
    ({ live, packed } = fixture);
  }, 120_000);

  afterAll(async () => {
    await fixture?.cleanup();
  });

  const withDb = <T>(file: string, fn: (db: ReturnType<ReturnType<typeof nodePackTarget>['open']>) => T): T => {
    const db = nodePackTarget(file).open(file, engine);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('gives every chunk the file the chunks table gives it, in a run per file; a live index has none', () => {
    withDb(packed, (db) => {
      const runs = readPackedChunkFiles(db, fflateCodec)!;
      const pairs = db.selectArrays('SELECT id, file_id FROM chunks ORDER BY id') as Array<[number, number]>;
      expect(pairs.length).toBeGreaterThan(PANELS * 2);
      for (const [id, file] of pairs) expect(runs.fileOf(id)).toBe(file);
      expect(runs.fileOf(Math.max(...pairs.map((p) => p[0])) + 1)).toBeUndefined();
      expect(runs.runs).toBe(PANELS + 1);
    });
    withDb(live, (db) => expect(readPackedChunkFiles(db, fflateCodec)).toBeNull());
    // Runs that interleave (a file's chunks split by another's) and gaps survive the encoding.
    const mixed = ChunkFiles.decode(ChunkFiles.fromPairs([[1, 7], [2, 7], [3, 2], [4, 7], [9, 3], [10, 3]]).encode());
    expect([1, 2, 3, 4, 5, 9, 10].map((id) => mixed.fileOf(id))).toEqual([7, 7, 2, 7, undefined, 3, 3]);
  });

  it('answers a filtered pass as the live index does, reading ahead only the chunks the filter lets through', () => {
    const q = parseQuery('button');
    const pass = (file: string) =>
      withDb(file, (db) => {
        const asked = new Map<string, number[]>();
        const session = new SearchSession(db, fflateCodec, (table, ids) => asked.set(table, [...(asked.get(table) ?? []), ...ids]));
        const hits = session.withPathFilter((p) => p.startsWith('Controls/'), () => ftsChannel.search(session, q, 50));
        const factory = new Set(db.selectValues("SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = 'Controls/Factory.cs'") as number[]);
        const matches = Number(db.selectValue(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '"button"'`));
        return { hits: hits.map((h) => ({ id: h.row.chunkId, path: h.row.path, score: h.score })), asked, factory, matches };
      });
    const a = pass(live);
    const b = pass(packed);
    expect(b.hits).toEqual(a.hits);
    expect(b.hits.length).toBe(b.factory.size);
    expect(b.matches).toBeGreaterThan(PANELS * 2);
    for (const table of ['chunks', 'chunks_fts_docsize']) {
      const ids = b.asked.get(table) ?? [];
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => b.factory.has(id))).toBe(true);
    }
  });

  it('asks its storage to fetch the records a first search reads (file list, chunk runs) ahead, each value in one read-ahead', () => {
    withDb(packed, (db) => {
      const asked: Array<[string, number[]]> = [];
      const session = new SearchSession(db, fflateCodec, (table, ids) => asked.push([table, [...ids]]));
      session.withPathFilter(null, () => {
        expect(session.indexedFiles().length).toBe(PANELS + 1);
        expect(session.chunkFiles()?.runs).toBe(PANELS + 1);
      });
      const rowids = (table: string) => (db.selectValues(`SELECT rowid FROM ${table}`) as number[]).map(Number);
      expect(asked).toEqual([['pack_file_list', rowids('pack_file_list')], ['pack_chunk_files', rowids('pack_chunk_files')]]);
    });
  });
});
