// From chunk texts to the statistics the learned embeddings are made of: the vocabulary (tokens
// seen at least `minCount` times, the `maxVocab` most frequent), the corpus as one id sequence, and
// the word–word co-occurrence matrix (±window tokens within a chunk, weighted 1/distance). Owns
// counting; the PPMI transform and the factorization live beside it. Everything is in a fixed
// order (first appearance, then frequency and code-unit order), so counts are identical everywhere.
import { ownString } from '../../text/analyzer.ts';
import type { ModelTokenizer } from './tokens.ts';
import { forEachRun, RunParts, RunTable } from './word-table.ts';
import type { Csr } from './sparse.ts';

/**
 * The id sequence's chunk separator. Ids are below it: a vocabulary holds at most END tokens (so
 * the sequence is 2 bytes a token, half of an Int32Array's 4.5M tokens × 4 B at 50k chunks).
 */
export const END = 0xffff;

/** The largest vocabulary a corpus can keep (ids 0 … END − 1). */
export const MAX_VOCAB = END;

export interface TokenCorpus {
  /** Token by id, most frequent first (ties in code-unit order). */
  vocab: string[];
  /** Occurrences of each vocabulary token. */
  counts: Float64Array;
  /** In-vocabulary token ids, chunk after chunk, each chunk followed by END (and END first): chunk i is the run after the i-th END. */
  seq: Uint16Array;
  chunks: number;
  /** Tokens the tokenizer kept, in and out of the vocabulary. */
  totalTokens: number;
  /** Of those, the ones outside the vocabulary. */
  oovTokens: number;
  /**
   * With finish()'s `also`: the same token stream in another model's ids (the tokens it knows; the
   * layout of `seq`) — what that model's embed() sees for each chunk, without reading the texts again.
   */
  alsoSeq?: Uint16Array;
}

/** The largest block of the builder's id sequence (1M ids). */
const MAX_BLOCK = 1 << 20;

/**
 * The largest provisional id a builder block stores in 16 bits (END, 0xffff, ends a chunk there):
 * a corpus with more distinct tokens than that (provisional ids count every distinct token, not
 * just the kept vocabulary) writes its later blocks as Int32Array, with -1 as the end.
 */
const MAX_NARROW_ID = END - 1;

export function buildTokenCorpus(texts: Iterable<string>, tokenizer: ModelTokenizer, opts: { minCount: number; maxVocab: number }): TokenCorpus {
  const b = new TokenCorpusBuilder(tokenizer);
  for (const text of texts) b.add(text);
  return b.finish(opts);
}

/**
 * The corpus built one chunk text at a time, so a caller can stream texts (from short read
 * transactions over an index) instead of holding them all: only the id sequence and the
 * vocabulary stay. Pass 1 (add) gives provisional ids in order of first appearance; finish()
 * keeps the vocabulary and renumbers.
 */
export class TokenCorpusBuilder {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private counts = new Float64Array(1024);
  // The id sequence in blocks that are filled, never copied: a doubling array's copy held the old
  // and the new array at once (+36 MB of RSS at the end of a 50k-chunk keyword pass, 4.5M tokens).
  // 16-bit blocks while every provisional id fits (9 MB at 4.5M tokens, against 18 MB in 32 bits:
  // the builder is held through the whole keyword pass, whose peak it adds to); Int32Array blocks
  // from the first id that does not on.
  private blocks: Array<Uint16Array | Int32Array> = [];
  private block: Uint16Array | Int32Array = new Uint16Array(1 << 14);
  private wide = false;
  private inBlock = 0;
  private chunks = 0;
  // Each distinct identifier-like run is split once (code repeats them endlessly): the table
  // (keyed by the run's code units, no string cut) gives the run's offset in `parts`, which holds
  // its part count, then its part ids (a 50k-chunk build sees ~10^5 distinct runs).
  private readonly words = new RunTable();
  private readonly parts = new RunParts();
  private finished = false;

  constructor(private readonly tokenizer: ModelTokenizer) {
    this.push(-1);
  }

  get size(): number {
    return this.chunks;
  }

  /** Appends a provisional id, or -1 for a chunk's end. */
  private push(v: number): void {
    if (v > MAX_NARROW_ID && !this.wide) {
      this.blocks.push(this.block.subarray(0, this.inBlock));
      this.wide = true;
      this.block = new Int32Array(1 << 14);
      this.inBlock = 0;
    }
    if (this.inBlock === this.block.length) {
      this.blocks.push(this.block);
      const size = Math.min(MAX_BLOCK, this.block.length * 2);
      this.block = this.wide ? new Int32Array(size) : new Uint16Array(size);
      this.inBlock = 0;
    }
    this.block[this.inBlock++] = v < 0 && !this.wide ? END : v;
  }

  private idOf = (t: string): number => {
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.names.length;
      const own = ownString(t);
      this.ids.set(own, id);
      this.names.push(own);
      if (id === this.counts.length) {
        const grown = new Float64Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
    }
    return id;
  };

  private addWord(text: string, start: number, end: number, h: number): number {
    const at = this.parts.append(this.tokenizer.split(text.slice(start, end)), this.idOf);
    this.words.set(text, start, end - start, h, at);
    return at;
  }

  add(text: string): void {
    if (this.finished) throw new Error('TokenCorpusBuilder: add() after finish()');
    forEachRun(text, (start, stop, h) => {
      let at = this.words.get(text, start, stop - start, h);
      if (at < 0) at = this.addWord(text, start, stop, h);
      const parts = this.parts.data;
      const end = at + 1 + parts[at];
      for (let i = at + 1; i < end; i++) {
        this.counts[parts[i]]++;
        this.push(parts[i]);
      }
    });
    this.push(-1);
    this.chunks++;
  }

  /**
   * The corpus. `also`: another vocabulary's id of a token (undefined: not in it; ids below END),
   * whose stream comes back as alsoSeq.
   */
  finish(opts: { minCount: number; maxVocab: number; also?: (token: string) => number | undefined }): TokenCorpus {
    if (this.finished) throw new Error('TokenCorpusBuilder: finish() twice');
    this.finished = true;
    const { names, counts, chunks } = this;
    const blocks = [...this.blocks, this.block.subarray(0, this.inBlock)];
    this.blocks = [];
    this.block = new Uint16Array(0);
    this.words.clear();
    this.parts.reset(true);
    // The vocabulary: frequent enough, the most frequent first.
    const kept: number[] = [];
    for (let id = 0; id < names.length; id++) if (counts[id] >= opts.minCount) kept.push(id);
    kept.sort((a, b) => counts[b] - counts[a] || (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    const maxVocab = Math.min(opts.maxVocab, MAX_VOCAB);
    if (kept.length > maxVocab) kept.length = maxVocab;
    const final = new Int32Array(names.length).fill(-1);
    kept.forEach((id, i) => (final[id] = i));
    // Pass 2: final ids, out-of-vocabulary tokens dropped (windows then span the tokens that
    // remain), into an array of exactly the kept length: the kept tokens' counts plus every chunk's end.
    let keptTokens = chunks + 1;
    for (const id of kept) keptTokens += counts[id];
    const seq = new Uint16Array(keptTokens);
    // The other vocabulary's ids, by provisional id (-1: not in it), and its stream's length.
    const alsoId = opts.also ? Int32Array.from(names, (t) => opts.also!(t) ?? -1) : null;
    let alsoTokens = chunks + 1;
    if (alsoId) for (let id = 0; id < names.length; id++) if (alsoId[id] >= 0) alsoTokens += counts[id];
    const alsoSeq = alsoId ? new Uint16Array(alsoTokens) : null;
    let a = 0;
    if (alsoSeq) alsoSeq[a++] = END;
    let w = 0;
    let total = 0;
    let oov = 0;
    for (const b of blocks) {
      const end = b instanceof Uint16Array ? END : -1;
      for (let i = 0; i < b.length; i++) {
        const id = b[i];
        if (id === end) {
          seq[w++] = END; // every chunk keeps its end, even one left with no token
          if (alsoSeq && w > 1) alsoSeq[a++] = END;
          continue;
        }
        total++;
        if (alsoId && alsoId[id] >= 0) alsoSeq![a++] = alsoId[id];
        const f = final[id];
        if (f < 0) oov++;
        else seq[w++] = f;
      }
    }
    if (w !== keptTokens) throw new Error(`TokenCorpusBuilder: ${w} ids renumbered, ${keptTokens} counted`);
    if (alsoSeq && a !== alsoTokens) throw new Error(`TokenCorpusBuilder: ${a} ids in the other vocabulary, ${alsoTokens} counted`);
    const vocab = kept.map((id) => names[id]);
    const keptCounts = Float64Array.from(kept, (id) => counts[id]);
    // The builder lets go of its arrays (its owner may keep it alive through training).
    this.counts = new Float64Array(0);
    this.names.length = 0;
    this.ids.clear();
    return {
      vocab,
      counts: keptCounts,
      seq,
      chunks,
      totalTokens: total,
      oovTokens: oov,
      ...(alsoSeq ? { alsoSeq } : {}),
    };
  }
}

/**
 * The symmetric co-occurrence matrix over the vocabulary: entry (a, b) sums 1/d over every pair of
 * tokens a, b that stand d ≤ window apart inside one chunk. Built row by row from each token's
 * positions with a dense accumulator (no hash table): memory is the matrix itself plus 6 bytes per
 * corpus token (its position, beside the 2-byte sequence).
 */
export function cooccurrence(corpus: TokenCorpus, window: number): Csr {
  const V = corpus.vocab.length;
  const { seq } = corpus;
  const { posStart, pos } = positionsById(seq, V);
  const inv = new Float64Array(window + 1);
  for (let d = 1; d <= window; d++) inv[d] = 1 / d;
  const acc = new Float64Array(V);
  const touched = new Int32Array(V);
  const rowPtr = new Int32Array(V + 1);
  let colIdx = new Int32Array(Math.max(1024, pos.length * 4));
  let values = new Float32Array(colIdx.length);
  let nnz = 0;
  for (let a = 0; a < V; a++) {
    const t = accumulateRow(seq, pos, posStart, a, window, inv, acc, touched);
    if (nnz + t > colIdx.length) {
      const cap = Math.max(nnz + t, Math.ceil(colIdx.length * 1.5));
      const c2 = new Int32Array(cap);
      c2.set(colIdx.subarray(0, nnz));
      colIdx = c2;
      const v2 = new Float32Array(cap);
      v2.set(values.subarray(0, nnz));
      values = v2;
    }
    for (let i = 0; i < t; i++) {
      const b = touched[i];
      colIdx[nnz] = b;
      values[nnz++] = acc[b];
      acc[b] = 0;
    }
    rowPtr[a + 1] = nnz;
  }
  // Views, not copies: the capacity past nnz was never written (so never resident), and a copy
  // would hold the matrix twice at the step's peak.
  return { rows: V, cols: V, rowPtr, colIdx: colIdx.subarray(0, nnz), values: values.subarray(0, nnz) };
}

/** Each token's positions in an id sequence (a counting sort by id): token a's are pos[posStart[a] … posStart[a + 1]). */
export function positionsById(seq: Uint16Array, V: number): { posStart: Int32Array; pos: Int32Array } {
  const posStart = new Int32Array(V + 1);
  for (let i = 0; i < seq.length; i++) if (seq[i] !== END) posStart[seq[i] + 1]++;
  for (let a = 0; a < V; a++) posStart[a + 1] += posStart[a];
  const pos = new Int32Array(posStart[V]);
  const fill = posStart.slice(0, V);
  for (let i = 0; i < seq.length; i++) if (seq[i] !== END) pos[fill[seq[i]]++] = i;
  return { posStart, pos };
}

/**
 * Row `a` of the co-occurrence matrix: for every position of token a, each neighbour b up to
 * `window` tokens away inside the chunk adds inv[d] to acc[b]. The columns touched go to `touched`
 * in first-touch order; returns their count (the caller reads acc at them and sets them back to 0).
 */
export function accumulateRow(seq: Uint16Array, pos: Int32Array, posStart: Int32Array, a: number, window: number, inv: Float64Array, acc: Float64Array, touched: Int32Array): number {
  let t = 0;
  for (let q = posStart[a]; q < posStart[a + 1]; q++) {
    const p = pos[q];
    for (let d = 1; d <= window; d++) {
      const b = seq[p - d];
      if (b === END) break;
      if (acc[b] === 0) touched[t++] = b;
      acc[b] += inv[d];
    }
    for (let d = 1; d <= window; d++) {
      const b = seq[p + d];
      if (b === END) break;
      if (acc[b] === 0) touched[t++] = b;
      acc[b] += inv[d];
    }
  }
  return t;
}
