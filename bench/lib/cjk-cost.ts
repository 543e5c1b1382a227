// What the CJK column (chunks_fts.cjk, core/search/cjk.ts) costs an index: a copy of an index file
// gets its keyword table rebuilt twice from the stored blobs by core's own row function — once as
// format 5 had it (five columns), once as it is (six, with cjk: format 6) — each vacuumed, and the two sizes
// compared; plus how many chunks have CJK text at all. Owns that measurement only (the literal
// bench reports it for the generated .NET solution: the target is ≤ 2% growth without CJK).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from '../../core/sqlite/engine.ts';
import { readStoredFile, storedFtsRows } from '../../core/index/file-data.ts';
import { fflateCodec } from '../../core/index/fflate-codec.ts';
import { CHUNKS_FTS } from '../../core/index/schema.ts';
import { openIndex } from './chunks.ts';

export interface CjkCost {
  chunks: number;
  /** Chunks whose cjk column holds any bigram. */
  cjkChunks: number;
  /** The whole index file, vacuumed, with the five-column keyword table (format 5's). */
  withoutCjkBytes: number;
  /** The same with the six-column table (format 6's). */
  withCjkBytes: number;
  /** withCjkBytes / withoutCjkBytes − 1. */
  growth: number;
}

const FIVE_COLUMNS = CHUNKS_FTS.replace('idents, cjk,', 'idents,');
if (FIVE_COLUMNS === CHUNKS_FTS) throw new Error('cjk-cost: chunks_fts no longer ends its columns with idents, cjk');

/** Rebuilds chunks_fts in the given shape from the blobs, vacuums, returns the file's bytes. */
function rebuilt(db: Database, ddl: string, columns: 5 | 6): { bytes: number; chunks: number; cjkChunks: number } {
  db.exec('DROP TABLE chunks_fts');
  db.exec(ddl);
  const names = ['path', 'symbol', 'header', 'body', 'idents', 'cjk'].slice(0, columns);
  const st = db.prepare(`INSERT INTO chunks_fts(rowid, ${names.join(', ')}) VALUES (?${', ?'.repeat(columns)})`);
  let chunks = 0;
  let cjkChunks = 0;
  db.exec('BEGIN');
  try {
    for (const [id, p] of db.selectArrays('SELECT id, path FROM files ORDER BY id') as Array<[number, string]>) {
      const stored = readStoredFile(db, Number(id), fflateCodec);
      if (!stored) continue;
      for (const row of storedFtsRows(db, Number(id), String(p), stored)) {
        chunks++;
        if (row.values[5]) cjkChunks++;
        st.bind([row.id, ...row.values.slice(0, columns)]).stepReset();
      }
    }
    db.exec('COMMIT');
  } finally {
    st.finalize();
  }
  db.exec('VACUUM');
  return { bytes: Number(db.selectValue('PRAGMA page_count')) * Number(db.selectValue('PRAGMA page_size')), chunks, cjkChunks };
}

/** The CJK column's cost on the index at `<workspaceRoot>/.hci/index.sqlite` (measured on a copy). */
export async function cjkColumnCost(workspaceRoot: string): Promise<CjkCost> {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-cjk-cost-'));
  try {
    fs.mkdirSync(path.join(copy, '.hci'));
    fs.copyFileSync(path.join(workspaceRoot, '.hci', 'index.sqlite'), path.join(copy, '.hci', 'index.sqlite'));
    const db = await openIndex(copy);
    try {
      const without = rebuilt(db, FIVE_COLUMNS, 5);
      const withCjk = rebuilt(db, CHUNKS_FTS, 6);
      return { chunks: withCjk.chunks, cjkChunks: withCjk.cjkChunks, withoutCjkBytes: without.bytes, withCjkBytes: withCjk.bytes, growth: withCjk.bytes / without.bytes - 1 };
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
