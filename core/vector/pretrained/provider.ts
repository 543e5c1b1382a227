// The `pretrained` embedding provider: hci's own code model, shipped in the package
// (models/code-model.bin, trained by bench/model/train.ts from the repositories models/manifest.json
// lists). It is a learned model (core/vector/learned/model.ts: vocabulary of code sub-words and
// English words, SIF weights, int8 word vectors, common component) trained once on many
// repositories instead of on this one, so it embeds exactly as the learned model does — and the
// same bytes give the same vectors in Node, Deno and the browser. A model with a query table
// (format 2) embeds queries with it and chunks with its main table. Each runtime hands over the
// bytes (VectorHost.codeModel); one copy is kept per bytes loader. Owns the provider shape and
// that cache; the arithmetic is the learned model's.
import { LearnedModel } from '../learned/model.ts';
import { providerError, type EmbedOptions, type EmbedResult, type EmbeddingProvider, type ModelKey, type ProviderError } from '../provider.ts';

/** The model name part of a pretrained key: the model family, then the file's fingerprint. */
export const PRETRAINED_NAME = 'hci-code';

export class PretrainedProvider implements EmbeddingProvider {
  readonly id = 'pretrained';

  constructor(readonly model: LearnedModel) {}

  get dims(): number {
    return this.model.dims;
  }

  get key(): ModelKey {
    return { provider: this.id, model: `${PRETRAINED_NAME}@${this.model.fingerprint}`, dims: this.model.dims, quantization: 'int8' };
  }

  /** The int8 scale every chunk vector is stored with (fitted on the training windows). */
  get scale(): number {
    return this.model.header.vectorScale;
  }

  /** Chunk vectors (`kind` 'document', the default) or query vectors (the model's query table when it has one). */
  embedSync(texts: readonly string[], kind: 'document' | 'query' = 'document'): Float32Array {
    return (kind === 'query' ? this.model.embedQueries(texts) : this.model.embed(texts)).vectors;
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    if (opts.signal?.aborted) return { ok: false, error: providerError('provider_aborted', 'embedding was cancelled', 'run it again', true) };
    const vectors = this.embedSync(texts, opts.kind);
    opts.onProgress?.(texts.length, texts.length);
    return { ok: true, vectors };
  }
}

const loaded = new WeakMap<() => Promise<Uint8Array>, Promise<LearnedModel>>();

/** The shipped model, read once per loader (a process serving many workspaces keeps one copy). */
export async function loadPretrained(load: (() => Promise<Uint8Array>) | undefined): Promise<PretrainedProvider | ProviderError> {
  if (!load) return providerError('provider_unavailable', 'this runtime gave hci no way to read its code model', 'the pretrained model ships in the package (models/code-model.bin); a browser build needs its URL (hciVitePlugin does this)', false);
  let p = loaded.get(load);
  if (!p) {
    p = load().then((bytes) => LearnedModel.fromBytes(bytes));
    loaded.set(load, p);
    p.catch(() => loaded.delete(load));
  }
  try {
    return new PretrainedProvider(await p);
  } catch (e) {
    return providerError('provider_unavailable', `the shipped code model cannot be read: ${(e as Error)?.message ?? String(e)}`, 'reinstall hci: models/code-model.bin is missing or damaged', false);
  }
}
