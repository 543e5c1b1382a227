// Reading an FTS5 table's structure record: how many segments it holds and on which levels (the
// compaction decides by it; the health check finds a damaged one). Owns only the decoding.
import type { Database } from '../sqlite/engine.ts';

/**
 * An FTS5 table's segment count and segments per level, read from its structure record (rowid 10
 * of its %_data table; fts5_index.c fts5StructureDecode: a 4-byte cookie, an optional version-2
 * marker, then varints — levels, segments, the write counter, and per level its merge count,
 * segment count and each segment's id and first and last page, plus five more in version 2).
 * Null when the record is missing or not readable.
 */
export function ftsStructure(db: Database, table: string): { segments: number; levels: number[] } | null {
  const b = db.selectValue(`SELECT block FROM ${table}_data WHERE id = 10`);
  if (!(b instanceof Uint8Array) || b.length < 6) return null;
  let i = 4;
  if (b[4] === 0xff && b[5] === 0 && b[6] === 0 && b[7] === 1) i = 8;
  const v2 = i === 8;
  const varint = (): number => {
    let v = 0;
    for (let k = 0; k < 9; k++) {
      if (i >= b.length) throw new RangeError('truncated');
      const c = b[i++];
      if (k === 8) return v * 256 + c;
      v = v * 128 + (c & 0x7f);
      if (c < 0x80) return v;
    }
    return v;
  };
  try {
    const nLevel = varint();
    const segments = varint();
    if (nLevel > 64 || segments > 100_000) return null; // FTS5_MAX_LEVEL; far more segments than FTS5 keeps
    varint(); // write counter
    const levels: number[] = [];
    for (let l = 0; l < nLevel; l++) {
      varint(); // segments being merged
      const n = varint();
      levels.push(n);
      for (let k = 0; k < n * (v2 ? 8 : 3); k++) varint();
    }
    // A sound record adds up and ends where its last segment does.
    if (levels.reduce((a, n) => a + n, 0) !== segments || i !== b.length) return null;
    return { segments, levels };
  } catch {
    return null;
  }
}
