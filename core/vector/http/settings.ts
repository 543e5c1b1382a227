// Settings of the `http` embedding provider: what `[semantic.http]` in settings.toml may say
// (snake_case keys), their defaults and their checks. A bad value is a structured provider_config
// error naming the key. The API key itself is never a setting: only the name of the environment
// variable that holds it. Owns the shape; the requests live in apis.ts and provider.ts.
import { providerError, type ProviderError, type VectorQuantization } from '../provider.ts';

export type HttpApi = 'ollama' | 'openai';

export interface HttpProviderSettings {
  /** `ollama`: POST {base_url}/api/embed. `openai` (and compatible servers): POST {base_url}/embeddings, base_url ending in /v1. */
  api: HttpApi;
  baseUrl: string;
  model: string;
  dims: number;
  /** Texts per request. */
  batchSize: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Request starts per minute (0: no limit). */
  requestsPerMinute: number;
  /** Per request, from send to the parsed answer. */
  timeoutMs: number;
  /** Retries of one request after a 429, a 5xx, a timeout or a connection failure. */
  maxRetries: number;
  /** First backoff; each retry doubles it (with jitter), up to retryMaxMs. A Retry-After header wins when longer. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Name of the environment variable holding the API key (sent as `Authorization: Bearer …`); none: no key. */
  apiKeyEnv: string | null;
  /** Longer texts are cut to this many characters before they are sent. */
  maxInputChars: number;
  /** Prefixes some models want ("search_query: " / "search_document: "). */
  queryPrefix: string;
  documentPrefix: string;
  /** OpenAI only: send `dimensions` (text-embedding-3 models shorten their vectors to it). */
  sendDimensions: boolean;
  quantization: VectorQuantization;
}

export const HTTP_DEFAULTS = {
  batchSize: 32, concurrency: 2, requestsPerMinute: 0, timeoutMs: 30_000, maxRetries: 5, retryBaseMs: 500, retryMaxMs: 20_000,
  apiKeyEnv: null, maxInputChars: 8_000, queryPrefix: '', documentPrefix: '', sendDimensions: false, quantization: 'int8',
} as const satisfies Partial<HttpProviderSettings>;

const KEYS: Record<string, keyof HttpProviderSettings> = {
  api: 'api', base_url: 'baseUrl', model: 'model', dims: 'dims', batch_size: 'batchSize', concurrency: 'concurrency',
  requests_per_minute: 'requestsPerMinute', timeout_ms: 'timeoutMs', max_retries: 'maxRetries', retry_base_ms: 'retryBaseMs',
  retry_max_ms: 'retryMaxMs', api_key_env: 'apiKeyEnv', max_input_chars: 'maxInputChars', query_prefix: 'queryPrefix',
  document_prefix: 'documentPrefix', send_dimensions: 'sendDimensions', quantization: 'quantization',
};

const INTEGER_RANGES: Partial<Record<keyof HttpProviderSettings, [number, number]>> = {
  dims: [1, 16_384], batchSize: [1, 2_048], concurrency: [1, 64], requestsPerMinute: [0, 1_000_000], timeoutMs: [100, 3_600_000],
  maxRetries: [0, 100], retryBaseMs: [0, 600_000], retryMaxMs: [0, 3_600_000], maxInputChars: [1, 10_000_000],
};

/** Settings from a `[semantic.http]` table (snake_case keys), checked, with defaults filled in. */
export function parseHttpSettings(raw: Record<string, unknown>): { ok: true; settings: HttpProviderSettings } | { ok: false; error: ProviderError } {
  const bad = (key: string, why: string) => ({ ok: false as const, error: providerError('provider_config', `semantic.http.${key} ${why}`, 'fix it in .hci/settings.toml', false) });
  const out: Record<string, unknown> = { ...HTTP_DEFAULTS };
  for (const [key, value] of Object.entries(raw)) {
    const field = KEYS[key];
    if (!field) return bad(key, `is not a setting (known: ${Object.keys(KEYS).join(', ')})`);
    out[field] = value;
  }
  for (const key of ['api', 'base_url', 'model', 'dims']) if (raw[key] === undefined) return bad(key, 'is required');
  const s = out as unknown as HttpProviderSettings;
  if (s.api !== 'ollama' && s.api !== 'openai') return bad('api', `must be "ollama" or "openai" (got ${JSON.stringify(s.api)})`);
  if (typeof s.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(s.baseUrl)) return bad('base_url', `must be an http(s) URL (got ${JSON.stringify(s.baseUrl)})`);
  s.baseUrl = s.baseUrl.replace(/\/+$/, '');
  if (typeof s.model !== 'string' || !s.model) return bad('model', 'must be a model name');
  for (const [field, [lo, hi]] of Object.entries(INTEGER_RANGES) as Array<[keyof HttpProviderSettings, [number, number]]>) {
    const v = s[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
      const key = Object.keys(KEYS).find((k) => KEYS[k] === field)!;
      return bad(key, `must be an integer in ${lo}…${hi} (got ${JSON.stringify(v)})`);
    }
  }
  if (s.apiKeyEnv !== null && (typeof s.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s.apiKeyEnv))) {
    return bad('api_key_env', 'must be the name of an environment variable (the key itself never goes into settings)');
  }
  for (const [key, field] of [['query_prefix', 'queryPrefix'], ['document_prefix', 'documentPrefix']] as const) {
    if (typeof s[field] !== 'string') return bad(key, 'must be a string');
  }
  if (typeof s.sendDimensions !== 'boolean') return bad('send_dimensions', 'must be true or false');
  if (s.quantization !== 'int8' && s.quantization !== 'f32') return bad('quantization', 'must be "int8" or "f32"');
  return { ok: true, settings: s };
}
