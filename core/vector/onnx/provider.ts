// The `onnx` embedding provider: a local sentence-embedding model in the Hugging Face layout
// (`tokenizer.json` and `onnx/model*.onnx` in one folder) run by onnxruntime-web (WebAssembly, no
// native addon) — an optional peer dependency, loaded only when this provider is configured, never
// downloading anything: the runtime lends the loader and the folder's files (OnnxHost). Owns
// batching, truncation, the model's inputs, mean pooling over the attention mask and L2
// normalisation; tokenizing is tokenizer.ts's. A missing onnxruntime-web is `provider_unavailable`
// naming the install command.
import { sha256Hex } from '../../index/sha256.ts';
import { normalizeRows } from '../quantize.ts';
import { providerError, type EmbedOptions, type EmbedResult, type EmbeddingProvider, type ModelKey, type ProviderError } from '../provider.ts';
import type { OnnxSettings } from '../settings.ts';
import { WordPieceTokenizer } from './tokenizer.ts';

/** The version of onnxruntime-web hci is tested with (docs/semantic.md's install command names it). */
export const ONNXRUNTIME_WEB_VERSION = '1.30.0';
export const ONNX_INSTALL_HINT = `install onnxruntime-web next to hci: npm install onnxruntime-web@${ONNXRUNTIME_WEB_VERSION} (it is an optional peer dependency: only the onnx provider needs it)`;

/** The part of onnxruntime-web's API hci uses. */
export interface OrtTensor {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
export interface OrtLike {
  InferenceSession: { create(model: Uint8Array, options?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;
  env?: { wasm?: { numThreads?: number; wasmPaths?: unknown; proxy?: boolean } };
}

/** What a runtime lends the onnx provider. */
export interface OnnxHost {
  /** `import('onnxruntime-web')` (rejects when it is not installed). */
  loadRuntime(): Promise<OrtLike>;
  /** The absolute path of the model folder (settings may give it relative to the workspace root). */
  resolve(root: string, p: string): string;
  readFile(absPath: string): Promise<Uint8Array>;
  listDir(absPath: string): Promise<string[]>;
}

/** Builds the provider: loads the runtime, the tokenizer and the model, and finds the dims by one probe run. */
export async function createOnnxProvider(s: OnnxSettings, host: OnnxHost | undefined, root: string): Promise<EmbeddingProvider | ProviderError> {
  if (!host) return providerError('provider_unavailable', 'this runtime cannot run ONNX models', ONNX_INSTALL_HINT, false);
  let ort: OrtLike;
  try {
    ort = await host.loadRuntime();
  } catch (e) {
    return providerError('provider_unavailable', `onnxruntime-web is not installed (${(e as Error)?.message ?? String(e)})`, ONNX_INSTALL_HINT, false);
  }
  const dir = host.resolve(root, s.model_dir).replace(/[\\/]+$/, '');
  let tokenizer: WordPieceTokenizer;
  let modelBytes: Uint8Array;
  let file: string;
  try {
    tokenizer = WordPieceTokenizer.fromJson(new TextDecoder().decode(await host.readFile(`${dir}/tokenizer.json`)));
    const files = (await host.listDir(`${dir}/onnx`)).filter((f) => /^model.*\.onnx$/.test(f)).sort();
    file = s.model_file ?? (files.includes('model.onnx') ? 'model.onnx' : files[0]);
    if (!file) throw new Error(`no onnx/model*.onnx in ${dir}`);
    modelBytes = await host.readFile(`${dir}/onnx/${file}`);
  } catch (e) {
    return providerError('provider_config', `the ONNX model folder ${dir} cannot be used: ${(e as Error)?.message ?? String(e)}`, 'semantic.onnx.model_dir must hold tokenizer.json and onnx/model*.onnx (the Hugging Face layout)', false);
  }
  try {
    if (ort.env?.wasm) ort.env.wasm.numThreads = 1; // one thread: the same sums in every runtime
    const session = await ort.InferenceSession.create(modelBytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'disabled' });
    const name = `${dir.split(/[\\/]/).pop()}/${file}@${sha256Hex(modelBytes, 8)}`;
    const provider = new OnnxEmbeddingProvider(ort, session, tokenizer, s, name, 0);
    const probe = await provider.run(['probe']);
    return new OnnxEmbeddingProvider(ort, session, tokenizer, s, name, probe.dims);
  } catch (e) {
    return providerError('provider_config', `onnxruntime-web could not run ${dir}/onnx/${file}: ${(e as Error)?.message ?? String(e)}`, 'check that the model is a sentence-embedding model with input_ids and attention_mask inputs', false);
  }
}

export class OnnxEmbeddingProvider implements EmbeddingProvider {
  readonly id = 'onnx';

  constructor(
    private readonly ort: OrtLike,
    private readonly session: OrtSession,
    private readonly tokenizer: WordPieceTokenizer,
    private readonly s: OnnxSettings,
    private readonly name: string,
    readonly dims: number,
  ) {}

  get key(): ModelKey {
    return { provider: 'onnx', model: this.name, dims: this.dims, quantization: this.s.quantization };
  }

  /** One batch through the model: token ids padded to the longest, mean pooling over the mask, unit length. */
  async run(texts: readonly string[]): Promise<{ vectors: Float32Array; dims: number }> {
    const enc = texts.map((t) => this.tokenizer.encode(t, this.s.max_tokens).ids);
    const len = Math.max(...enc.map((e) => e.length));
    const b = texts.length;
    const ids = new BigInt64Array(b * len);
    const mask = new BigInt64Array(b * len);
    enc.forEach((e, i) => e.forEach((id, j) => {
      ids[i * len + j] = BigInt(id);
      mask[i * len + j] = 1n;
    }));
    const feeds: Record<string, unknown> = {};
    for (const input of this.session.inputNames) {
      if (input === 'input_ids') feeds[input] = new this.ort.Tensor('int64', ids, [b, len]);
      else if (input === 'attention_mask') feeds[input] = new this.ort.Tensor('int64', mask, [b, len]);
      else if (input === 'token_type_ids') feeds[input] = new this.ort.Tensor('int64', new BigInt64Array(b * len), [b, len]);
      else throw new Error(`the model wants an input hci does not know: ${input}`);
    }
    const out = await this.session.run(feeds);
    const hidden = out.last_hidden_state ?? out[this.session.outputNames[0]];
    const [ob, os, d] = hidden.dims;
    if (hidden.dims.length !== 3 || ob !== b || os !== len) throw new Error(`the model's output is ${hidden.dims.join('×')}, not batch × tokens × dims`);
    const data = hidden.data;
    const vectors = new Float32Array(b * d);
    for (let i = 0; i < b; i++) {
      const n = enc[i].length;
      const acc = new Float64Array(d);
      for (let j = 0; j < n; j++) {
        const o = (i * len + j) * d;
        for (let k = 0; k < d; k++) acc[k] += data[o + k];
      }
      for (let k = 0; k < d; k++) vectors[i * d + k] = acc[k] / n;
    }
    normalizeRows(vectors, d);
    return { vectors, dims: d };
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    const prefix = opts.kind === 'query' ? this.s.query_prefix : this.s.document_prefix;
    const out = new Float32Array(texts.length * this.dims);
    try {
      for (let i = 0; i < texts.length; i += this.s.batch_size) {
        if (opts.signal?.aborted) return { ok: false, error: providerError('provider_aborted', 'embedding was cancelled', 'run it again', true) };
        const batch = texts.slice(i, i + this.s.batch_size).map((t) => prefix + t);
        const r = await this.run(batch);
        if (r.dims !== this.dims) throw new Error(`the model gave ${r.dims} dims, ${this.dims} before`);
        out.set(r.vectors, i * this.dims);
        opts.onProgress?.(Math.min(texts.length, i + batch.length), texts.length);
      }
      return { ok: true, vectors: out };
    } catch (e) {
      return { ok: false, error: providerError('provider_bad_response', `the ONNX model failed: ${(e as Error)?.message ?? String(e)}`, 'check the model folder (semantic.onnx.model_dir)', false) };
    }
  }
}
