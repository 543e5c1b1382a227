// One core, three runtimes, the same vectors: the learned model trained from the same chunks is
// bit-identical in Node (in process), Deno (deno run on the sources, read access to the corpus
// only) and headless Chromium (a Vite-built page, in the page and in a Worker) — model bytes,
// training, query and later-chunk vectors — and the KNN hits and scores through the WASM SIMD
// kernel and its JS twin are identical everywhere, for int8 and f32. The code model shipped in the
// package (models/code-model.bin) is read by each runtime's own loader (Node's file read, Deno's,
// the browser's fetch of the URL hciVitePlugin gives) and embeds the same bits everywhere, alone and
// as the combined provider's vectors (beside a learned model trained on the corpus), and a model with a
// query table (format 2) made from it gives the same bytes and query vectors everywhere.
// @lane runtimes
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildTestPage, serveStatic, launchChromium, REPO, type BrowserSession, type StaticServer } from './helpers/browser.ts';
import { startDeno } from './helpers/deno.ts';
import { chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
const chromium = chromiumBinary();
import { sampleCorpus } from './helpers/vector-corpus.ts';
import { pretrainedFingerprint, vectorFingerprint, type PretrainedFingerprint, type VectorFingerprint } from './helpers/vector-fingerprint.ts';
import { nodeVectorHost } from '../runtimes/node/vector-host.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

describe('vector parity: Node, Deno and Chromium', () => {
  const tmp: string[] = [];
  let session: BrowserSession | undefined;
  let server: StaticServer | undefined;

  afterAll(async () => {
    await session?.close();
    await server?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('learned model, vectors and KNN hits are bit-identical', async (ctx) => {
    const corpus = sampleCorpus();
    const node = await vectorFingerprint(corpus);
    const nodePre: PretrainedFingerprint = await pretrainedFingerprint(nodeVectorHost.codeModel!, corpus);
    expect(nodePre.key).toMatch(/^pretrained\/hci-code@[0-9a-f]{16}\/\d+$/);
    expect(nodePre.vocab).toBeGreaterThan(10_000);
    expect(nodePre.combined.key).toMatch(/^combined\/hci-code@[0-9a-f]{16}\+ppmi-svd-sif-1@[0-9a-f]{16}\/448$/);
    // The format 2 model made from it: chunks as the code model's (its main table), queries from the query table.
    expect(nodePre.queryTable.textsSha).toBe(nodePre.textsSha);
    expect(nodePre.queryTable.queriesSha).not.toBe(nodePre.queriesSha);
    expect(nodePre.queryTable.combinedQueriesSha).not.toBe(nodePre.combined.queriesSha);
    expect(node.embedMatchesTraining).toBe(true);
    expect(node.backends).toEqual(['int8/wasm-simd', 'int8/js', 'f32/wasm-simd', 'f32/js']);
    // Both backends agree inside one runtime too.
    expect(node.knn['int8/js']).toEqual(node.knn['int8/wasm-simd']);
    expect(node.knn['f32/js']).toEqual(node.knn['f32/wasm-simd']);
    expect(node.knn['int8/wasm-simd'][0]).toHaveLength(10);
    expect(node.knn['int8/wasm-simd'][4]).toEqual([]); // an all-unknown query finds nothing
    // Without Deno or Chromium (never in CI: runtimes required) the test says it was skipped.
    if (!deno || !chromium) return ctx.skip(titled('the Deno and Chromium comparison', { Deno: deno, Chromium: chromium }));

    const dir = tmpDir('hci-vector-corpus-');
    tmp.push(dir);
    const file = path.join(dir, 'corpus.json');
    fs.writeFileSync(file, JSON.stringify(corpus));
    const run = startDeno(deno, ['--no-prompt', `--allow-read=${file},${path.join(REPO, 'models/code-model.bin')}`], path.join(REPO, 'test/helpers/deno-vector.ts'), [file]);
    const [denoResult, out, launched] = await Promise.all([run.exited, buildTestPage(path.join(REPO, 'test/browser-vector')), launchChromium(chromium)]);
    tmp.push(out);
    session = launched;
    expect(denoResult.code, denoResult.stderr).toBe(0);
    const fromDeno = denoResult.json as { learned: VectorFingerprint; pretrained: PretrainedFingerprint };

    server = await serveStatic(out);
    server.put('/fixtures/corpus.json', new TextEncoder().encode(JSON.stringify(corpus)));
    await session.page.goto(server.url);
    await session.page.waitForFunction(() => 'vectorFingerprint' in window, undefined, { timeout: 30_000 });
    const fromChromium = (await session.page.evaluate(
      (u) => (window as unknown as { vectorFingerprint(u: string): Promise<unknown> }).vectorFingerprint(u),
      '/fixtures/corpus.json',
    )) as Record<'page' | 'worker', { learned: VectorFingerprint; pretrained: PretrainedFingerprint }>;

    const want = { learned: node, pretrained: nodePre };
    expect(fromDeno).toEqual(want);
    expect(fromChromium.page).toEqual(want);
    expect(fromChromium.worker).toEqual(want);
    expect(session.requests.every((u) => u.startsWith(server!.url))).toBe(true);
    console.log(`vector parity: model ${node.modelBytes} bytes (${node.vocab} tokens × ${node.dims} dims) sha ${node.modelSha.slice(0, 16)}, vectors ${node.vectorsSha.slice(0, 16)}, identical in Node, Deno and Chromium (page + Worker); code model ${nodePre.bytes} bytes (${nodePre.vocab} tokens × ${nodePre.dims}) sha ${nodePre.sha.slice(0, 16)}, vectors ${nodePre.textsSha.slice(0, 16)}, identical too`);
  }, 180_000);
});
