// The `onnx` provider over a tiny model generated in plain JS (scripts/make-onnx-fixture.mjs: a
// protobuf-encoded ONNX graph and a WordPiece tokenizer.json; no download, no Python), run by the
// real onnxruntime-web: vectors equal the same model computed in JS (tokenizer, mean pooling over
// the mask, unit length), batching does not change them, the token budget truncates; a workspace
// indexed with it answers hybrid searches; without onnxruntime-web the provider is
// `provider_unavailable` naming the install command; and Node, Deno and Chromium give the same bits.
// @lane runtimes
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { writeFixture, referenceEmbedding } from '../scripts/make-onnx-fixture.mjs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { nodeVectorHost } from '../runtimes/node/vector-host.ts';
import { createOnnxProvider, ONNXRUNTIME_WEB_VERSION } from '../core/vector/onnx/provider.ts';
import { WordPieceTokenizer } from '../core/vector/onnx/tokenizer.ts';
import { LONG_TEXT, ONNX_TEXTS, onnxFingerprint, type OnnxFingerprint } from './helpers/onnx-fingerprint.ts';
import { buildTestPage, serveStatic, launchChromium, REPO, type BrowserSession, type StaticServer } from './helpers/browser.ts';
import { startDeno } from './helpers/deno.ts';
import { chromiumBinary, denoBinary } from './helpers/runtimes.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const tmp: string[] = [];
let modelDir: string;
let node: OnnxFingerprint;

beforeAll(async () => {
  const dir = tmpDir('hci-onnx-');
  tmp.push(dir);
  modelDir = writeFixture(path.join(dir, 'tiny-encoder')) as string;
  node = await onnxFingerprint(nodeVectorHost.onnx!, modelDir);
});

afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

describe('the onnx provider (Node)', () => {
  it('embeds as the model does: WordPiece ids, mean pooling over the mask, unit length; batching and the token budget', () => {
    const tok = WordPieceTokenizer.fromJson(fs.readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8'));
    expect(node.key).toMatchObject({ provider: 'onnx', dims: 8, quantization: 'int8', model: expect.stringMatching(/^tiny-encoder\/model\.onnx@[0-9a-f]{16}$/) });
    ONNX_TEXTS.forEach((t, i) => {
      const ids = tok.encode(t, 16).ids;
      const want = referenceEmbedding(ids) as number[];
      node.batched[i].forEach((x, k) => expect(x).toBeCloseTo(want[k], 5));
      expect(Math.hypot(...node.batched[i])).toBeCloseTo(1, 5);
    });
    // Words the vocabulary lacks fall back to characters; an accented word loses its accents.
    expect(tok.encode('café', 16).ids).toEqual(tok.encode('cafe', 16).ids);
    // Batching (3 per run, padded) gives exactly what one text at a time gives.
    expect(node.batched).toEqual(node.single);
    // 16 tokens: [CLS], 14 pieces, [SEP].
    expect(tok.encode(LONG_TEXT, 16).ids).toHaveLength(16);
    expect(node.long).toEqual(node.longPrefix);
    // The query prefix is embedded with the query.
    expect(node.query).not.toEqual(node.batched[2]);
  });

  it('without onnxruntime-web: provider_unavailable, naming the install command', async () => {
    const host = { ...nodeVectorHost.onnx!, loadRuntime: () => Promise.reject(new Error("Cannot find package 'onnxruntime-web'")) };
    const p = await createOnnxProvider({ model_dir: modelDir, max_tokens: 16, batch_size: 4, query_prefix: '', document_prefix: '', quantization: 'int8' }, host, '/');
    expect(p).toMatchObject({ code: 'provider_unavailable', hint: expect.stringContaining(`npm install onnxruntime-web@${ONNXRUNTIME_WEB_VERSION}`) });
    const missing = await createOnnxProvider({ model_dir: path.join(modelDir, 'nope'), max_tokens: 16, batch_size: 4, query_prefix: '', document_prefix: '', quantization: 'int8' }, nodeVectorHost.onnx, '/');
    expect(missing).toMatchObject({ code: 'provider_config', hint: expect.stringMatching(/tokenizer\.json/) });
  });

  it('indexes a workspace with it (model folder relative to the root) and answers hybrid searches', async () => {
    const root = tmpDir('hci-onnx-ws-');
    tmp.push(root);
    fs.cpSync(path.join(REPO, 'test/sample-workspace/src/Contoso.Shop.Application'), path.join(root, 'src'), { recursive: true });
    fs.cpSync(modelDir, path.join(root, 'models/tiny'), { recursive: true });
    fs.mkdirSync(path.join(root, '.hci'));
    fs.writeFileSync(path.join(root, '.hci/settings.toml'), '[semantic]\nenabled = true\nprovider = "onnx"\n[semantic.onnx]\nmodel_dir = "models/tiny"\nmax_tokens = 64\n');
    const w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.vectors).toMatchObject({ provider: 'onnx', error: null });
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect(s.vectors!.model).toMatch(/^onnx\/tiny\/model\.onnx@[0-9a-f]{16}\/8\/int8$/);
      const r = await w.search({ query: 'apply the discount to the order', mode: 'hybrid' });
      expect(r.status).toBe('ok');
      expect(r.hits.some((h) => h.vec_score !== undefined)).toBe(true);
      const again = await w.index();
      expect(again.vectors).toMatchObject({ embedded: 0, error: null });
    } finally {
      w.close();
    }
  });
});

describe('the onnx provider in Deno and Chromium', () => {
  const deno = denoBinary();
  const chromium = chromiumBinary();
  let session: BrowserSession | undefined;
  let server: StaticServer | undefined;

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it.skipIf(!deno)('Deno gives the same bits', async () => {
    const run = startDeno(deno!, ['--no-prompt', `--allow-read=${modelDir},${path.join(REPO, 'node_modules')}`], path.join(REPO, 'test/helpers/deno-onnx.ts'), [modelDir]);
    const r = await run.exited;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual(node);
  }, 120_000);

  it.skipIf(!chromium)('Chromium gives the same bits (onnxruntime-web from the page\'s origin)', async () => {
    const [out, launched] = await Promise.all([buildTestPage(path.join(REPO, 'test/browser-onnx')), launchChromium(chromium!)]);
    tmp.push(out);
    session = launched;
    server = await serveStatic(out);
    const dist = path.join(REPO, 'node_modules/onnxruntime-web/dist');
    for (const f of ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm']) server.put(`/ort/${f}`, fs.readFileSync(path.join(dist, f)));
    server.put('/model/tokenizer.json', fs.readFileSync(path.join(modelDir, 'tokenizer.json')));
    server.put('/model/onnx/model.onnx', fs.readFileSync(path.join(modelDir, 'onnx/model.onnx')));
    await session.page.goto(server.url);
    await session.page.waitForFunction(() => 'onnxFingerprint' in window, undefined, { timeout: 30_000 });
    const fromChromium = await session.page.evaluate(
      ([o, m]) => (window as unknown as { onnxFingerprint(o: string, m: string): Promise<unknown> }).onnxFingerprint(o, m),
      [`${server.url}/ort/`, `${server.url}/model`],
    );
    expect({ ...(fromChromium as OnnxFingerprint), key: { ...(fromChromium as OnnxFingerprint).key, model: node.key.model.replace(/^[^/]+/, 'model') } })
      .toEqual({ ...node, key: { ...node.key, model: node.key.model.replace(/^[^/]+/, 'model') } });
    expect(session.requests.every((u) => u.startsWith(server!.url))).toBe(true);
  }, 180_000);
});
