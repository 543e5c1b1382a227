// Vectors written in the same transaction as their chunks, during a keyword indexing pass: the
// vectors of a file's old chunks are kept aside before the writer deletes them, and each new chunk
// gets the vector of an identical text under the current model (that file's old chunk, or any
// other chunk: the embedding cache keyed by text hash and model), or — when the provider embeds
// synchronously (the learned model) — a new vector on the spot. Chunks left without one (an async
// provider's misses) are the vector indexer's backfill. Owns that per-transaction bookkeeping; the
// SQL is store.ts's, the writer calls it (core/index/writer.ts ChunkVectorSink).
import type { Database } from '../sqlite/engine.ts';
import type { ChunkVectorSink } from '../index/writer.ts';
import type { Coverage } from './learned/model.ts';
import { encodeVector, hashKey, textHash, VectorRows, type StoredModel } from './store.ts';

/** Embeds texts at once (unit-length rows), with how much of them the model knew (learned: the drift input). */
export type SyncEmbed = (texts: readonly string[]) => { vectors: Float32Array; coverage?: Coverage };

export interface InlineStats {
  reused: number;
  embedded: number;
  /** Chunks left for the backfill (no cached vector, no synchronous embedder). */
  deferred: number;
  coverage: Coverage;
}

/** One indexing pass's inline vectors: `begin(db)` per write transaction. */
export class InlineVectors {
  readonly stats: InlineStats = { reused: 0, embedded: 0, deferred: 0, coverage: { texts: 0, tokens: 0, oov: 0 } };

  constructor(private readonly model: StoredModel, private readonly embed?: SyncEmbed) {}

  begin(db: Database): ChunkVectorSink & { close(): void } {
    const { model, stats } = this;
    const rows = new VectorRows(db, model.id);
    const harvested = new Map<string, Uint8Array>();
    const harvest = db.prepare('SELECT v.text_hash, v.vec FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.file_id = ? AND v.model_id = ?');
    return {
      harvest(_db, fileId) {
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
          const hash = textHash(c.text);
          const vec = harvested.get(hashKey(hash)) ?? rows.lookup(hash);
          if (vec) {
            rows.write(c.id, hash, vec);
            stats.reused++;
          } else misses.push({ id: c.id, text: c.text, hash });
        }
        if (!misses.length) return;
        if (!this.embed || (model.key.quantization === 'int8' && model.scale === null)) {
          stats.deferred += misses.length;
          return;
        }
        const { vectors, coverage } = this.embed(misses.map((m) => m.text));
        const dims = model.key.dims;
        misses.forEach((m, i) => rows.write(m.id, m.hash, encodeVector(vectors.subarray(i * dims, (i + 1) * dims), model.key.quantization, model.scale)));
        stats.embedded += misses.length;
        if (coverage) {
          stats.coverage.texts += coverage.texts;
          stats.coverage.tokens += coverage.tokens;
          stats.coverage.oov += coverage.oov;
        }
      },
      close() {
        harvest.finalize();
        rows.close();
      },
    };
  }
}
