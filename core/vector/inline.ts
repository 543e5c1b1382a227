// Vectors written in the same transaction as their chunks, during a keyword indexing pass: the
// vectors of a file's old chunks are kept aside before the writer deletes them, and each new chunk
// gets the vector of an identical text under the current model (that file's old chunk, or any
// other chunk: the embedding cache keyed by text hash and model), or — when the provider embeds
// synchronously (the learned model) — a new vector on the spot. Chunks left without one (an async
// provider's misses) are the vector indexer's backfill. New rows are held back and written a batch
// at a time (before a file's delete, every 2,048 rows, and when the transaction's writer closes).
// Owns that per-transaction bookkeeping; the SQL is store.ts's, the writer calls it
// (core/index/writer.ts ChunkVectorSink).
import type { Database } from '../sqlite/engine.ts';
import type { ChunkVectorSink } from '../index/writer.ts';
import type { Coverage } from './learned/model.ts';
import { TokenCorpusBuilder } from './learned/cooccur.ts';
import { ModelTokenizer } from './learned/tokens.ts';
import { encodeInt8Into, encodeVector, hashKey, textHash, textHashKindOf, VectorRows, writeVectorBatch, type StoredModel } from './store.ts';

/** Embeds texts at once (unit-length rows), with how much of them the model knew (learned: the drift input). */
export type SyncEmbed = (texts: readonly string[]) => { vectors: Float32Array; coverage?: Coverage };

export interface InlineStats {
  reused: number;
  embedded: number;
  /** Chunks left for the backfill (no cached vector, no synchronous embedder). */
  deferred: number;
  coverage: Coverage;
}

/**
 * The chunk texts a pass wrote, fed to the learned model's corpus builder as they are written (the
 * main thread has idle time while the parse worker works): when the pass rewrote every chunk (a
 * first or a full build), the trainer starts from this corpus instead of reading the index again.
 */
export class TrainingCollector {
  readonly builder = new TokenCorpusBuilder(new ModelTokenizer());
  ids = new Int32Array(1024);
  hashes = new Uint8Array(1024 * 8);
  count = 0;

  add(id: number, hash: Uint8Array, text: string): void {
    this.builder.add(text);
    if (this.count === this.ids.length) {
      const gi = new Int32Array(this.ids.length * 2);
      gi.set(this.ids);
      this.ids = gi;
      const gh = new Uint8Array(this.hashes.length * 2);
      gh.set(this.hashes);
      this.hashes = gh;
    }
    this.ids[this.count] = id;
    this.hashes.set(hash, this.count * 8);
    this.count++;
  }
}

/** One indexing pass's inline vectors: `begin(db)` per write transaction. */
export class InlineVectors {
  readonly stats: InlineStats = { reused: 0, embedded: 0, deferred: 0, coverage: { texts: 0, tokens: 0, oov: 0 } };

  /**
   * Whether the model had no vector when the pass began (its first transaction): then the cache
   * can only hold this pass's own rows, and a chunk text names its path, so only a repeated text
   * of the same file could hit — re-embedding it gives the same bits for less than a lookup per chunk.
   */
  private emptyAtStart: boolean | undefined;

  constructor(private readonly model: StoredModel | null, private readonly embed?: SyncEmbed, readonly collector?: TrainingCollector) {}

  begin(db: Database): ChunkVectorSink & { close(): void } {
    const { model, stats, collector } = this;
    if (!model) {
      // No model yet (or one about to be replaced): only collect the texts for training.
      return { harvest() {}, put: (_db, chunks) => { for (const c of chunks) collector?.add(c.id, textHash(c.text), c.text); }, close() {} };
    }
    const rows = new VectorRows(db, model.id);
    this.emptyAtStart ??= db.selectValue('SELECT 1 FROM chunk_vectors WHERE model_id = ? LIMIT 1', [model.id]) === undefined;
    const lookup = !this.emptyAtStart;
    const kind = textHashKindOf(model.info);
    const { dims, quantization } = model.key;
    const pending = new PendingVectors(quantization === 'int8' ? dims : dims * 4);
    const flush = () => {
      pending.flush(db, model.id);
    };
    const harvested = new Map<string, Uint8Array>();
    const harvest = db.prepare('SELECT v.text_hash, v.vec FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.file_id = ? AND v.model_id = ?');
    return {
      harvest(_db, fileId) {
        // A file about to be deleted: its chunks' rows are written first, so its delete takes them too.
        flush();
        harvest.bind([fileId, model.id]);
        try {
          while (harvest.step()) harvested.set(hashKey(harvest.getBlob(0) as Uint8Array), harvest.getBlob(1) as Uint8Array);
        } finally {
          harvest.reset();
        }
      },
      put: (_db, chunks) => {
        const misses: Array<{ id: number; text: string; hash: Uint8Array }> = [];
        for (const c of chunks) {
          const hash = textHash(c.text, kind);
          collector?.add(c.id, hash, c.text);
          const vec = (harvested.size ? harvested.get(hashKey(hash)) : undefined) ?? (lookup ? rows.lookup(hash) : undefined);
          if (vec) {
            if (vec.length === pending.width) pending.add(c.id, hash, vec);
            else rows.write(c.id, hash, vec);
            stats.reused++;
          } else misses.push({ id: c.id, text: c.text, hash });
        }
        if (misses.length) {
          if (!this.embed || (quantization === 'int8' && model.scale === null)) {
            stats.deferred += misses.length;
          } else {
            const { vectors, coverage } = this.embed(misses.map((m) => m.text));
            for (let i = 0; i < misses.length; i++) {
              const v = vectors.subarray(i * dims, (i + 1) * dims);
              if (quantization === 'int8') pending.addInt8(misses[i].id, misses[i].hash, v, model.scale!);
              else pending.add(misses[i].id, misses[i].hash, encodeVector(v, quantization, model.scale));
            }
            stats.embedded += misses.length;
            if (coverage) {
              stats.coverage.texts += coverage.texts;
              stats.coverage.tokens += coverage.tokens;
              stats.coverage.oov += coverage.oov;
            }
          }
        }
        if (pending.count >= FLUSH_ROWS) flush();
      },
      close() {
        try {
          flush();
        } finally {
          harvest.finalize();
          rows.close();
        }
      },
    };
  }
}

/** Rows held back before one batched INSERT (bounds the buffers: 2,048 × 256 B = 512 KB of int8 vectors). */
const FLUSH_ROWS = 2048;

/**
 * A transaction's new vector rows, written as one statement per batch (store.ts writeVectorBatch):
 * a row at a time cost five binds through the WASM boundary per chunk, most of the inline
 * embedding's cost in an index pass (measured: bench/results/inline-vectors-ab-Avalonia.md).
 */
class PendingVectors {
  ids = new Int32Array(256);
  hashes = new Uint8Array(256 * 8);
  vecs: Uint8Array;
  count = 0;

  constructor(readonly width: number) {
    this.vecs = new Uint8Array(256 * width);
  }

  add(id: number, hash: Uint8Array, vec: Uint8Array): void {
    this.slot(id, hash);
    this.vecs.set(vec, (this.count - 1) * this.width);
  }

  /** A row of floats encoded to int8 straight into the batch. */
  addInt8(id: number, hash: Uint8Array, v: Float32Array, scale: number): void {
    this.slot(id, hash);
    encodeInt8Into(v, scale, this.vecs, (this.count - 1) * this.width);
  }

  flush(db: Database, modelId: number): void {
    if (!this.count) return;
    const n = this.count;
    this.count = 0;
    writeVectorBatch(db, modelId, this.ids.subarray(0, n), this.hashes.subarray(0, n * 8), this.vecs.subarray(0, n * this.width), this.width);
  }

  private slot(id: number, hash: Uint8Array): void {
    if (this.count === this.ids.length) {
      const ids = new Int32Array(this.count * 2);
      ids.set(this.ids);
      this.ids = ids;
      const hashes = new Uint8Array(this.count * 16);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const vecs = new Uint8Array(this.count * 2 * this.width);
      vecs.set(this.vecs);
      this.vecs = vecs;
    }
    this.ids[this.count] = id;
    this.hashes.set(hash, this.count * 8);
    this.count++;
  }
}
