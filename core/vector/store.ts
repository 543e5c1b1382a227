// The semantic channel's rows in the index file (format 4's vector_models and chunk_vectors,
// core/index/schema.ts): which model is current, its key, int8 scale, the learned model's bytes and
// its bookkeeping; one vector per chunk with the hash of the text it came from (the embedding cache);
// loading one model's vectors packed for the scan; and the vector state status reports. Runs inside
// the caller's transactions (the store's read/write). Owns the SQL of those tables; which chunks to
// embed is the vector indexer's, ranking the scan's and the channel's.
import type { Database } from '../sqlite/engine.ts';
import { CURRENT_TEXT_HASH, textHash, type TextHashKind } from './text-hash.ts';
import { readStoredFile, type DeflateCodec } from '../index/file-data.ts';
import { sliceLines } from '../index/fts-row.ts';
import { setMeta } from '../index/meta.ts';
import type { PackedVectors } from './knn.ts';
import { chunkEmbeddingText, modelKeyString, type ModelKey, type VectorQuantization } from './provider.ts';

/** A vector_models row. */
export interface StoredModel {
  id: number;
  key: ModelKey;
  /** int8: a stored value q stands for q × scale (null until the first vectors fitted it). */
  scale: number | null;
  info: ModelInfo;
  createdAt: string;
}

/** What the model row keeps besides its key (JSON). */
export interface ModelInfo {
  /** learned: chunks the model was trained on. */
  trainedChunks?: number;
  /** learned: coverage of the chunks embedded since training (the drift verdict's input). */
  since?: { texts: number; tokens: number; oov: number };
  /** The hash function its vectors' text_hash keys are made with (text-hash.ts; absent: sha256-8, the rows of an index from before). */
  textHash?: TextHashKind;
  [k: string]: unknown;
}

/** The vector channel's state as meta keeps it (status reads it). */
export interface VectorState {
  provider: string;
  /** The last vector phase's failure, if its last run failed (cleared by a run that completes). */
  last_error: { code: string; message: string; hint: string; at: string } | null;
  last_run: { at: string; embedded: number; reused: number; trained: boolean; took_ms: number; complete: boolean } | null;
}

export { hashKey, textHash, textHashKindOf } from './text-hash.ts';

/**
 * Runs a fixed statement and returns its first row's columns (undefined: no row). A search passes
 * its session's (statements prepared once per connection: SearchSession.arrays); the default
 * prepares the statement for this one call.
 */
export type FirstRow = (sql: string) => unknown[] | undefined;

export function currentModel(db: Database, first: FirstRow = (sql) => db.selectArray(sql) as unknown[] | undefined): StoredModel | null {
  const r = first('SELECT id, provider, model, dims, quantization, scale, info, created_at FROM vector_models WHERE current = 1 ORDER BY id DESC LIMIT 1') as
    | [number, string, string, number, string, number | null, string, string]
    | undefined;
  if (!r) return null;
  return {
    id: Number(r[0]),
    key: { provider: r[1], model: r[2], dims: Number(r[3]), quantization: r[4] as VectorQuantization },
    scale: r[5] === null ? null : Number(r[5]),
    info: parseJson<ModelInfo>(r[6], {}),
    createdAt: r[7],
  };
}

/** The learned model's bytes of a model row. */
export function modelData(db: Database, modelId: number): Uint8Array | null {
  const v = db.selectValue('SELECT data FROM vector_models WHERE id = ?', [modelId]) as Uint8Array | undefined | null;
  return v ?? null;
}

/**
 * Makes `key` the current model and returns its row id. The same key keeps its row and vectors
 * (data, scale and info are updated when given); another key drops every other model and all their
 * vectors first (one model's vectors at a time: they are comparable only with themselves). A new
 * row's vectors are keyed with the current text hash unless `info` names another.
 */
export function setCurrentModel(db: Database, key: ModelKey, opts: { scale?: number | null; data?: Uint8Array | null; info?: ModelInfo } = {}): number {
  const cur = currentModel(db);
  if (cur && modelKeyString(cur.key) === modelKeyString(key)) {
    if (opts.scale !== undefined) db.exec('UPDATE vector_models SET scale = ? WHERE id = ?', { bind: [opts.scale, cur.id] });
    if (opts.data !== undefined) db.exec('UPDATE vector_models SET data = ? WHERE id = ?', { bind: [opts.data, cur.id] });
    // The row's text hash stays named unless the new info names one (its vectors were keyed with it).
    if (opts.info !== undefined) db.exec('UPDATE vector_models SET info = ? WHERE id = ?', { bind: [JSON.stringify({ textHash: cur.info.textHash, ...opts.info }), cur.id] });
    return cur.id;
  }
  db.exec('DELETE FROM chunk_vectors');
  db.exec('DELETE FROM vector_models');
  db.exec(
    'INSERT INTO vector_models(provider, model, dims, quantization, scale, current, data, info, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)',
    { bind: [key.provider, key.model, key.dims, key.quantization, opts.scale ?? null, opts.data ?? null, JSON.stringify({ textHash: CURRENT_TEXT_HASH, ...opts.info }), new Date().toISOString()] },
  );
  return Number(db.selectValue('SELECT last_insert_rowid()'));
}

export function updateModelInfo(db: Database, modelId: number, info: ModelInfo): void {
  db.exec('UPDATE vector_models SET info = ? WHERE id = ?', { bind: [JSON.stringify(info), modelId] });
}

/** Encodes a row of floats the way the model stores it (int8 with its scale, or f32), as sqlite-vec's BLOB. */
export function encodeVector(v: Float32Array, quantization: VectorQuantization, scale: number | null): Uint8Array {
  if (quantization === 'f32') return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  const out = new Uint8Array(v.length);
  encodeInt8Into(v, scale!, out, 0);
  return out;
}

/** The int8 encoding of a row of floats (round half up, clipped to ±127, NaN → 0) into out[at …]. */
export function encodeInt8Into(v: Float32Array, scale: number, out: Uint8Array, at: number): void {
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i] / scale);
    const c = q > 127 ? 127 : q < -127 ? -127 : q === q ? q : 0;
    out[at + i] = c & 0xff;
  }
}

/**
 * Writes many vector rows in one statement inside a write transaction: row k is chunk ids[k], its
 * text hash bytes 8k…8k+7 of `hashes`, its vector bytes width·k… of `vecs`. SQLite cuts the rows
 * out of the three blobs itself (json_each over the ids, substr over the blobs), so a batch costs
 * four binds instead of five per row — the per-row binds through the WASM boundary were most of
 * the write step's time at 50k chunks. The same rule as VectorRows.write: only chunks that exist.
 */
export function writeVectorBatch(db: Database, modelId: number, ids: ArrayLike<number>, hashes: Uint8Array, vecs: Uint8Array, width: number): void {
  if (!ids.length) return;
  if (hashes.length !== ids.length * 8 || vecs.length !== ids.length * width) throw new RangeError(`a batch of ${ids.length} rows needs ${ids.length * 8} hash and ${ids.length * width} vector bytes`);
  db.exec(
    `INSERT OR REPLACE INTO chunk_vectors(chunk_id, model_id, text_hash, vec)
     SELECT j.value, ?1, substr(?2, j.key * 8 + 1, 8), substr(?3, j.key * ?4 + 1, ?4) FROM json_each(?5) j
     WHERE EXISTS (SELECT 1 FROM chunks WHERE id = j.value)`,
    { bind: [modelId, hashes, vecs, width, JSON.stringify(Array.from(ids))] },
  );
}

/** Writes vector rows inside a write transaction (prepared once per transaction; close() before it ends). */
export class VectorRows {
  private readonly put;
  private readonly cached;

  constructor(private readonly db: Database, private readonly modelId: number) {
    // Only for chunks that still exist: a vector can never outlive (or precede) its chunk.
    this.put = db.prepare('INSERT OR REPLACE INTO chunk_vectors(chunk_id, model_id, text_hash, vec) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)');
    this.cached = db.prepare('SELECT vec FROM chunk_vectors WHERE model_id = ? AND text_hash = ? LIMIT 1');
  }

  write(chunkId: number, hash: Uint8Array, vec: Uint8Array): void {
    this.put.bind([chunkId, this.modelId, hash, vec, chunkId]).stepReset();
  }

  /** The vector of another chunk with the same text under this model (the embedding cache), if any. */
  lookup(hash: Uint8Array): Uint8Array | undefined {
    this.cached.bind([this.modelId, hash]);
    try {
      return this.cached.step() ? (this.cached.getBlob(0) as Uint8Array) : undefined;
    } finally {
      this.cached.reset();
    }
  }

  close(): void {
    this.put.finalize();
    this.cached.finalize();
  }
}

/**
 * Packs every vector of a model, in chunk id order (the scan's rows, the ids its tie-break). One
 * row comes back: the ids as text and the vectors concatenated into one BLOB by SQLite itself
 * (group_concat of hex, then unhex), so 50k rows cost one copy instead of 50k steps through the
 * WASM boundary. Rows of another width (not this model's) are left out.
 */
export function loadPackedVectors(db: Database, model: StoredModel): PackedVectors {
  const { dims, quantization } = model.key;
  const width = quantization === 'int8' ? dims : dims * 4;
  const row = db.selectArray(
    `SELECT count(*), group_concat(chunk_id, ',' ORDER BY chunk_id), unhex(group_concat(hex(vec), '' ORDER BY chunk_id))
     FROM chunk_vectors WHERE model_id = ? AND length(vec) = ?`,
    [model.id, width],
  ) as [number, string | null, Uint8Array | null];
  const n = Number(row[0]);
  const ids = new Int32Array(n);
  if (n > 0) {
    const text = row[1]!;
    let v = 0;
    let k = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 44) {
        ids[k++] = v;
        v = 0;
      } else v = v * 10 + (c - 48);
    }
    ids[k] = v;
  }
  const blob = n > 0 ? row[2]! : new Uint8Array(0);
  const buf = blob.byteOffset === 0 && blob.byteLength === blob.buffer.byteLength ? blob.buffer : blob.slice().buffer;
  const data = quantization === 'int8' ? new Int8Array(buf, 0, n * dims) : new Float32Array(buf, 0, n * dims);
  return { dims, quantization, data, scale: model.scale ?? undefined, ids };
}

/** One chunk as the vector indexer embeds it. */
export interface ChunkText {
  id: number;
  text: string;
  hash: Uint8Array;
}

/**
 * The chunk texts of some files, in file id then ordinal order: the text every provider embeds
 * (chunkEmbeddingText: path, header as indexed, body), cut from each file's stored blob.
 * `missingOnly`: only chunks without a vector of `modelId`; `hash`: the text hash of the model the
 * texts are for (default: the current one, a new model's).
 */
export function chunkTextsOfFiles(db: Database, codec: DeflateCodec, fileIds: readonly number[], opts: { modelId?: number; missingOnly?: boolean; hash?: TextHashKind } = {}): ChunkText[] {
  const out: ChunkText[] = [];
  const st = db.prepare(
    opts.missingOnly
      ? 'SELECT c.id, c.ordinal, c.start_line, c.end_line FROM chunks c WHERE c.file_id = ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model_id = ?) ORDER BY c.ordinal'
      : 'SELECT c.id, c.ordinal, c.start_line, c.end_line FROM chunks c WHERE c.file_id = ? ORDER BY c.ordinal',
  );
  try {
    for (const fileId of fileIds) {
      st.bind(opts.missingOnly ? [fileId, opts.modelId ?? -1] : [fileId]);
      const rows: Array<[number, number, number, number]> = [];
      while (st.step()) rows.push([st.getInt(0) as number, st.getInt(1) as number, st.getInt(2) as number, st.getInt(3) as number]);
      st.reset();
      if (!rows.length) continue;
      const path = db.selectValue('SELECT path FROM files WHERE id = ?', [fileId]) as string;
      const stored = readStoredFile(db, fileId, codec);
      if (!stored) continue;
      for (const [id, ordinal, start, end] of rows) {
        const text = chunkEmbeddingText({ path, header: stored.headers[ordinal] ?? '', body: sliceLines(stored.lines, start, end) });
        out.push({ id, text, hash: textHash(text, opts.hash) });
      }
    }
  } finally {
    st.finalize();
  }
  return out;
}

/** File ids, in id order, of files that have chunks lacking a vector of the model (all files with chunks when modelId is null). */
export function filesNeedingVectors(db: Database, modelId: number | null): number[] {
  const sql = modelId === null
    ? 'SELECT DISTINCT file_id FROM chunks ORDER BY file_id'
    : 'SELECT DISTINCT c.file_id FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model_id = ?) ORDER BY c.file_id';
  return (db.selectValues(sql, modelId === null ? undefined : [modelId]) as number[]).map(Number);
}

export function readVectorState(db: Database): VectorState | null {
  const v = db.selectValue("SELECT value FROM meta WHERE key = 'vector_state'") as string | undefined;
  return v ? parseJson<VectorState | null>(v, null) : null;
}

export function writeVectorState(db: Database, state: VectorState): void {
  setMeta(db, { vector_state: JSON.stringify(state) });
}

/** Bumped by every commit that changes vectors: the scan's cache key, with the index generation. */
export function bumpVectorGeneration(db: Database): void {
  const g = Number(db.selectValue("SELECT value FROM meta WHERE key = 'vector_generation'") ?? 0) + 1;
  setMeta(db, { vector_generation: g });
}

function parseJson<T>(s: string, fallback: T): T {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}
