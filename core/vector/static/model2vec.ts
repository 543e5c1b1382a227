// A static embedding model in the model2vec layout — the folder `model2vec` writes and publishes:
// `tokenizer.json` (hf-tokenizer.ts), `model.safetensors` with the `embeddings` matrix (vocabulary ×
// dims; F32, F16, BF16 or I8), optionally `weights` (a factor per token) and `mapping` (token id →
// row, for vocabulary-quantized models), and `config.json` (`normalize`, …); the
// sentence-transformers layout (`0_StaticEmbedding/` with `embedding.weight`) is read too. A text's
// vector is model2vec's: its token ids without the unknown token, at most `max_length` of them (the
// text first cut to max_length × the median token length in characters, as model2vec does), the
// mean of their rows (each times its weight), then unit length (hci compares by cosine). Pure
// TypeScript: no ONNX runtime, nothing downloaded. Owns reading the files and embedding; the
// provider around it is provider.ts's.
import { sha256Hex } from '../../index/sha256.ts';
import { Safetensors } from './safetensors.ts';
import { StaticTokenizer } from './hf-tokenizer.ts';

export interface Model2VecFiles {
  tokenizer: string;
  safetensors: Uint8Array;
  config: string | null;
}

export class Model2VecModel {
  readonly dims: number;
  readonly rows: number;
  /** Model name part of the key: a digest of the tensors and the tokenizer. */
  readonly fingerprint: string;
  private readonly table: Float32Array;
  private readonly weights: Float32Array | null;
  private readonly mapping: Int32Array | null;
  /** model2vec's median token length in characters: a text is first cut to maxTokens × this. */
  readonly medianTokenLength: number;
  private readonly acc: Float64Array;

  constructor(readonly tokenizer: StaticTokenizer, st: Safetensors, readonly config: Record<string, unknown>, fingerprint: string, readonly maxTokens = 512) {
    const name = st.has('embeddings') ? 'embeddings' : st.has('embedding.weight') ? 'embedding.weight' : null;
    if (!name) throw new RangeError(`model.safetensors has no "embeddings" tensor (it has ${[...st.tensors.keys()].join(', ') || 'none'})`);
    const e = st.floats(name);
    if (e.shape.length !== 2) throw new RangeError(`the embeddings tensor is ${e.shape.join('×')}, not a matrix`);
    [this.rows, this.dims] = e.shape;
    this.table = e.values;
    this.weights = st.has('weights') ? st.floats('weights').values : null;
    this.mapping = st.has('mapping') ? Int32Array.from(st.integers('mapping').values) : null;
    const vocab = tokenizer.vocabSize;
    if (this.mapping) {
      if (this.mapping.length < vocab) throw new RangeError(`the mapping tensor has ${this.mapping.length} entries for ${vocab} tokens`);
      for (const r of this.mapping) if (r < 0 || r >= this.rows) throw new RangeError(`the mapping tensor points at row ${r} of ${this.rows}`);
    } else if (this.rows < vocab) throw new RangeError(`the embeddings have ${this.rows} rows for ${vocab} tokens`);
    if (this.weights && this.weights.length < vocab) throw new RangeError(`the weights tensor has ${this.weights.length} entries for ${vocab} tokens`);
    const lengths = tokenizer.tokens.filter((t) => t !== undefined).map((t) => [...t].length).sort((a, b) => a - b);
    // numpy's median of an even count is the mean of the middle two; int() truncates it.
    const mid = lengths.length >> 1;
    this.medianTokenLength = lengths.length === 0 ? 1 : Math.max(1, Math.trunc(lengths.length % 2 ? lengths[mid] : (lengths[mid - 1] + lengths[mid]) / 2));
    this.acc = new Float64Array(this.dims);
    this.fingerprint = fingerprint;
  }

  static fromFiles(f: Model2VecFiles, maxTokens = 512): Model2VecModel {
    const config = f.config ? (JSON.parse(f.config) as Record<string, unknown>) : {};
    const fp = sha256Hex(new Uint8Array([...sha256Bytes(f.safetensors), ...sha256Bytes(new TextEncoder().encode(f.tokenizer))]), 8);
    return new Model2VecModel(StaticTokenizer.fromJson(f.tokenizer), new Safetensors(f.safetensors), config, fp, maxTokens);
  }

  /** Token ids as model2vec takes them: the text cut to maxTokens × the median token length, no unknown tokens, at most maxTokens. */
  ids(text: string): number[] {
    const cut = [...text].length > this.maxTokens * this.medianTokenLength ? [...text].slice(0, this.maxTokens * this.medianTokenLength).join('') : text;
    const ids = this.tokenizer.encode(cut).filter((id) => id !== this.tokenizer.unk);
    return ids.length > this.maxTokens ? ids.slice(0, this.maxTokens) : ids;
  }

  /** Unit-length vectors, row-major `texts.length × dims` (zeros for a text with no known token). */
  embed(texts: readonly string[]): Float32Array {
    const { dims, table, weights, mapping, acc } = this;
    const out = new Float32Array(texts.length * dims);
    texts.forEach((text, i) => {
      const ids = this.ids(text);
      if (!ids.length) return;
      acc.fill(0);
      for (const id of ids) {
        const row = (mapping ? mapping[id] : id) * dims;
        const w = weights ? weights[id] : 1;
        for (let j = 0; j < dims; j++) acc[j] += w * table[row + j];
      }
      let n = 0;
      for (let j = 0; j < dims; j++) {
        acc[j] /= ids.length;
        n += acc[j] * acc[j];
      }
      if (!(n > 0)) return;
      const inv = 1 / Math.sqrt(n);
      for (let j = 0; j < dims; j++) out[i * dims + j] = acc[j] * inv;
    });
    return out;
  }
}

function sha256Bytes(b: Uint8Array): number[] {
  const hex = sha256Hex(b);
  const out: number[] = [];
  for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16));
  return out;
}
