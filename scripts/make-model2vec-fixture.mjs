// Writes a tiny static embedding model in exactly the layout model2vec saves (and publishes on
// model hubs): `tokenizer.json` (a BERT-style WordPiece tokenizer: BertNormalizer,
// BertPreTokenizer), `model.safetensors` with an `embeddings` tensor (vocabulary × 8) and, for the
// newer layout, `weights` (a factor per token) and `mapping` (token id → row: a vocabulary-quantized
// model), and `config.json` (normalize, embedding_dtype, …) plus `modules.json`. Plain JS, no
// download, no Python: the safetensors writer is below. Also exports `referenceEmbedding`: the same
// model computed here, independently of hci's provider (what model2vec's StaticModel.encode does:
// ids without special tokens or [UNK], mean of the rows times their weights, unit length).
//
//   node scripts/make-model2vec-fixture.mjs <out-dir> [--dtype F32|F16] [--weights] [--mapping]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vocabulary } from './make-onnx-fixture.mjs';

export const DIMS = 8;

/** The vocabulary: the onnx fixture's (special tokens, whole words, characters and ## continuations, punctuation). */
export { vocabulary };

/** A fixed LCG stream in (-1.5, 1.5). */
function stream(seed, n) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 3 - 1.5;
  }
  return out;
}

/** IEEE half of a float (round to nearest even), and back: F16 fixtures store what halfToFloat gives. */
function toHalf(v) {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}
function fromHalf(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The model's tables: rows (mapping ? fewer rows than tokens : one per token), weights, mapping. */
export function tables({ dtype = 'F32', weights = false, mapping = false } = {}) {
  const vocab = vocabulary();
  const rows = mapping ? 40 : vocab.length;
  let embeddings = stream(0x9e3779b9, rows * DIMS);
  if (dtype === 'F16') embeddings = Float32Array.from(embeddings, (v) => fromHalf(toHalf(v)));
  const w = weights ? Float32Array.from(stream(0x85ebca6b, vocab.length), (v) => Math.abs(v) + 0.25) : null;
  const map = mapping ? Int32Array.from(vocab, (_, i) => (i * 7) % rows) : null;
  return { vocab, rows, embeddings, weights: w, mapping: map, dtype };
}

function safetensors(tensors) {
  const head = {};
  const parts = [];
  let off = 0;
  for (const [name, t] of Object.entries(tensors)) {
    const width = { F32: 4, F16: 2, I64: 8 }[t.dtype];
    const buf = Buffer.alloc(t.data.length * width);
    for (let i = 0; i < t.data.length; i++) {
      if (t.dtype === 'F32') buf.writeFloatLE(t.data[i], i * 4);
      else if (t.dtype === 'F16') buf.writeUInt16LE(toHalf(t.data[i]), i * 2);
      else buf.writeBigInt64LE(BigInt(t.data[i]), i * 8);
    }
    head[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [off, off + buf.length] };
    off += buf.length;
    parts.push(buf);
  }
  head.__metadata__ = { format: 'pt' };
  let json = JSON.stringify(head);
  while (json.length % 8) json += ' ';
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([len, Buffer.from(json), ...parts]);
}

export function writeFixture(outDir, opts = {}) {
  const t = tables(opts);
  fs.mkdirSync(outDir, { recursive: true });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(t.vocab.map((w, i) => [w, i])) },
  };
  fs.writeFileSync(path.join(outDir, 'tokenizer.json'), JSON.stringify(tokenizer));
  const tensors = { embeddings: { dtype: t.dtype, shape: [t.rows, DIMS], data: t.embeddings } };
  if (t.weights) tensors.weights = { dtype: 'F32', shape: [t.vocab.length], data: t.weights };
  if (t.mapping) tensors.mapping = { dtype: 'I64', shape: [t.vocab.length], data: t.mapping };
  fs.writeFileSync(path.join(outDir, 'model.safetensors'), safetensors(tensors));
  const config = { model_type: 'model2vec', architectures: ['StaticModel'], tokenizer_name: 'tiny-wordpiece', apply_pca: DIMS, apply_zipf: true, hidden_dim: DIMS, seq_length: 1000000, normalize: true, embedding_dtype: t.dtype === 'F16' ? 'float16' : 'float32' };
  if (t.mapping) config.vocabulary_quantization = t.rows;
  fs.writeFileSync(path.join(outDir, 'config.json'), JSON.stringify(config, null, 4));
  fs.writeFileSync(path.join(outDir, 'modules.json'), JSON.stringify([{ idx: 0, name: '0', path: '.', type: 'sentence_transformers.models.StaticEmbedding' }, { idx: 1, name: '1', path: '1_Normalize', type: 'sentence_transformers.models.Normalize' }], null, 4));
  return outDir;
}

/** BERT-style ids (lowercase, split on whitespace and punctuation, greedy WordPiece), no special tokens, [UNK] dropped. */
export function referenceIds(text, vocab = vocabulary()) {
  const index = new Map(vocab.map((w, i) => [w, i]));
  const ids = [];
  for (const word of text.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '').match(/[^\s\p{P}\p{S}]+|[\p{P}\p{S}]/gu) ?? []) {
    const pieces = [];
    let start = 0;
    let ok = true;
    while (start < word.length) {
      let end = word.length;
      let id;
      while (start < end) {
        id = index.get((start > 0 ? '##' : '') + word.slice(start, end));
        if (id !== undefined) break;
        end--;
      }
      if (id === undefined) {
        ok = false;
        break;
      }
      pieces.push(id);
      start = end;
    }
    if (ok) ids.push(...pieces);
  }
  return ids;
}

/** model2vec's encode of one text with these tables: the mean of the (weighted) rows of its ids, unit length. */
export function referenceEmbedding(text, opts = {}) {
  const t = tables(opts);
  const ids = referenceIds(text, t.vocab);
  const acc = new Array(DIMS).fill(0);
  for (const id of ids) {
    const row = t.mapping ? t.mapping[id] : id;
    const w = t.weights ? t.weights[id] : 1;
    for (let j = 0; j < DIMS; j++) acc[j] += w * t.embeddings[row * DIMS + j];
  }
  const mean = acc.map((v) => v / Math.max(1, ids.length));
  const n = Math.hypot(...mean);
  return n > 0 ? mean.map((v) => v / n) : mean;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = args.find((a) => !a.startsWith('--'));
  if (!out) {
    console.error('usage: node scripts/make-model2vec-fixture.mjs <out-dir> [--dtype F32|F16] [--weights] [--mapping]');
    process.exit(2);
  }
  const dtype = args.includes('--dtype') ? args[args.indexOf('--dtype') + 1] : 'F32';
  console.log(writeFixture(path.resolve(out), { dtype, weights: args.includes('--weights'), mapping: args.includes('--mapping') }));
}
