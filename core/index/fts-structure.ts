// Reading an FTS5 table's structure record: how many segments it holds and on which levels (the
// compaction decides by it; the health check finds a damaged one), and each segment's id and leaf
// pages (a remote reader finds a term's doclist pages by them: doclist-pages.ts). Owns only the decoding.
import type { Database } from '../sqlite/engine.ts';

/** A segment of an FTS5 index: its id and its first and last leaf page. */
export interface FtsSegment {
  id: number;
  first: number;
  last: number;
}

/**
 * An FTS5 table's segment count and segments per level, read from its structure record (rowid 10
 * of its %_data table; fts5_index.c fts5StructureDecode: a 4-byte cookie, an optional version-2
 * marker, then varints — levels, segments, the write counter, and per level its merge count,
 * segment count and each segment's id and first and last page, plus five more in version 2).
 * Null when the record is missing or not readable.
 */
export function ftsStructure(db: Database, table: string): { segments: number; levels: number[]; list: FtsSegment[] } | null {
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
    const list: FtsSegment[] = [];
    for (let l = 0; l < nLevel; l++) {
      varint(); // segments being merged
      const n = varint();
      levels.push(n);
      for (let k = 0; k < n; k++) {
        list.push({ id: varint(), first: varint(), last: varint() });
        if (v2) for (let e = 0; e < 5; e++) varint(); // origins, tombstone pages and entries, entries
      }
    }
    // A sound record adds up and ends where its last segment does.
    if (levels.reduce((a, n) => a + n, 0) !== segments || i !== b.length) return null;
    return { segments, levels, list };
  } catch {
    return null;
  }
}
