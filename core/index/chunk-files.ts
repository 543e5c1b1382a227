// Which file each chunk belongs to, as a packed index carries it for a remote reader (core/index/pack.ts
// writes it, core/search/session.ts reads it): the chunk ids in runs of consecutive ids of one file
// (a file's chunks are written together, so Avalonia's 41k chunks are ~4.8k runs), deflated in a
// table of its own beside the index generation it maps. A filtered search asks which of a word's
// matching chunks lie in files the filter lets through: from the chunk rows that was every matching
// chunk's row (~2.2 MB of Avalonia's chunk pages over HTTP for `path:src Window`), from this a few
// pages. Owns the table, its encoding and when a reader may trust it (same generation); its uses are
// the search's.
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';

export const PACKED_CHUNK_FILES = 'pack_chunk_files';

const NO_DICTIONARY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const GENERATION = "(SELECT value FROM meta WHERE key = 'generation')";

/** Chunk id → file id over runs of consecutive chunk ids. */
export class ChunkFiles {
  /** Run i covers chunk ids starts[i] … starts[i] + counts[i] - 1, all of file files[i]; starts ascending. */
  constructor(
    private readonly starts: Float64Array,
    private readonly counts: Float64Array,
    private readonly files: Float64Array,
  ) {}

  /** The runs of `[chunkId, fileId]` pairs given in ascending chunk id. */
  static fromPairs(pairs: Iterable<readonly [number, number]>): ChunkFiles {
    const starts: number[] = [];
    const counts: number[] = [];
    const files: number[] = [];
    for (const [id, file] of pairs) {
      const last = starts.length - 1;
      if (last >= 0 && files[last] === file && starts[last] + counts[last] === id) counts[last]++;
      else (starts.push(id), counts.push(1), files.push(file));
    }
    return new ChunkFiles(Float64Array.from(starts), Float64Array.from(counts), Float64Array.from(files));
  }

  private byFile: Map<number, number[]> | null = null;

  /** The chunk ids of a file, ascending (empty: none). */
  chunksOf(fileId: number): readonly number[] {
    if (!this.byFile) {
      this.byFile = new Map();
      for (let i = 0; i < this.starts.length; i++) {
        let list = this.byFile.get(this.files[i]);
        if (!list) this.byFile.set(this.files[i], (list = []));
        for (let k = 0; k < this.counts[i]; k++) list.push(this.starts[i] + k);
      }
    }
    return this.byFile.get(fileId) ?? [];
  }

  get runs(): number {
    return this.starts.length;
  }

  /** The file of a chunk (undefined: no such chunk). */
  fileOf(chunkId: number): number | undefined {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] > chunkId) hi = mid - 1;
      else if (this.starts[mid] + this.counts[mid] <= chunkId) lo = mid + 1;
      else return this.files[mid];
    }
    return undefined;
  }

  /** Flat [start delta, count, file id delta]… : small numbers, which deflate well. */
  encode(): number[] {
    const out: number[] = [];
    let start = 0;
    let file = 0;
    for (let i = 0; i < this.starts.length; i++) {
      out.push(this.starts[i] - start, this.counts[i], this.files[i] - file);
      start = this.starts[i];
      file = this.files[i];
    }
    return out;
  }

  static decode(flat: readonly number[]): ChunkFiles {
    const n = Math.floor(flat.length / 3);
    const starts = new Float64Array(n);
    const counts = new Float64Array(n);
    const files = new Float64Array(n);
    let start = 0;
    let file = 0;
    for (let i = 0; i < n; i++) {
      start += flat[3 * i];
      file += flat[3 * i + 2];
      starts[i] = start;
      counts[i] = flat[3 * i + 1];
      files[i] = file;
    }
    return new ChunkFiles(starts, counts, files);
  }
}

/** Writes the chunk → file runs of `db`, for its current generation (inside the pack's transaction). */
export function writePackedChunkFiles(db: Database, codec: DeflateCodec): void {
  const pairs = db.selectArrays('SELECT id, file_id FROM chunks ORDER BY id') as Array<[number, number]>;
  const json = JSON.stringify(ChunkFiles.fromPairs(pairs.map(([id, file]) => [Number(id), Number(file)] as const)).encode());
  db.exec(`DROP TABLE IF EXISTS ${PACKED_CHUNK_FILES}; CREATE TABLE ${PACKED_CHUNK_FILES}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  db.exec({ sql: `INSERT INTO ${PACKED_CHUNK_FILES}(generation, data) VALUES (coalesce(${GENERATION}, ''), ?)`, bind: [codec.deflateRaw(encoder.encode(json), NO_DICTIONARY)] });
}

/** The packed chunk → file runs, when `db` carries them written at its current generation; else null (a live index). */
export function readPackedChunkFiles(db: Database, codec: DeflateCodec): ChunkFiles | null {
  if (db.selectValue(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${PACKED_CHUNK_FILES}'`) === undefined) return null;
  const data = db.selectValue(`SELECT data FROM ${PACKED_CHUNK_FILES} WHERE generation = coalesce(${GENERATION}, '') LIMIT 1`);
  if (!(data instanceof Uint8Array)) return null;
  return ChunkFiles.decode(JSON.parse(decoder.decode(codec.inflateRaw(data, NO_DICTIONARY))) as number[]);
}
