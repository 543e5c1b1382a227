// A file's chunks' FTS values packed for another thread (ready-rows.ts makes them in a parse worker,
// writer.ts binds them): UTF-8 in a few buffers, which postMessage transfers instead of cloning strings,
// and which SQLite is given as they are (FastStatement's Utf8Text: no string is made or encoded on the
// writer's thread); the bodies as ranges of the file's text, sent once. Owns that layout only; the
// values are fts-row.ts's.
import { Utf8Text } from '../sqlite/fast-statement.ts';

/**
 * The FTS values of a file's chunks. A chunk's body is a run of the file's stored text, and chunks
 * overlap (windows, doc comments): the text is sent once and each body is a byte range of it; the
 * other columns' values follow one another in `utf8`, FTS_COLUMNS - 1 a chunk in column order, value v
 * ending at ends[v].
 */
export interface PackedFts {
  /** The stored text's UTF-8 (its lines joined by '\n', as file-data.ts stores it). */
  text: Uint8Array;
  /** Chunk i's body: text bytes bodies[2i] up to bodies[2i + 1]. */
  bodies: Uint32Array;
  utf8: Uint8Array;
  ends: Uint32Array;
}

/** The chunks_fts columns (fts-row.ts FtsValues order). */
export const FTS_COLUMNS = 6;
/** The body's column. */
const BODY = 3;

const encoder = new TextEncoder();

/**
 * Packs `rows` (one FtsValues a chunk, from storedChunkFts over the file's stored text), whose bodies
 * are the lines startLine..endLine of `text` (sliceLines): the bodies become ranges of the text.
 */
export function packFts(rows: ReadonlyArray<readonly string[]>, text: string, chunks: ReadonlyArray<{ startLine: number; endLine: number }>): PackedFts {
  const textBytes = encoder.encode(text);
  // Where each line starts in the text's bytes: a 0x0A byte is a '\n' in UTF-8, and only the joins are.
  const starts = [0];
  for (let j = textBytes.indexOf(10); j >= 0; j = textBytes.indexOf(10, j + 1)) starts.push(j + 1);
  const bodies = new Uint32Array(chunks.length * 2);
  chunks.forEach((c, i) => {
    const from = c.startLine - 1;
    const to = Math.min(c.endLine, starts.length);
    if (from >= to) return; // lines.slice(from, to) is empty: so is the body
    bodies[2 * i] = starts[from];
    bodies[2 * i + 1] = to < starts.length ? starts[to] - 1 : textBytes.length;
  });
  let size = 0;
  for (const r of rows) for (let c = 0; c < FTS_COLUMNS; c++) if (c !== BODY) size += r[c].length * 3;
  const buf = new Uint8Array(size);
  const ends = new Uint32Array(rows.length * (FTS_COLUMNS - 1));
  let at = 0;
  let v = 0;
  for (const r of rows) {
    for (let c = 0; c < FTS_COLUMNS; c++) {
      if (c === BODY) continue;
      at += encoder.encodeInto(r[c], buf.subarray(at)).written;
      ends[v++] = at;
    }
  }
  // A copy of the part in use: the buffer crosses threads whole.
  return { text: textBytes, bodies, utf8: buf.slice(0, at), ends };
}

/** Chunk `ordinal`'s FTS values from a PackedFts, in column order, as bind values (views into its buffers). */
export function packedFtsRow(p: PackedFts, ordinal: number): Utf8Text[] {
  const out: Utf8Text[] = [];
  let v = ordinal * (FTS_COLUMNS - 1);
  for (let c = 0; c < FTS_COLUMNS; c++) {
    if (c === BODY) {
      out.push(new Utf8Text(p.text.subarray(p.bodies[2 * ordinal], p.bodies[2 * ordinal + 1])));
      continue;
    }
    out.push(new Utf8Text(p.utf8.subarray(v === 0 ? 0 : p.ends[v - 1], p.ends[v])));
    v++;
  }
  return out;
}
