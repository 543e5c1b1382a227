// The two embedding HTTP APIs hci speaks: Ollama's `POST /api/embed` and the OpenAI-compatible
// `POST /v1/embeddings`. Owns the request bodies and reading the answers, with every promise the
// API makes checked (one finite vector of `dims` numbers per input, in input order); anything else
// is a provider_bad_response. Sending, retrying and scheduling are provider.ts's.
import { providerError, type ProviderError } from '../provider.ts';
import type { HttpProviderSettings } from './settings.ts';

export interface ApiRequest {
  url: string;
  body: string;
}

export function buildRequest(s: HttpProviderSettings, inputs: readonly string[]): ApiRequest {
  if (s.api === 'ollama') {
    return { url: `${s.baseUrl}/api/embed`, body: JSON.stringify({ model: s.model, input: inputs, truncate: true }) };
  }
  const body: Record<string, unknown> = { model: s.model, input: inputs, encoding_format: 'float' };
  if (s.sendDimensions) body.dimensions = s.dims;
  return { url: `${s.baseUrl}/embeddings`, body: JSON.stringify(body) };
}

/** The vectors of one answer, in input order, or what is wrong with it. */
export function parseAnswer(s: HttpProviderSettings, text: string, count: number): { ok: true; vectors: number[][] } | { ok: false; error: ProviderError } {
  const bad = (why: string) => ({
    ok: false as const,
    error: providerError('provider_bad_response', `${s.api} embeddings answer from ${s.baseUrl}: ${why}`, `check that ${s.baseUrl} serves the ${s.api === 'ollama' ? 'Ollama /api/embed' : 'OpenAI /v1/embeddings'} API and that model "${s.model}" gives ${s.dims}-dimensional vectors (semantic.http.dims)`, true),
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(`not JSON (${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? '…' : ''})`);
  }
  let vectors: unknown[];
  if (s.api === 'ollama') {
    const e = (json as { embeddings?: unknown })?.embeddings;
    if (!Array.isArray(e)) return bad('no "embeddings" array');
    vectors = e;
  } else {
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data)) return bad('no "data" array');
    vectors = new Array(data.length);
    for (const item of data as Array<{ index?: unknown; embedding?: unknown }>) {
      const i = item?.index;
      if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= data.length || vectors[i] !== undefined) return bad('"data" items have missing or repeated indexes');
      vectors[i] = item.embedding;
    }
  }
  if (vectors.length !== count) return bad(`${vectors.length} vectors for ${count} inputs`);
  for (const v of vectors) {
    if (!Array.isArray(v)) return bad('a vector is not an array of numbers');
    if (v.length !== s.dims) return bad(`a vector has ${v.length} dimensions, settings say ${s.dims}`);
    for (const x of v) if (typeof x !== 'number' || !Number.isFinite(x)) return bad('a vector holds a value that is not a finite number');
  }
  return { ok: true, vectors: vectors as number[][] };
}

/** The error message an API put in a failed answer, when it has one (shortened). */
export function apiErrorMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown };
    const e = json?.error;
    const msg = typeof e === 'string' ? e : typeof (e as { message?: unknown })?.message === 'string' ? (e as { message: string }).message : null;
    if (msg) return msg.slice(0, 200);
  } catch {
    // not JSON
  }
  return text.slice(0, 200);
}
