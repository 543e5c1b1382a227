// The `http` embedding provider: chunk texts to vectors through an Ollama or OpenAI-compatible
// endpoint, with `fetch` as its only platform dependency (injected; every runtime has one). Owns
// batching, concurrency, the request-rate limit, per-request timeouts, retries with exponential
// backoff (and Retry-After) on 429, 5xx, timeouts and connection failures, and turning every
// failure into a ProviderError value: embed() never rejects, so a failing endpoint can never block
// or corrupt keyword indexing. The API key is read from the environment variable the settings name
// at each call, sent only in the Authorization header, and never kept, logged or put in a message.
// Request and answer formats live in apis.ts, settings in settings.ts.
import { normalizeRows } from '../quantize.ts';
import { providerError, type EmbedOptions, type EmbedResult, type EmbeddingProvider, type ModelKey, type ProviderError } from '../provider.ts';
import { apiErrorMessage, buildRequest, parseAnswer } from './apis.ts';
import type { HttpProviderSettings } from './settings.ts';

export interface HttpProviderDeps {
  fetch: typeof fetch;
  /** Reads an environment variable, as the runtime adapter provides it (runtimes/<runtime>/vector-host.ts); without it no API key can be used. */
  env?: (name: string) => string | undefined;
  /** Waits ms (default: setTimeout); resolves early when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Backoff jitter in [0, 1) (default Math.random). */
  random?: () => number;
}

/** The failure embed() reports, with the texts that did get vectors (the cache keeps those). */
export type HttpEmbedFailure = Extract<EmbedResult, { ok: false }> & { partial: { vectors: Float32Array; done: Uint8Array } };

type Attempt =
  | { kind: 'ok'; vectors: number[][] }
  | { kind: 'retry'; error: ProviderError; retryAfterMs?: number }
  | { kind: 'fail'; error: ProviderError };

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

export class HttpEmbeddingProvider implements EmbeddingProvider {
  readonly id = 'http';
  private nextStart = 0;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(readonly settings: HttpProviderSettings, private readonly deps: HttpProviderDeps) {
    this.sleep = deps.sleep ?? defaultSleep;
    this.now = deps.now ?? (() => Date.now());
    this.random = deps.random ?? Math.random;
  }

  get dims(): number {
    return this.settings.dims;
  }

  get key(): ModelKey {
    return { provider: this.id, model: `${this.settings.api}:${this.settings.model}`, dims: this.settings.dims, quantization: this.settings.quantization };
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbedResult | HttpEmbedFailure> {
    const s = this.settings;
    const vectors = new Float32Array(texts.length * s.dims);
    const done = new Uint8Array(texts.length);
    const failed = (error: ProviderError): HttpEmbedFailure => ({ ok: false, error: this.redact(error, apiKey), partial: { vectors, done } });
    let apiKey: string | undefined;
    if (s.apiKeyEnv) {
      apiKey = this.deps.env?.(s.apiKeyEnv);
      if (!apiKey) {
        return failed(providerError('provider_config', `the API key variable ${s.apiKeyEnv} is not set`, `set the environment variable ${s.apiKeyEnv} to the key (hci reads it from the environment and never stores it)`, false));
      }
    }
    try {
      const prefix = opts.kind === 'query' ? s.queryPrefix : s.documentPrefix;
      const inputs = texts.map((t) => (prefix + t).slice(0, s.maxInputChars) || ' ');
      const batches: number[] = [];
      for (let i = 0; i < inputs.length; i += s.batchSize) batches.push(i);
      let next = 0;
      let embedded = 0;
      let error: ProviderError | null = null;
      const worker = async () => {
        while (error === null && next < batches.length) {
          const start = batches[next++];
          const batch = inputs.slice(start, start + s.batchSize);
          const r = await this.requestWithRetries(batch, apiKey, opts.signal);
          if (r.kind !== 'ok') {
            error ??= r.error;
            return;
          }
          for (let i = 0; i < batch.length; i++) {
            vectors.set(r.vectors[i], (start + i) * s.dims);
            done[start + i] = 1;
          }
          normalizeRows(vectors.subarray(start * s.dims, (start + batch.length) * s.dims), s.dims);
          embedded += batch.length;
          opts.onProgress?.(embedded, texts.length);
        }
      };
      await Promise.all(Array.from({ length: Math.min(s.concurrency, batches.length) }, worker));
      if (error) return failed(error);
      return { ok: true, vectors };
    } catch (e) {
      return failed(providerError('provider_http', `embedding through ${s.baseUrl} failed: ${(e as Error)?.message ?? String(e)}`, 'see the message; keyword search is unaffected', true));
    }
  }

  private async requestWithRetries(batch: readonly string[], apiKey: string | undefined, signal?: AbortSignal): Promise<Attempt> {
    const s = this.settings;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) return { kind: 'fail', error: aborted() };
      await this.rateSlot(signal);
      if (signal?.aborted) return { kind: 'fail', error: aborted() };
      const r = await this.requestOnce(batch, apiKey, signal);
      if (r.kind !== 'retry') return r;
      if (attempt >= s.maxRetries) {
        const e = r.error;
        return { kind: 'fail', error: { ...e, message: `${e.message} (gave up after ${attempt + 1} attempts)` } };
      }
      const backoff = Math.min(s.retryMaxMs, s.retryBaseMs * 2 ** attempt) * (0.5 + this.random() / 2);
      await this.sleep(Math.min(s.retryMaxMs, Math.max(backoff, r.retryAfterMs ?? 0)), signal);
    }
  }

  /** Waits for the next request start the rate limit allows (slots are handed out in call order). */
  private async rateSlot(signal?: AbortSignal): Promise<void> {
    const rpm = this.settings.requestsPerMinute;
    if (rpm <= 0) return;
    const now = this.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + 60_000 / rpm;
    if (at > now) await this.sleep(at - now, signal);
  }

  private async requestOnce(batch: readonly string[], apiKey: string | undefined, signal?: AbortSignal): Promise<Attempt> {
    const s = this.settings;
    const req = buildRequest(s, batch);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, s.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort);
    let status = 0;
    let text: string;
    let retryAfterMs: number | undefined;
    try {
      const res = await this.deps.fetch(req.url, { method: 'POST', headers, body: req.body, signal: controller.signal });
      status = res.status;
      retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.now());
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) return { kind: 'fail', error: aborted() };
      if (timedOut) {
        return { kind: 'retry', error: providerError('provider_timeout', `${req.url} did not answer within ${s.timeoutMs} ms`, 'raise semantic.http.timeout_ms, lower batch_size, or check the server', true) };
      }
      const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
      const why = cause?.code ?? cause?.message ?? (e as Error)?.message ?? String(e);
      return { kind: 'retry', error: providerError('provider_unreachable', `cannot reach ${req.url} (${why})`, `check that the embedding server runs at ${s.baseUrl} (semantic.http.base_url)`, true) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (status >= 200 && status < 300) {
      const parsed = parseAnswer(s, text, batch.length);
      return parsed.ok ? { kind: 'ok', vectors: parsed.vectors } : { kind: 'fail', error: parsed.error };
    }
    const detail = apiErrorMessage(text);
    if (status === 429) {
      return { kind: 'retry', retryAfterMs, error: providerError('provider_rate_limited', `${req.url} is rate limiting (429: ${detail})`, 'lower semantic.http.requests_per_minute or concurrency, or try again later', true, status) };
    }
    if (RETRY_STATUS.has(status)) {
      return { kind: 'retry', retryAfterMs, error: providerError('provider_http', `${req.url} failed (${status}: ${detail})`, 'the server had trouble; hci retried with backoff — try again later', true, status) };
    }
    if (status === 401 || status === 403) {
      return { kind: 'fail', error: providerError('provider_auth', `${req.url} refused the request (${status}: ${detail})`, s.apiKeyEnv ? `check the key in ${s.apiKeyEnv}` : 'the server wants an API key: name its environment variable in semantic.http.api_key_env', false, status) };
    }
    return { kind: 'fail', error: providerError('provider_http', `${req.url} answered ${status}: ${detail}`, `check semantic.http.model ("${s.model}") and base_url`, false, status) };
  }

  /** The key never appears in what the provider reports, even when a server echoes it back. */
  private redact(e: ProviderError, apiKey: string | undefined): ProviderError {
    if (!apiKey) return e;
    const hide = (t: string) => t.split(apiKey).join('[redacted]');
    return { ...e, message: hide(e.message), hint: hide(e.hint) };
  }
}

function aborted(): ProviderError {
  return providerError('provider_aborted', 'embedding was cancelled', 'run it again', true);
}

/** Retry-After: delta seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}
