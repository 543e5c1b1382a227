// The `combined` provider's vectors: the pretrained code model (shipped in the package) and the
// learned model (trained on this repository by the vector phase) side by side — each text's two unit
// vectors, each times √½, concatenated, so a cosine is the mean of the two models' cosines (a text
// one model knows nothing of keeps the other model's vector, renormalized). The pretrained half
// knows how code is described in general, the learned half this repository's own identifiers.
// Owns that arithmetic, the model key (both fingerprints) and the int8 scale; training and storing
// the learned half are the vector phase's (indexing.ts), loading the pretrained one
// pretrained/provider.ts's, the wiring semantic.ts's.
import type { Coverage, LearnedModel } from '../learned/model.ts';
import { LEARNED_RECIPE } from '../learned/provider.ts';
import { PRETRAINED_NAME } from '../pretrained/provider.ts';
import type { ModelKey } from '../provider.ts';

export const COMBINED_ID = 'combined';

/** The start of a combined key's model name: which pretrained model its vectors were made with. */
export function combinedPrefix(pretrained: LearnedModel): string {
  return `${PRETRAINED_NAME}@${pretrained.fingerprint}+`;
}

export class CombinedEmbedder {
  constructor(readonly pretrained: LearnedModel, readonly learned: LearnedModel) {}

  get dims(): number {
    return this.pretrained.dims + this.learned.dims;
  }

  get key(): ModelKey {
    return { provider: COMBINED_ID, model: `${combinedPrefix(this.pretrained)}${LEARNED_RECIPE}@${this.learned.fingerprint}`, dims: this.dims, quantization: 'int8' };
  }

  /** One int8 scale for both halves: the larger of the two models' scales, times √½ (each half's share). */
  get scale(): number {
    return Math.max(this.pretrained.header.vectorScale, this.learned.header.vectorScale) * Math.SQRT1_2;
  }

  /** Unit-length rows [√½·pretrained | √½·learned], with the learned model's coverage (the drift measure's input). */
  embed(texts: readonly string[]): { vectors: Float32Array; coverage: Coverage } {
    const a = this.pretrained.embed(texts).vectors;
    const b = this.learned.embed(texts);
    return { vectors: concatHalves(a, this.pretrained.dims, b.vectors, this.learned.dims), coverage: b.coverage };
  }

  /** Query rows: the shipped half from its query table when it has one (format 2), the learned half as embed()'s. */
  embedQueries(texts: readonly string[]): Float32Array {
    return concatHalves(this.pretrained.embedQueries(texts).vectors, this.pretrained.dims, this.learned.embed(texts).vectors, this.learned.dims);
  }
}

/**
 * Row-major [√w·a | √(1−w)·b] (w = ½: each half √½), each row renormalized to unit length (a row
 * with one side zero keeps the other whole): a cosine of two such rows is w·cos(a) + (1−w)·cos(b).
 */
export function concatHalves(a: Float32Array, da: number, b: Float32Array, db: number, w = 0.5): Float32Array {
  const n = a.length / da;
  const d = da + db;
  const wa = w === 0.5 ? Math.SQRT1_2 : Math.sqrt(w);
  const wb = w === 0.5 ? Math.SQRT1_2 : Math.sqrt(1 - w);
  const out = new Float32Array(n * d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < da; j++) {
      const v = wa * a[i * da + j];
      row[j] = v;
      s += v * v;
    }
    for (let j = 0; j < db; j++) {
      const v = wb * b[i * db + j];
      row[da + j] = v;
      s += v * v;
    }
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) out[i * d + j] = row[j] * inv;
  }
  return out;
}
