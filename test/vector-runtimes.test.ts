// Vector rows follow their files in every runtime. The sample workspace is indexed with semantic
// search on (learned, 64 dims) in Node, in Deno (deno run, narrow permissions) and in headless
// Chromium (an OPFS folder through the module Worker); then the same edit — a file changed, one
// added, one removed — is indexed incrementally in each. In each runtime's index file (Chromium's
// exported) every chunk has exactly one vector of the one current model and none outlives its
// chunk; the removed file's rows are gone, the changed file's replaced, the added file's written;
// the three files hold the same model and the same vector for the same chunk, and hybrid and
// semantic answers after the edit are the same hit for hit.
// @lane runtimes
import { describe, it, expect, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchRequest, SearchResponse } from '../core/search/contract.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { openSamplePage, call, REPO, type SamplePage } from './helpers/browser.ts';
import { denoSession } from './helpers/deno.ts';
import { chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const SETTINGS_TOML = '[semantic]\nenabled = true\ndims = 64\n';
const CHANGED = 'README.md';
const ADDED = 'src/Contoso.Shop.Domain/Zebra.cs';
const REMOVED = 'docs/getting-started.md';
const EDIT = {
  write: {
    [CHANGED]: `${fs.readFileSync(path.join(sample, CHANGED), 'utf8')}\nLoyalty points expire when a customer's basket stays empty for a year.\n`,
    [ADDED]: 'namespace Contoso.Shop.Domain;\n\n/// Which hours a pedestrian crossing lets people through.\npublic sealed class ZebraCrossingPolicy\n{\n    public bool Allows(int hour) => hour < 22;\n}\n',
  },
  remove: [REMOVED],
};
const QUERIES: SearchRequest[] = [
  'where is the order discount calculated', 'loyalty points expire for an empty basket', 'pedestrian crossing hours',
  'getting started', 'payment gateway', 'PricingEngine',
].flatMap((query) => [{ query, mode: 'hybrid' as const }, { query, mode: 'semantic' as const }]);

function sqlite3(file: string, sql: string): string {
  return execFileSync('sqlite3', [file, sql], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
}

/** A workspace copy with semantic search on. */
function semanticCopy(prefix: string): string {
  const root = copyWorkspace(sample, prefix);
  fs.mkdirSync(path.join(root, '.hci'), { recursive: true });
  fs.writeFileSync(path.join(root, '.hci', 'settings.toml'), SETTINGS_TOML);
  return root;
}

function applyEdit(root: string): void {
  for (const [rel, text] of Object.entries(EDIT.write)) fs.writeFileSync(path.join(root, rel), text);
  for (const rel of EDIT.remove) fs.rmSync(path.join(root, rel));
}

/** Each file's vectors by chunk ordinal (path, ordinal, hex), in a stable order. */
const vectorsByChunk = (db: string, where = '1') =>
  sqlite3(db, `SELECT f.path || '#' || c.ordinal || '=' || hex(v.vec) FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id WHERE ${where} ORDER BY f.path, c.ordinal`);

/** What must hold in any index file after the edit. */
function expectVectorsFollowFiles(db: string): void {
  expect(sqlite3(db, 'PRAGMA integrity_check')).toBe('ok');
  const [chunks, vectors, missing, orphans, foreign, current] = sqlite3(db, `SELECT
      (SELECT count(*) FROM chunks), (SELECT count(*) FROM chunk_vectors),
      (SELECT count(*) FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id WHERE v.chunk_id IS NULL),
      (SELECT count(*) FROM chunk_vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)),
      (SELECT count(*) FROM chunk_vectors WHERE model_id NOT IN (SELECT id FROM vector_models WHERE current = 1)),
      (SELECT count(*) FROM vector_models WHERE current = 1)`).split('|').map(Number);
  expect({ vectors, missing, orphans, foreign, current }).toEqual({ vectors: chunks, missing: 0, orphans: 0, foreign: 0, current: 1 });
  expect(sqlite3(db, `SELECT count(*) FROM files WHERE path = '${REMOVED}'`)).toBe('0');
  expect(Number(sqlite3(db, `SELECT count(*) FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN files f ON f.id = c.file_id WHERE f.path = '${ADDED}'`))).toBeGreaterThan(0);
}

const modelOf = (db: string) => sqlite3(db, "SELECT provider || '/' || model || '/' || dims || '/' || quantization || '/' || scale || '/' || hex(sha3(data)) FROM vector_models WHERE current = 1");
const comparable = (r: SearchResponse) => ({ status: r.status, match: r.match, hits: r.hits, error: r.error });

const deno = denoBinary();
const chromium = chromiumBinary();
describe.skipIf(!deno || !chromium)(titled('vector rows follow their files in Node, Deno and Chromium', { Deno: deno, Chromium: chromium }), () => {
  const tmp: string[] = [];
  let samplePage: SamplePage | undefined;
  afterAll(async () => {
    await samplePage?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('written, replaced and deleted with their files; the same vectors and fused answers everywhere', async () => {
    // Node, in process.
    const nodeRoot = semanticCopy('hci-vecrt-node-');
    tmp.push(nodeRoot);
    const nodeDb = path.join(nodeRoot, '.hci', 'index.sqlite');
    const nodeAnswers: SearchResponse[] = [];
    const w = await openWorkspace(nodeRoot);
    let before: string;
    try {
      const first = await w.index();
      expect(first.vectors).toMatchObject({ trained: true, error: null });
      before = vectorsByChunk(nodeDb, `f.path = '${CHANGED}'`);
      expect(vectorsByChunk(nodeDb, `f.path = '${REMOVED}'`)).not.toBe('');
      applyEdit(nodeRoot);
      const inc = await w.index();
      expect(inc).toMatchObject({ files_indexed: 2, files_removed: 1 });
      expect(inc.vectors).toMatchObject({ trained: false, error: null });
      expect(inc.vectors!.embedded).toBeGreaterThan(0);
      for (const q of QUERIES) nodeAnswers.push(await w.search(q));
    } finally {
      w.close();
    }
    expectVectorsFollowFiles(nodeDb);
    // The changed file's last chunk (the edit is at its end) has a new vector; the removed file has none.
    expect(vectorsByChunk(nodeDb, `f.path = '${CHANGED}'`)).not.toBe(before);
    expect(vectorsByChunk(nodeDb, `f.path = '${REMOVED}'`)).toBe('');
    const nodeVectors = vectorsByChunk(nodeDb);
    const nodeModel = modelOf(nodeDb);

    // Deno: one process indexes, the edit, a second process indexes incrementally and searches.
    const denoRoot = semanticCopy('hci-vecrt-deno-');
    tmp.push(denoRoot);
    const denoDb = path.join(denoRoot, '.hci', 'index.sqlite');
    const d1 = await denoSession(deno, { root: denoRoot, index: 'before', queries: [] });
    expect(d1.summary?.vectors).toMatchObject({ trained: true, error: null });
    expect(vectorsByChunk(denoDb, `f.path = '${CHANGED}'`)).toBe(before);
    applyEdit(denoRoot);
    const d2 = await denoSession(deno, { root: denoRoot, index: 'before', queries: QUERIES });
    expect(d2.summary).toMatchObject({ files_indexed: 2, files_removed: 1, vectors: { trained: false, error: null } });
    expectVectorsFollowFiles(denoDb);

    // Chromium: an OPFS folder, the same edit made in OPFS, the index exported for sqlite3.
    samplePage = await openSamplePage(chromium, sample);
    const page = samplePage.page;
    await call(page, 'makeOpfsFolder', 'vec-rt', '/fixtures/sample.zip');
    await call(page, 'openOpfsFolder', 'vec-rt-ws', 'vec-rt', { semantic: { enabled: true, dims: 64 } } as never);
    const b1 = await call(page, 'index', 'vec-rt-ws');
    expect(b1.summary.vectors).toMatchObject({ trained: true, error: null });
    await call(page, 'editOpfsFolder', 'vec-rt', EDIT);
    const b2 = await call(page, 'index', 'vec-rt-ws');
    expect(b2.summary).toMatchObject({ files_indexed: 2, files_removed: 1, vectors: { trained: false, error: null } });
    const browser = await call(page, 'searchMany', 'vec-rt-ws', QUERIES, 1);
    const browserDir = tmpDir('hci-vecrt-browser-');
    tmp.push(browserDir);
    const browserDb = path.join(browserDir, 'index.sqlite');
    fs.writeFileSync(browserDb, Buffer.from(await call(page, 'exportIndex', 'vec-rt-ws'), 'base64'));
    expectVectorsFollowFiles(browserDb);
    await call(page, 'remove', 'vec-rt-ws');

    // The same model and the same vector for every chunk, and the same answers.
    expect(modelOf(denoDb)).toBe(nodeModel);
    expect(modelOf(browserDb)).toBe(nodeModel);
    expect(vectorsByChunk(denoDb)).toBe(nodeVectors);
    expect(vectorsByChunk(browserDb)).toBe(nodeVectors);
    let hits = 0;
    for (const [i, q] of QUERIES.entries()) {
      const label = JSON.stringify(q);
      expect(nodeAnswers[i].status, label).not.toBe('error'); // words the model never saw can leave semantic mode empty
      expect(nodeAnswers[i].hits.some((h) => h.path === REMOVED), label).toBe(false);
      expect(comparable(d2.answers[i]), `Deno: ${label}`).toEqual(comparable(nodeAnswers[i]));
      expect(comparable(browser.answers[i] as SearchResponse), `Chromium: ${label}`).toEqual(comparable(nodeAnswers[i]));
      hits += nodeAnswers[i].hits.length;
    }
    expect(nodeAnswers.some((r) => r.hits.some((h) => h.path === ADDED))).toBe(true);
    console.log(`vector rows: ${nodeVectors.split('\n').length} chunks with vectors after the edit, identical in Node, Deno and Chromium; ${QUERIES.length} fused/semantic answers (${hits} hits) identical; model ${nodeModel.slice(0, 60)}…`);
  }, 240_000);
});
