// The `http` embedding provider against a real stub server on 127.0.0.1 (Node's http) that speaks
// both Ollama's /api/embed and the OpenAI /v1/embeddings API, scripted per test: batching and
// concurrency, the rate limit, 429 bursts (with Retry-After), 5xx, timeouts, refused connections,
// malformed answers, auth failures, the API key (from an environment variable, never in a
// message), cancellation and partial results. Every failure is a ProviderError value. Each test has
// a server of its own (a request an earlier test sent late, say just before it cancelled, never
// counts in the next one's), and answers that must overlap or must never come are held by the
// server, not delayed by a timer a loaded machine could outrun.
// @lane unit
import { describe, it, expect, afterEach, beforeEach } from 'vitest';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpEmbeddingProvider, parseRetryAfter, type HttpEmbedFailure } from '../core/vector/http/provider.ts';
import { HTTP_DEFAULTS, parseHttpSettings, type HttpProviderSettings } from '../core/vector/http/settings.ts';
import type { EmbedResult } from '../core/vector/provider.ts';

const DIMS = 6;

/** The stub's vector for a text: deterministic, not unit length (the provider normalizes). */
function stubVector(text: string): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return Array.from({ length: DIMS }, (_, i) => (((h >>> (i * 3)) & 1023) + 1) / 100);
}

/** The stub vector as the provider stores it: as f32, scaled to unit length. */
function unit(v: number[]): number[] {
  const f = Float32Array.from(v);
  const inv = 1 / Math.sqrt(f.reduce((s, x) => s + x * x, 0));
  return Array.from(f, (x) => Math.fround(x * inv));
}

interface Seen {
  path: string;
  auth: string | undefined;
  body: { model: string; input: string[]; dimensions?: number; truncate?: boolean; encoding_format?: string };
  at: number;
}

/**
 * What the stub does with request number n (0-based): answer normally, or something else; `until`
 * holds the answer until the promise resolves (one that never does: an answer that never comes).
 */
type Behaviour = (n: number, req: Seen) => { status?: number; headers?: Record<string, string>; body?: string; until?: Promise<void>; destroy?: boolean } | null;

/** A promise that never resolves: the stub holds that request's answer until the test's server closes. */
const NEVER = new Promise<void>(() => {});

let server: http.Server | undefined;
let base = '';
let seen: Seen[] = [];
let inFlight = 0;
let maxInFlight = 0;
let behaviour: Behaviour = () => null;

beforeEach(async () => {
  seen = [];
  inFlight = 0;
  maxInFlight = 0;
  behaviour = () => null;
  const own = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (own !== server) return void req.socket.destroy(); // an earlier test's server: closed
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const s: Seen = { path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw), at: Date.now() };
      const n = seen.length;
      seen.push(s);
      const b = behaviour(n, s);
      const reply = () => {
        if (own !== server) return;
        inFlight--;
        if (b?.destroy) return void req.socket.destroy();
        if (b?.body !== undefined || b?.status !== undefined) {
          res.writeHead(b.status ?? 200, { 'content-type': 'application/json', ...b.headers }).end(b.body ?? '');
          return;
        }
        const vectors = s.body.input.map(stubVector);
        const body = s.path === '/api/embed'
          ? { model: s.body.model, embeddings: vectors }
          // OpenAI lists items with their index; shuffled here to check the provider orders by it.
          : { object: 'list', model: s.body.model, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(), usage: {} };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (b?.until) void b.until.then(reply);
      else reply();
    });
  });
  server = own;
  await new Promise<void>((r) => own.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
});

afterEach(async () => {
  const s = server;
  server = undefined;
  s?.closeAllConnections();
  await new Promise((r) => s?.close(r) ?? r(undefined));
});

// A request's time limit where a test is not about time limits: long enough that a loaded machine (two
// unit files at a time, other processes) never turns a reply of the local server into provider_timeout.
// The timeout tests set their own (150–200 ms against replies delayed on purpose).
function settings(over: Partial<HttpProviderSettings> = {}): HttpProviderSettings {
  return { ...HTTP_DEFAULTS, api: 'ollama', baseUrl: base, model: 'nomic-embed-text', dims: DIMS, retryBaseMs: 5, retryMaxMs: 50, timeoutMs: 15_000, ...over };
}

function provider(over: Partial<HttpProviderSettings> = {}, env: Record<string, string> = {}): HttpEmbeddingProvider {
  return new HttpEmbeddingProvider(settings(over), { fetch: globalThis.fetch, env: (n) => env[n], random: () => 0.5 });
}

function failure(r: EmbedResult): HttpEmbedFailure {
  expect(r.ok).toBe(false);
  return r as HttpEmbedFailure;
}

const texts = Array.from({ length: 50 }, (_, i) => `chunk ${i}: public void Method${i}() {}`);

describe('http provider: both APIs', () => {
  it.each(['ollama', 'openai'] as const)('%s: batches, concurrency, order and normalization', async (api) => {
    const progress: number[] = [];
    // Answers are held until three requests are in flight (or the last batch came): the client must
    // send them concurrently, or it waits forever; a delay instead could end before the next came.
    let held: Array<() => void> = [];
    behaviour = (n) => ({
      until: new Promise<void>((r) => {
        held.push(r);
        if (inFlight >= 3 || n === 6) (held.forEach((go) => go()), (held = []));
      }),
    });
    const p = provider({ api, baseUrl: api === 'openai' ? `${base}/v1` : base, batchSize: 8, concurrency: 3 });
    const r = await p.embed(texts, { onProgress: (done) => progress.push(done) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((s) => s.path))).toEqual(new Set([api === 'ollama' ? '/api/embed' : '/v1/embeddings']));
    expect(seen.every((s) => s.body.model === 'nomic-embed-text')).toBe(true);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(maxInFlight).toBeGreaterThan(1);
    texts.forEach((t, i) => expect(Array.from(r.vectors.subarray(i * DIMS, (i + 1) * DIMS))).toEqual(unit(stubVector(t))));
    expect(progress[progress.length - 1]).toBe(50);
    expect(p.key).toEqual({ provider: 'http', model: `${api}:nomic-embed-text`, dims: DIMS, quantization: 'int8' });
    if (api === 'openai') expect(seen[0].body.encoding_format).toBe('float');
    else expect(seen[0].body.truncate).toBe(true);
  });

  it('sends prefixes, cuts long texts, sends `dimensions` when asked, and skips the network for no texts', async () => {
    const p = provider({ api: 'openai', baseUrl: `${base}/v1`, queryPrefix: 'search_query: ', documentPrefix: 'search_document: ', maxInputChars: 20, sendDimensions: true });
    expect((await p.embed(['where is the cart total computed'], { kind: 'query' })).ok).toBe(true);
    expect(seen[0].body.input).toEqual(['search_query: where ']); // 20 characters, prefix included
    expect(seen[0].body.dimensions).toBe(DIMS);
    await p.embed(['', 'x']);
    expect(seen[1].body.input).toEqual(['search_document: ', 'search_document: x']);
    const none = await p.embed([]);
    expect(none.ok && none.vectors.length).toBe(0);
    expect(seen).toHaveLength(2);
  });

  it('keeps to the request rate limit', async () => {
    // A clock that stands still and a sleep that records what it was asked: the five batches get
    // start slots 100 ms apart (600 a minute), whatever the machine's load does to real timers.
    const waits: number[] = [];
    const p = new HttpEmbeddingProvider(settings({ batchSize: 10, concurrency: 4, requestsPerMinute: 600 }), {
      fetch: globalThis.fetch, env: () => undefined, random: () => 0.5, now: () => 1_000, sleep: async (ms) => { waits.push(ms); },
    });
    expect((await p.embed(texts)).ok).toBe(true);
    expect(seen).toHaveLength(5);
    expect(waits.sort((a, b) => a - b)).toEqual([100, 200, 300, 400]);
  });
});

describe('http provider: retries and failures', () => {
  it('rides out a 429 burst, honouring Retry-After', async () => {
    behaviour = (n) => (n < 3 ? { status: 429, headers: { 'retry-after': '0.02' }, body: '{"error":"slow down"}' } : null);
    const waits: number[] = [];
    const p = new HttpEmbeddingProvider(settings({ batchSize: 100, retryBaseMs: 1 }), { fetch: globalThis.fetch, env: () => undefined, random: () => 0.5, sleep: async (ms) => { waits.push(ms); } });
    const r = await p.embed(texts);
    expect(r.ok).toBe(true);
    expect(seen).toHaveLength(4);
    // Each retry waited for what Retry-After asked (20 ms), not its backoff (1-4 ms here).
    expect(waits).toHaveLength(3);
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(20);
  });

  it('gives up on endless 429s as provider_rate_limited, after 1 + max_retries attempts', async () => {
    behaviour = () => ({ status: 429, body: '{"error":{"message":"quota exceeded"}}' });
    const f = failure(await provider({ maxRetries: 3 }).embed(texts.slice(0, 2)));
    expect(f.error).toMatchObject({ code: 'provider_rate_limited', retryable: true, status: 429 });
    expect(f.error.message).toMatch(/quota exceeded.*gave up after 4 attempts/);
    expect(seen).toHaveLength(4);
  });

  it('retries 5xx, then succeeds', async () => {
    behaviour = (n) => (n === 0 ? { status: 503, body: 'busy' } : n === 1 ? { status: 500, body: '{"error":"oops"}' } : null);
    expect((await provider().embed(texts.slice(0, 3))).ok).toBe(true);
    expect(seen).toHaveLength(3);
  });

  it('times out a slow answer, retries, and reports provider_timeout when it stays slow', async () => {
    // The slow answers never come (held by the server). The limit is 3 s where the retry's prompt answer
    // must beat it on a loaded machine; where every answer is held, 150 ms, and the attempts are counted
    // as the client makes them (a request aborted that early may not have reached the server yet).
    let attempts = 0;
    const counted = (over: Partial<HttpProviderSettings>) =>
      new HttpEmbeddingProvider(settings(over), { fetch: (...a: Parameters<typeof fetch>) => (attempts++, globalThis.fetch(...a)), env: () => undefined, random: () => 0.5 });
    behaviour = (n) => (n === 0 ? { until: NEVER } : null);
    expect((await counted({ timeoutMs: 3_000 }).embed(texts.slice(0, 2))).ok).toBe(true);
    expect(seen).toHaveLength(2);
    expect(attempts).toBe(2);
    attempts = 0;
    behaviour = () => ({ until: NEVER });
    const f = failure(await counted({ timeoutMs: 150, maxRetries: 1 }).embed(texts.slice(0, 2)));
    expect(f.error).toMatchObject({ code: 'provider_timeout', retryable: true });
    expect(attempts).toBe(2);
  });

  it('reports a refused connection or a dropped socket as provider_unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const f = failure(await provider({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }).embed(['x']));
    expect(f.error.code).toBe('provider_unreachable');
    expect(f.error.message).toMatch(/ECONNREFUSED|fetch failed/);
    behaviour = () => ({ destroy: true });
    expect(failure(await provider({ maxRetries: 1 }).embed(['x'])).error.code).toBe('provider_unreachable');
    expect(seen).toHaveLength(2);
  });

  it.each([
    ['not JSON', { body: '<html>proxy error</html>' }, /not JSON/],
    ['no embeddings', { body: '{"vectors":[]}' }, /no "embeddings" array/],
    ['too few vectors', { body: JSON.stringify({ embeddings: [[1, 2, 3, 4, 5, 6]] }) }, /1 vectors for 2 inputs/],
    ['wrong dims', { body: JSON.stringify({ embeddings: [[1, 2], [3, 4]] }) }, /2 dimensions, settings say 6/],
    ['not numbers', { body: JSON.stringify({ embeddings: [[1, 2, 3, 4, 5, 'x'], [1, 2, 3, 4, 5, null]] }) }, /not a finite number/],
  ])('rejects a malformed answer (%s) as provider_bad_response without retrying', async (_name, answer, message) => {
    behaviour = () => answer;
    const f = failure(await provider().embed(['a', 'b']));
    expect(f.error.code).toBe('provider_bad_response');
    expect(f.error.message).toMatch(message);
    expect(seen).toHaveLength(1);
  });

  it('rejects OpenAI answers with missing or repeated indexes', async () => {
    behaviour = () => ({ body: JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3, 4, 5, 6] }, { index: 0, embedding: [1, 2, 3, 4, 5, 6] }] }) });
    const f = failure(await provider({ api: 'openai', baseUrl: `${base}/v1` }).embed(['a', 'b']));
    expect(f.error.message).toMatch(/repeated indexes/);
  });

  it('does not retry 4xx: a missing model is provider_http with the server message', async () => {
    behaviour = () => ({ status: 404, body: '{"error":"model \\"nomic\\" not found, try pulling it first"}' });
    const f = failure(await provider().embed(['a']));
    expect(f.error).toMatchObject({ code: 'provider_http', status: 404, retryable: false });
    expect(f.error.message).toMatch(/not found, try pulling it first/);
    expect(seen).toHaveLength(1);
  });

  it('returns the batches that did succeed when a later one fails', async () => {
    behaviour = (n) => (n >= 2 ? { status: 400, body: '{"error":"input too long"}' } : null);
    const f = failure(await provider({ batchSize: 10, concurrency: 1 }).embed(texts));
    expect(Array.from(f.partial.done.subarray(0, 20)).every((d) => d === 1)).toBe(true);
    expect(Array.from(f.partial.done.subarray(20)).every((d) => d === 0)).toBe(true);
    expect(Array.from(f.partial.vectors.subarray(0, DIMS))).toEqual(unit(stubVector(texts[0])));
    expect(seen).toHaveLength(3);
  });

  it('stops when cancelled', async () => {
    // Cancelled while the second batch's request waits at the server (its answer never comes).
    const ctl = new AbortController();
    behaviour = (n) => (n === 0 ? null : (ctl.abort(), { until: NEVER }));
    const f = failure(await provider({ batchSize: 5, concurrency: 1 }).embed(texts, { signal: ctl.signal }));
    expect(f.error.code).toBe('provider_aborted');
    expect(seen).toHaveLength(2);
  });

  it('never rejects, even when fetch itself throws', async () => {
    const p = new HttpEmbeddingProvider(settings({ maxRetries: 0 }), { fetch: () => { throw new TypeError('fetch is broken'); } });
    const f = failure(await p.embed(['a']));
    expect(f.error.code).toBe('provider_unreachable');
    expect(f.error.message).toMatch(/fetch is broken/);
  });
});

describe('http provider: the API key', () => {
  const SECRET = 'sk-test-5ecr3t-value';

  it('is read from the named environment variable and sent only as a Bearer header', async () => {
    const r = await provider({ apiKeyEnv: 'HCI_TEST_KEY' }, { HCI_TEST_KEY: SECRET }).embed(['a']);
    expect(r.ok).toBe(true);
    expect(seen[0].auth).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(seen[0].body)).not.toContain(SECRET);
    const p = provider({ apiKeyEnv: 'HCI_TEST_KEY' }, { HCI_TEST_KEY: SECRET });
    expect(JSON.stringify(p.settings)).not.toContain(SECRET);
    expect(JSON.stringify(p.key)).not.toContain(SECRET);
  });

  it('a missing variable is provider_config, and no request is sent', async () => {
    const f = failure(await provider({ apiKeyEnv: 'HCI_TEST_KEY' }, {}).embed(['a']));
    expect(f.error).toMatchObject({ code: 'provider_config', retryable: false });
    expect(f.error.message).toMatch(/HCI_TEST_KEY is not set/);
    expect(seen).toHaveLength(0);
  });

  it('a 401 is provider_auth, and a key the server echoes back never reaches the message', async () => {
    behaviour = (_n, s) => ({ status: 401, body: JSON.stringify({ error: { message: `invalid key ${s.auth?.slice(7)}` } }) });
    const f = failure(await provider({ apiKeyEnv: 'HCI_TEST_KEY' }, { HCI_TEST_KEY: SECRET }).embed(['a']));
    expect(f.error).toMatchObject({ code: 'provider_auth', status: 401, retryable: false });
    expect(f.error.message).toContain('[redacted]');
    expect(JSON.stringify(f.error)).not.toContain(SECRET);
    expect(seen).toHaveLength(1);
  });
});

describe('http provider settings', () => {
  it('fills defaults from snake_case keys and strips a trailing slash', () => {
    const r = parseHttpSettings({ api: 'openai', base_url: 'http://127.0.0.1:8080/v1/', model: 'text-embedding-3-small', dims: 512, batch_size: 64, api_key_env: 'OPENAI_API_KEY' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.settings).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', batchSize: 64, concurrency: 2, timeoutMs: 30_000, apiKeyEnv: 'OPENAI_API_KEY', quantization: 'int8' });
  });

  it.each([
    [{ base_url: 'http://x', model: 'm', dims: 4 }, /api is required/],
    [{ api: 'cohere', base_url: 'http://x', model: 'm', dims: 4 }, /"ollama" or "openai"/],
    [{ api: 'ollama', base_url: 'ftp://x', model: 'm', dims: 4 }, /http\(s\) URL/],
    [{ api: 'ollama', base_url: 'http://x', model: 'm', dims: 0 }, /dims must be an integer/],
    [{ api: 'ollama', base_url: 'http://x', model: 'm', dims: 4, api_key: 'sk-1' }, /api_key is not a setting/],
    [{ api: 'ollama', base_url: 'http://x', model: 'm', dims: 4, api_key_env: 'sk-live abc' }, /name of an environment variable/],
    [{ api: 'ollama', base_url: 'http://x', model: 'm', dims: 4, concurrency: 1.5 }, /concurrency must be an integer/],
  ])('rejects %j', (raw, message) => {
    const r = parseHttpSettings(raw as Record<string, unknown>);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('provider_config');
      expect(r.error.message).toMatch(message);
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });
});
