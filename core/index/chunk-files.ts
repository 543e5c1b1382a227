// Which file each chunk belongs to, as a packed index carries it for a remote reader (core/index/pack.ts
// writes it, core/search/session.ts reads it): the chunk ids in runs of consecutive ids of one file
// (a file's chunks are written together, so Avalonia's 41k chunks are ~4.8k runs), deflated in a
// table of its own beside the index generation it maps. A filtered search asks which of a word's
// matching chunks lie in files the filter lets through: from the chunk rows that was every matching
// chunk's row (~2.2 MB of Avalonia's chunk pages over HTTP for `path:src Window`), from this a few
// pages. Owns the runs and their encoding; the table and the generation check are
// generation-record.ts's, the runs' uses the search's.
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';
import { readRecord, writeRecord } from './generation-record.ts';

export const PACKED_CHUNK_FILES = 'pack_chunk_files';


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

/** Writes the chunk → file runs of `db`, for its current generation, deflated (inside the pack's transaction). */
export function writePackedChunkFiles(db: Database, codec: DeflateCodec): void {
  const pairs = db.selectArrays('SELECT id, file_id FROM chunks ORDER BY id') as Array<[number, number]>;
  writeRecord(db, PACKED_CHUNK_FILES, JSON.stringify(ChunkFiles.fromPairs(pairs.map(([id, file]) => [Number(id), Number(file)] as const)).encode()), codec);
}

/** The packed chunk → file runs, when `db` carries them written at its current generation; else null (a live index). */
export function readPackedChunkFiles(db: Database, codec: DeflateCodec): ChunkFiles | null {
  const json = readRecord(db, PACKED_CHUNK_FILES, codec);
  return json === null ? null : ChunkFiles.decode(JSON.parse(json) as number[]);
}
