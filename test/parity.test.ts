// One core, three runtimes: the sample workspace indexed in Node (in process), in Deno (deno run with
// the narrow permissions) and in headless Chromium (the module Worker on OPFS, files from a .zip)
// gives identical ranked results for every query — paths, line ranges, scores, hit ids, snippets.
// It also prints index time and search latency side by side.
// @lane runtimes
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchRequest, SearchResponse } from '../core/search/contract.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { openSamplePage, call, REPO, type SamplePage } from './helpers/browser.ts';
import { denoSession } from './helpers/deno.ts';
import { chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const REPEATS = 3;

/** ≥ 20 queries across the kinds of evidence: identifiers, phrases, questions, filters, paging. */
const QUERIES: SearchRequest[] = [
  { query: 'CatalogService' },
  { query: 'GetCatalogItemsAsync' },
  { query: 'catalog items' },
  { query: 'ShoppingCart add item quantity' },
  { query: 'where is the order discount calculated' },
  { query: 'PricingEngine' },
  { query: 'payment gateway' },
  { query: 'InventoryReservationService reserve' },
  { query: 'OrderExpirationWorker' },
  { query: '"order status"' },
  { query: 'MaxItemsPerOrder ext:json' },
  { query: 'connection string', exts: ['json'] },
  { query: 'ProductDetails', paths: ['src/Contoso.Shop.Web/'] },
  { query: 'ViewModel', paths: ['**/*.cs'], exclude_paths: ['tests/'] },
  { query: 'Window Title ext:axaml' },
  { query: 'Blazor Server' },
  { query: 'docker compose postgres' },
  { query: 'Money currency amount' },
  { query: 'Customer address' },
  { query: 'cart.js' },
  { query: 'Invent*' },
  { query: 'release version toml' },
  { query: 'zzz_no_such_identifier_qqq' },
  { query: 'order', limit: 3 },
  { query: 'order', limit: 3, cursor: 'o3' },
  { query: 'service', max_tokens: 400 },
];

/** Everything in an answer that must not depend on the runtime (freshness and skip counts do). */
const comparable = (r: SearchResponse) => ({ status: r.status, match: r.match, hits: r.hits, truncated: r.truncated, next_cursor: r.next_cursor, error: r.error });

/** Every Deno and Chromium answer equals Node's, hit for hit; returns Node's hit count. */
function expectSameAnswers(queries: SearchRequest[], node: SearchResponse[], deno: SearchResponse[], browser: SearchResponse[]): number {
  let hits = 0;
  for (const [i, q] of queries.entries()) {
    const label = JSON.stringify(q);
    expect(node[i].status, label).not.toBe('error');
    expect(comparable(deno[i]), `Deno: ${label}`).toEqual(comparable(node[i]));
    expect(comparable(browser[i]), `Chromium: ${label}`).toEqual(comparable(node[i]));
    hits += node[i].hits.length;
  }
  return hits;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const deno = denoBinary();
const chromium = chromiumBinary();
describe.skipIf(!deno || !chromium)(titled('parity: Node, Deno and Chromium give identical results', { Deno: deno, Chromium: chromium }), () => {
  const tmp: string[] = [];
  let samplePage: SamplePage | undefined;

  afterAll(async () => {
    await samplePage?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it(`${QUERIES.length} queries over the sample workspace`, async () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(20);
    // The browser is prepared (build, launch) first: the three runs below then take turns, so the
    // times printed at the end are not skewed by each other.
    samplePage = await openSamplePage(chromium, sample);
    const { page } = samplePage;

    // Node, in this process.
    const nodeRoot = copyWorkspace(sample, 'hci-parity-node-');
    tmp.push(nodeRoot);
    const t0 = performance.now();
    const ws = await openWorkspace(nodeRoot);
    const nodeOpenMs = performance.now() - t0;
    const t1 = performance.now();
    const nodeSummary = await ws.index();
    const nodeIndexMs = performance.now() - t1;
    const node: SearchResponse[] = [];
    const nodeTimes: number[] = [];
    try {
      for (const q of QUERIES) {
        let first: SearchResponse | null = null;
        for (let i = 0; i < REPEATS; i++) {
          const t = performance.now();
          const r = await ws.search(q);
          nodeTimes.push(performance.now() - t);
          first ??= r;
        }
        node.push(first!);
      }
    } finally {
      ws.close();
    }

    // Deno, one process with the documented permissions.
    const denoRoot = copyWorkspace(sample, 'hci-parity-deno-');
    tmp.push(denoRoot);
    const d = await denoSession(deno, { root: denoRoot, index: 'before', queries: QUERIES, repeats: REPEATS });

    // Chromium: the Worker indexes the same files from a .zip into OPFS.
    await call(page, 'openZip', 'parity', '/fixtures/sample.zip');
    const tb = Date.now();
    const browserRun = await call(page, 'index', 'parity');
    const browserIndexWall = Date.now() - tb;
    const browser = await call(page, 'searchMany', 'parity', QUERIES, REPEATS);

    // The same files were indexed everywhere …
    expect(d.summary).toMatchObject({ files_indexed: nodeSummary.files_indexed, chunks_written: nodeSummary.chunks_written });
    expect(browserRun.summary).toMatchObject({ files_indexed: nodeSummary.files_indexed, chunks_written: nodeSummary.chunks_written });
    // … and every answer is the same, hit for hit.
    const hits = expectSameAnswers(QUERIES, node, d.answers, browser.answers as SearchResponse[]);
    expect(hits).toBeGreaterThan(100);
    expect(node.filter((r) => r.status === 'ok').length).toBeGreaterThanOrEqual(20);

    // Semantic search on (the learned provider, trained in each runtime from its own index):
    // the same model, vectors and fused ranks — hybrid and semantic answers hit for hit.
    const semantic = { enabled: true, dims: 64 };
    const fused: SearchRequest[] = QUERIES.filter((q) => !q.cursor).slice(0, 12).flatMap((q) => [{ ...q, mode: 'hybrid' as const }, { ...q, mode: 'semantic' as const }]);
    const nodeSem = copyWorkspace(sample, 'hci-parity-node-sem-');
    tmp.push(nodeSem);
    const ws2 = await openWorkspace(nodeSem, { settings: { semantic } as never });
    const nodeFused: SearchResponse[] = [];
    let nodeModel: string | null | undefined;
    try {
      nodeModel = (await ws2.index()).vectors?.model;
      for (const q of fused) nodeFused.push(await ws2.search(q));
    } finally {
      ws2.close();
    }
    expect(nodeModel).toMatch(/^learned\//);
    const denoSem = copyWorkspace(sample, 'hci-parity-deno-sem-');
    tmp.push(denoSem);
    fs.mkdirSync(path.join(denoSem, '.hci'), { recursive: true });
    fs.writeFileSync(path.join(denoSem, '.hci', 'settings.toml'), '[semantic]\nenabled = true\ndims = 64\n');
    const dSem = await denoSession(deno, { root: denoSem, index: 'before', queries: fused, repeats: 1 });
    await call(page, 'openZip', 'parity-sem', '/fixtures/sample.zip', { semantic } as never);
    const bRun = await call(page, 'index', 'parity-sem');
    const bSem = await call(page, 'searchMany', 'parity-sem', fused, 1);
    expect((dSem.summary as { vectors?: { model?: string } }).vectors?.model).toBe(nodeModel);
    expect((bRun.summary as { vectors?: { model?: string } }).vectors?.model).toBe(nodeModel);
    const fusedHits = expectSameAnswers(fused, nodeFused, dSem.answers, bSem.answers as SearchResponse[]);
    expect(fusedHits).toBeGreaterThan(80);
    expect(nodeFused.some((r) => r.hits.some((h) => h.hit_kind === 'hybrid'))).toBe(true);
    console.log(`parity: ${fused.length} hybrid/semantic queries, ${fusedHits} hits, model ${nodeModel}, identical in all three runtimes`);

    const row = (name: string, indexMs: number, took: number, times: number[], extra = '') =>
      `${name.padEnd(9)} index ${String(Math.round(indexMs)).padStart(5)} ms (core took_ms ${String(took).padStart(5)})   search median ${median(times).toFixed(1).padStart(6)} ms over ${times.length}${extra}`;
    console.log(
      [
        `parity: ${QUERIES.length} queries, ${hits} hits, identical in all three runtimes`,
        row('Node', nodeIndexMs, nodeSummary.took_ms, nodeTimes, ` (open ${Math.round(nodeOpenMs)} ms)`),
        row('Deno', d.index_ms ?? 0, d.summary?.took_ms ?? 0, d.times, ` (process wall ${d.wall_ms} ms)`),
        row('Chromium', browserIndexWall, browserRun.summary.took_ms, browser.times,
          ` (page→Worker round trip; in-Worker took_ms median ${median((browser.answers as SearchResponse[]).map((a) => a.took_ms))})`),
      ].join('\n'),
    );
  }, 300_000); // three runtimes index and answer 50 queries: a loaded machine passed the default 60 s; only a hang should fail
});
