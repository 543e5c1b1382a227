// The `model2vec` embedding provider: a static model folder the user brings (model2vec.ts reads it),
// loaded through the runtime's file access (VectorHost.files), embedding synchronously in
// TypeScript — so new chunks get their vectors inline with the keyword pass, like the learned
// model's. A folder that cannot be read or understood is `provider_config` naming the file and why.
// Owns loading the folder and the provider shape; the arithmetic is model2vec.ts's.
import { providerError, type EmbedOptions, type EmbedResult, type EmbeddingProvider, type ModelKey, type ProviderError, type VectorQuantization } from '../provider.ts';
import { Model2VecModel } from './model2vec.ts';
import type { Model2VecSettings } from '../settings.ts';

/** What a runtime lends a provider that reads a model folder. */
export interface ModelFiles {
  /** The absolute path of the folder (settings may give it relative to the workspace root). */
  resolve(root: string, p: string): string;
  /** A file's bytes; rejects when it does not exist. */
  readFile(absPath: string): Promise<Uint8Array>;
}

export class Model2VecProvider implements EmbeddingProvider {
  readonly id = 'model2vec';

  constructor(readonly model: Model2VecModel, private readonly name: string, private readonly quantization: VectorQuantization) {}

  get dims(): number {
    return this.model.dims;
  }

  get key(): ModelKey {
    return { provider: this.id, model: `${this.name}@${this.model.fingerprint}`, dims: this.model.dims, quantization: this.quantization };
  }

  embedSync(texts: readonly string[]): Float32Array {
    return this.model.embed(texts);
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    if (opts.signal?.aborted) return { ok: false, error: providerError('provider_aborted', 'embedding was cancelled', 'run it again', true) };
    const vectors = this.model.embed(texts);
    opts.onProgress?.(texts.length, texts.length);
    return { ok: true, vectors };
  }
}

const LAYOUTS = [
  { tensors: 'model.safetensors', tokenizer: 'tokenizer.json', config: 'config.json' },
  { tensors: '0_StaticEmbedding/model.safetensors', tokenizer: '0_StaticEmbedding/tokenizer.json', config: 'config.json' },
];

/** Loads the folder (the model2vec layout, or sentence-transformers' 0_StaticEmbedding/). */
export async function createModel2VecProvider(s: Model2VecSettings, files: ModelFiles | undefined, root: string): Promise<Model2VecProvider | ProviderError> {
  const hint = 'semantic.model2vec.model_dir must be a folder with tokenizer.json, model.safetensors and config.json (the model2vec layout)';
  if (!files) return providerError('provider_unavailable', 'this runtime cannot read a model folder', 'use the model2vec provider from Node or Deno', false);
  const dir = files.resolve(root, s.model_dir).replace(/[\\/]+$/, '');
  let lastError = '';
  for (const l of LAYOUTS) {
    let tensors: Uint8Array;
    try {
      tensors = await files.readFile(`${dir}/${l.tensors}`);
    } catch (e) {
      lastError = `no ${l.tensors} (${(e as Error)?.message ?? String(e)})`;
      continue;
    }
    try {
      const tokenizer = new TextDecoder().decode(await files.readFile(`${dir}/${l.tokenizer}`));
      let config: string | null = null;
      try {
        config = new TextDecoder().decode(await files.readFile(`${dir}/${l.config}`));
      } catch {
        config = null; // model2vec's defaults
      }
      const model = Model2VecModel.fromFiles({ tokenizer, safetensors: tensors, config }, s.max_tokens);
      return new Model2VecProvider(model, dir.split(/[\\/]/).pop() ?? 'model2vec', s.quantization);
    } catch (e) {
      return providerError('provider_config', `the model2vec folder ${dir} cannot be used: ${(e as Error)?.message ?? String(e)}`, hint, false);
    }
  }
  return providerError('provider_config', `the model2vec folder ${dir} cannot be used: ${lastError}`, hint, false);
}
