// The embedding provider seam: what every provider (learned, pretrained, combined, model2vec, http, onnx) offers the indexer
// and the search pipeline, the model key that says which vectors are comparable, the structured
// error a failing provider answers with (it never throws into indexing), and the text a chunk is
// embedded from. Owns only these shapes; each provider lives in its own module.

export type VectorQuantization = 'int8' | 'f32';

/**
 * Which vectors are comparable: the same key means the same space. The store keeps it beside the
 * vectors; the embedding cache is keyed by (chunk content hash, model key string).
 */
export interface ModelKey {
  /** 'learned' | 'pretrained' | 'combined' | 'model2vec' | 'http' | 'onnx'. */
  provider: string;
  /** Provider-specific: the learned model's fingerprint, an endpoint's model name … */
  model: string;
  dims: number;
  quantization: VectorQuantization;
}

/** The key as one string (for cache keys and the index's meta): `provider/model/dims/quantization`. */
export function modelKeyString(k: ModelKey): string {
  return `${k.provider}/${k.model}/${k.dims}/${k.quantization}`;
}

export type ProviderErrorCode =
  | 'provider_config' // settings are missing or wrong (no base URL, a dims mismatch, a missing API key variable)
  | 'provider_unreachable' // the endpoint could not be reached (connection refused, DNS)
  | 'provider_timeout'
  | 'provider_rate_limited' // still 429 after the retries
  | 'provider_auth' // 401 / 403
  | 'provider_http' // another HTTP failure (4xx, or 5xx after the retries)
  | 'provider_bad_response' // the answer is not what the API promises (shape, count, dims, non-finite numbers)
  | 'provider_aborted'
  | 'provider_not_trained' // the learned provider has no model yet
  | 'provider_unavailable'; // what the provider needs is not installed here (onnxruntime-web)

/** A provider failure as a value: the indexer records it (status says what is missing) and keyword search goes on. */
export interface ProviderError {
  code: ProviderErrorCode;
  message: string;
  hint: string;
  /** Whether trying again later may succeed (a timeout, a 429, a 5xx) or needs a change (settings, key). */
  retryable: boolean;
  /** The HTTP status, when the failure was one. */
  status?: number;
}

export type EmbedResult =
  | { ok: true; /** Unit-length vectors, row-major `texts.length × dims`. */ vectors: Float32Array }
  | { ok: false; error: ProviderError };

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Texts embedded so far of this call (providers that batch report after every batch). */
  onProgress?: (done: number, total: number) => void;
  /** Queries and documents may be embedded differently (a prefix some models want). Default 'document'. */
  kind?: 'document' | 'query';
}

export interface EmbeddingProvider {
  /** 'learned' | 'pretrained' | 'combined' | 'model2vec' | 'http' | 'onnx'. */
  readonly id: string;
  readonly dims: number;
  /** The key of the vectors this provider gives now (a learned provider's changes when it retrains). */
  readonly key: ModelKey;
  /** Never rejects: a failure comes back as { ok: false, error }. */
  embed(texts: readonly string[], opts?: EmbedOptions): Promise<EmbedResult>;
}

export function providerError(code: ProviderErrorCode, message: string, hint: string, retryable: boolean, status?: number): ProviderError {
  return status === undefined ? { code, message, hint, retryable } : { code, message, hint, retryable, status };
}

/**
 * The text a chunk is embedded from: its path, its header (symbol, context lines) and its body.
 * The same composition serves training, indexing and every provider, so one model's vectors are
 * always comparable (and a query is embedded as plain text).
 */
export function chunkEmbeddingText(c: { path: string; header?: string; body: string }): string {
  return c.header ? `${c.path}\n${c.header}\n${c.body}` : `${c.path}\n${c.body}`;
}
