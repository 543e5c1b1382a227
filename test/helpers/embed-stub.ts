// A stub embedding server on 127.0.0.1 (Node's http) speaking Ollama's /api/embed and the OpenAI
// /v1/embeddings API with deterministic vectors (a hash of the text), scriptable per request:
// fail from the n-th request on, answer slowly, count what was asked. For tests that wire the http
// provider through indexing; test/http-provider.test.ts has its own, finer-grained one.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbedStub {
  url: string;
  /** Texts embedded so far (every input of every successful request). */
  texts: string[];
  requests: number;
  /** From this request number on (0-based), answer 500 (null: never). */
  failFrom: number | null;
  close(): Promise<void>;
}

/** The stub's vector for a text: deterministic, words sharing letters get closer vectors. */
export function stubVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims] += 1;
    v[(h >>> 8) % dims] += 0.5;
  }
  v[0] += 0.01;
  return v;
}

export async function startEmbedStub(dims: number): Promise<EmbedStub> {
  const stub: EmbedStub = { url: '', texts: [], requests: 0, failFrom: null, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const n = stub.requests++;
      if (stub.failFrom !== null && n >= stub.failFrom) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'stub: down' }));
        return;
      }
      const body = JSON.parse(raw) as { input: string[]; model: string };
      stub.texts.push(...body.input);
      const vectors = body.input.map((t) => stubVector(t, dims));
      const answer = req.url === '/api/embed'
        ? { model: body.model, embeddings: vectors }
        : { object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  return stub;
}
