// A static model's nearest tokens: for one vocabulary token, the tokens whose word vectors have the
// highest cosine with its own (exact: one pass over the model's int8 rows). What the shipped code
// model's neighbours are is co-occurrence, not synonymy (persisted → saved, recovered, persist;
// encrypted → decrypt, aes), so a caller uses them as weak evidence only (core/search/neighbour-terms.ts:
// query expansion). Owns the arithmetic and a memo per token; which neighbours a query uses is the caller's.
import type { LearnedModel } from './learned/model.ts';

export interface Neighbour {
  token: string;
  cosine: number;
}

/** Tokens whose neighbours are remembered (a session asks the same question words again and again). */
const MEMO_LIMIT = 4096;
/** Neighbours remembered per token (callers ask for fewer). */
const KEEP = 16;

export class TokenNeighbours {
  /** 1 / the length of each token's int8 row (0 for an all-zero row). */
  private readonly inverseNorm: Float32Array;
  private readonly memo = new Map<string, readonly Neighbour[]>();

  constructor(readonly model: LearnedModel) {
    const { dims, vocabSize } = model.header;
    const v = model.vectors;
    this.inverseNorm = new Float32Array(vocabSize);
    for (let i = 0; i < vocabSize; i++) {
      let s = 0;
      for (let j = i * dims, end = j + dims; j < end; j++) s += v[j] * v[j];
      this.inverseNorm[i] = s > 0 ? 1 / Math.sqrt(s) : 0;
    }
  }

  /**
   * The `k` (≤ 16) tokens nearest to `token`, best first, with cosine ≥ `floor` (ties: vocabulary
   * order); empty for a token the model does not know.
   */
  nearest(token: string, k: number, floor: number): Neighbour[] {
    let all = this.memo.get(token);
    if (all === undefined) {
      all = this.scan(token);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(token, all);
    }
    const out: Neighbour[] = [];
    for (const n of all) {
      if (out.length >= k || n.cosine < floor) break;
      out.push(n);
    }
    return out;
  }

  private scan(token: string): Neighbour[] {
    const id = this.model.idOf(token);
    if (id === undefined || this.inverseNorm[id] === 0) return [];
    const { dims, vocabSize } = this.model.header;
    const v = this.model.vectors;
    const q = id * dims;
    // The best KEEP so far, kept sorted (descending cosine, then ascending id).
    const best: Array<{ id: number; cosine: number }> = [];
    for (let i = 0; i < vocabSize; i++) {
      if (i === id) continue;
      let dot = 0;
      for (let j = 0, r = i * dims; j < dims; j++) dot += v[q + j] * v[r + j];
      const cosine = dot * this.inverseNorm[id] * this.inverseNorm[i];
      if (best.length === KEEP && cosine <= best[KEEP - 1].cosine) continue;
      let at = best.length;
      while (at > 0 && best[at - 1].cosine < cosine) at--;
      best.splice(at, 0, { id: i, cosine });
      if (best.length > KEEP) best.pop();
    }
    return best.map((b) => ({ token: this.model.vocab[b.id], cosine: Math.round(b.cosine * 1000) / 1000 }));
  }
}

const shared = new WeakMap<LearnedModel, TokenNeighbours>();

/** One TokenNeighbours per model (the shipped model is loaded once per process; so are its norms and memo). */
export function neighboursOf(model: LearnedModel): TokenNeighbours {
  let n = shared.get(model);
  if (!n) shared.set(model, (n = new TokenNeighbours(model)));
  return n;
}
