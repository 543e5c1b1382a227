// The `learned` embedding provider: embeddings learned from the workspace's own chunks (see
// train.ts), behind the common provider interface. It is trained at index time (`train`), loaded
// from the bytes the index file keeps (`LearnedProvider.fromBytes`), and embeds new chunks with the
// vocabulary it has until a retrain (`drift` says when). Owns the provider's state (which model is
// current) and its key; the recipe is train.ts, the arithmetic model.ts.
import { providerError, type EmbedOptions, type EmbedResult, type EmbeddingProvider, type ModelKey } from '../provider.ts';
import { DEFAULT_LEARNED_PARAMS, LearnedModel, type Coverage, type DriftVerdict, type LearnedParams } from './model.ts';
import { trainLearnedModel, type Clock, type TrainResult } from './train.ts';

/** The model name part of a learned key: the recipe version and the trained model's fingerprint. */
export const LEARNED_RECIPE = 'ppmi-svd-sif-1';

export class LearnedProvider implements EmbeddingProvider {
  readonly id = 'learned';
  private current: LearnedModel | null;
  private readonly params: LearnedParams;

  constructor(params: Partial<LearnedParams> = {}, model: LearnedModel | null = null) {
    this.params = { ...DEFAULT_LEARNED_PARAMS, ...params, ...(model ? { dims: model.dims } : {}) };
    this.current = model;
  }

  static fromBytes(bytes: Uint8Array): LearnedProvider {
    const model = LearnedModel.fromBytes(bytes);
    return new LearnedProvider(model.header.params, model);
  }

  get dims(): number {
    return this.params.dims;
  }

  get model(): LearnedModel | null {
    return this.current;
  }

  get key(): ModelKey {
    return { provider: this.id, model: `${LEARNED_RECIPE}@${this.current?.fingerprint ?? 'untrained'}`, dims: this.dims, quantization: 'int8' };
  }

  /** Trains a new model on these chunk texts and makes it current; returns it with the texts' vectors. */
  train(corpus: readonly string[], clock?: Clock): TrainResult {
    const result = trainLearnedModel(corpus, this.params, clock);
    this.current = result.model;
    return result;
  }

  /** Synchronous embedding with the coverage the drift measure sums (throws when untrained). */
  embedWithCoverage(texts: readonly string[]): { vectors: Float32Array; coverage: Coverage } {
    if (!this.current) throw new Error('the learned provider has no model yet: train it first');
    return this.current.embed(texts);
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    if (!this.current) {
      return { ok: false, error: providerError('provider_not_trained', 'the learned model has not been trained yet', 'run `hci index` (it trains the model from the indexed chunks)', false) };
    }
    if (opts.signal?.aborted) return { ok: false, error: providerError('provider_aborted', 'embedding was cancelled', 'run it again', true) };
    const { vectors } = this.current.embed(texts);
    opts.onProgress?.(texts.length, texts.length);
    return { ok: true, vectors };
  }

  /** Whether the chunks embedded since training (their coverage summed) call for a retrain. */
  drift(since: Coverage): DriftVerdict | null {
    return this.current ? this.current.drift(since) : null;
  }
}
