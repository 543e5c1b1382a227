// The exact-name lookup of definition-first (core/search/declarations.ts namedFiles): where a name is
// declared beyond the search's candidates. A workspace where one method is named `Button` in a file
// not named after it (Controls/Factory.cs) and 40 classes merely hold the word in their names
// (Gen/ButtonPanelN.cs: their member chunks' symbol column matches "button"), indexed and packed. A packed
// index answers the exact name from its covering index chunks_by_symbol (core/index/pack.ts), not
// from the FTS match joined to every matching chunk's row: with the keyword index emptied in a copy,
// the packed file still finds Factory.cs and the live one does not. Both answer the same declarations,
// and the rows read ahead for the lookup (a remote index's requests) are a batch of the ranked chunks,
// not the row of every chunk whose symbol holds the word (from a packed index, whose chunk → file runs
// tell the ranked chunks' files, only the declaring file's chunks).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as path from 'node:path';
import { loadEngine, type SqliteEngine } from '../core/sqlite/engine.ts';
import { SearchSession } from '../core/search/session.ts';
import { findDeclarations } from '../core/search/declarations.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import { memberMethods, packedButtonPanels, withoutKeywordIndex, type PackedPanels } from './helpers/published-index.ts';

const PANELS = 40;

describe('declarations: the exact-name lookup', () => {
  let engine: SqliteEngine;
  let fixture: PackedPanels;
  let live: string;
  let packed: string;

  beforeAll(async () => {
    engine = await loadEngine();
    const long = Array.from({ length: 40 }, (_, k) => `        x += ${k};\n`).join('');
    // Member chunks keyed ButtonPanelN.WidthJ: their symbol column holds "button".
    fixture = await packedButtonPanels(
      `namespace Demo.Controls;\n\npublic class Factory\n{\n${memberMethods('Press', 10)}    public int Button(int x)\n    {\n${long}        return x;\n    }\n}\n`,
      { panels: PANELS, prefix: 'hci-decl-lookup' },
    );
    ({ live, packed } = fixture);
  }, 120_000);

  afterAll(async () => {
    await fixture?.cleanup();
  });

  /** findDeclarations of `Button` with no candidates over `file`, and the chunk rows it read ahead. */
  const lookup = (file: string) => {
    const db = nodePackTarget(file).open(file, engine);
    try {
      const chunkRows: number[] = [];
      const session = new SearchSession(db, fflateCodec, (table, ids) => {
        if (table === 'chunks') chunkRows.push(...ids);
      });
      const decls = session.withPathFilter(null, () => findDeclarations(session, ['Button'], []));
      const matches = Number(db.selectValue(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '{symbol} : "button"'`));
      const files = new Map(db.selectArrays('SELECT id, path FROM files') as Array<[number, string]>);
      const factory = db.selectValues("SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = 'Controls/Factory.cs' ORDER BY c.id") as number[];
      return { decls: decls.map((d) => ({ path: files.get(d.fileId), chunkId: d.chunkId, name: d.name, kind: d.kind, line: d.line })), chunkRows, matches, factory };
    } finally {
      db.close();
    }
  };

  /** A copy of the index with its keyword index emptied. */
  const withoutFts = (file: string, name: string) => withoutKeywordIndex(engine, file, path.join(path.dirname(packed), name));

  it('answers the same declarations from the live and the packed index, reading ahead a batch of rows, not every match', () => {
    const a = lookup(live);
    const b = lookup(packed);
    expect(a.decls).toEqual(b.decls);
    expect(a.decls).toEqual([expect.objectContaining({ path: 'Controls/Factory.cs', name: 'Button', kind: 'method', line: 55 })]);
    expect(a.matches).toBeGreaterThan(PANELS);
    // The live index reads the rows of one batch of ranked chunks; the packed one tells their files
    // from its chunk → file runs (core/index/chunk-files.ts) and reads only the declaring file's chunks (to place it).
    expect(a.chunkRows.length).toBeGreaterThan(0);
    expect(a.chunkRows.length).toBeLessThanOrEqual(16);
    expect(b.chunkRows).toEqual(b.factory);
  });

  it('finds the exactly named chunk in a packed index from its symbol index, without the keyword index', () => {
    expect(lookup(withoutFts(packed, 'packed-nofts.sqlite')).decls.map((d) => d.path)).toEqual(['Controls/Factory.cs']);
    expect(lookup(withoutFts(live, 'live-nofts.sqlite')).decls).toEqual([]);
  });

  it('does not answer an unfiltered search with the files a filtered one was allowed', () => {
    const db = nodePackTarget(live).open(live, engine);
    try {
      const session = new SearchSession(db, fflateCodec);
      const files = new Map(db.selectArrays('SELECT id, path FROM files') as Array<[number, string]>);
      const paths = () => findDeclarations(session, ['Button'], []).map((d) => files.get(d.fileId));
      expect(session.withPathFilter((p) => p.startsWith('Gen/'), paths)).toEqual([]);
      expect(session.withPathFilter(null, paths)).toEqual(['Controls/Factory.cs']);
    } finally {
      db.close();
    }
  });
});
