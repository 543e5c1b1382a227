// Writes a tiny sentence-embedding model in the Hugging Face folder layout — `tokenizer.json` (a
// BERT WordPiece tokenizer) and `onnx/model.onnx` — in plain JS, with no download and no Python:
// the ONNX file is a protobuf this script encodes itself (the ~60-line writer below). The graph is
// what a BERT-style encoder's interface looks like from outside: inputs input_ids, attention_mask,
// token_type_ids (int64, batch × tokens); output last_hidden_state (float, batch × tokens × 8) =
// tanh(E[input_ids]) × attention_mask, with E a fixed pseudo-random 8-dim table. It exercises the
// onnx provider's real loading path (onnxruntime-web, tokenizer, batching, truncation, mean pooling,
// normalisation) in Node, Deno and Chromium. Also exports `referenceEmbedding` (the same model in
// plain JS) for the tests.
//
//   node scripts/make-onnx-fixture.mjs <out-dir>
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIMS = 8;

const WORDS = ['order', 'orders', 'discount', 'price', 'pricing', 'catalog', 'item', 'items', 'customer', 'service', 'get', 'set', 'async', 'task',
  'apply', 'applied', 'total', 'cart', 'product', 'public', 'class', 'void', 'return', 'string', 'int', 'decimal', 'var', 'new', 'namespace', 'using',
  'where', 'is', 'the', 'how', 'what', 'of', 'to', 'a', 'in', 'for', 'and', 'rule', 'rules', 'money', 'amount', 'line', 'lines', 'shop', 'contoso'];

/** The vocabulary: special tokens, whole words, then single characters and their ## continuations. */
export function vocabulary() {
  const tokens = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...WORDS];
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (const c of chars) tokens.push(c);
  for (const c of chars) tokens.push(`##${c}`);
  for (const c of '.,;:!?()[]{}<>=+-*/_"\'#@&|%$') tokens.push(c);
  return [...new Set(tokens)];
}

/** The embedding table, row-major V × DIMS: a fixed LCG, values in (-1.5, 1.5). */
export function table(v) {
  const out = new Float32Array(v * DIMS);
  let s = 0x9e3779b9;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 3 - 1.5;
  }
  return out;
}

// ── a minimal protobuf writer ────────────────────────────────────────────────────────────────
const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => [...key(field, 0), ...varint(n)];
const bytes = (field, data) => [...key(field, 2), ...varint(data.length), ...data];
const str = (field, s) => bytes(field, [...new TextEncoder().encode(s)]);
const msg = (field, parts) => bytes(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;
const dim = (d) => msg(1, typeof d === 'number' ? [int(1, d)] : [str(2, d)]);
const valueInfo = (field, name, elem, dims) => msg(field, [str(1, name), msg(2, [msg(1, [int(1, elem), msg(2, dims.map(dim))])])]);
const node = (op, inputs, outputs, attrs = []) => msg(1, [...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, `${op}_${outputs[0]}`), str(4, op), ...attrs]);
const intAttr = (name, v) => msg(5, [str(1, name), int(20, 2), int(3, v)]);
const tensor = (name, dims, type, raw) => msg(5, [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, [...raw])]);

export function modelBytes() {
  const v = vocabulary().length;
  const e = table(v);
  const axes = new Uint8Array(new BigInt64Array([2n]).buffer);
  const graph = [
    node('Gather', ['embeddings', 'input_ids'], ['gathered']),
    node('Tanh', ['gathered'], ['activated']),
    node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', FLOAT)]),
    node('Unsqueeze', ['mask_f', 'axes'], ['mask_3d']),
    node('Mul', ['activated', 'mask_3d'], ['last_hidden_state']),
    str(2, 'hci-tiny-encoder'),
    tensor('embeddings', [v, DIMS], FLOAT, new Uint8Array(e.buffer)),
    tensor('axes', [1], INT64, axes),
    valueInfo(11, 'input_ids', INT64, ['batch', 'tokens']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'tokens']),
    valueInfo(11, 'token_type_ids', INT64, ['batch', 'tokens']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'tokens', DIMS]),
  ];
  return new Uint8Array([...int(1, 8), ...str(2, 'hci make-onnx-fixture'), ...msg(7, graph), ...msg(8, [str(1, ''), int(2, 13)])]);
}

export function tokenizerJson() {
  const vocab = Object.fromEntries(vocabulary().map((t, i) => [t, i]));
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: special,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/** Writes the folder: <out>/tokenizer.json, <out>/onnx/model.onnx, <out>/config.json. */
export function writeFixture(out) {
  fs.mkdirSync(path.join(out, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(out, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  fs.writeFileSync(path.join(out, 'onnx', 'model.onnx'), modelBytes());
  fs.writeFileSync(path.join(out, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: DIMS, note: 'generated by scripts/make-onnx-fixture.mjs' }));
  return out;
}

/** The model in plain JS for token ids: mean over tokens of tanh(E[id]) (f32 steps as the model takes them), unit length. */
export function referenceEmbedding(ids) {
  const e = table(vocabulary().length);
  const acc = new Float64Array(DIMS);
  for (const id of ids) for (let k = 0; k < DIMS; k++) acc[k] += Math.fround(Math.tanh(e[id * DIMS + k]));
  const v = Float32Array.from(acc, (x) => x / ids.length);
  let n = 0;
  for (const x of v) n += x * x;
  const inv = 1 / Math.sqrt(n);
  return Array.from(v, (x) => Math.fround(x * inv));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/make-onnx-fixture.mjs <out-dir>');
    process.exit(2);
  }
  writeFixture(path.resolve(out));
  console.log(`wrote ${out}/tokenizer.json and ${out}/onnx/model.onnx (${modelBytes().length} bytes, ${vocabulary().length} tokens × ${DIMS} dims)`);
}
