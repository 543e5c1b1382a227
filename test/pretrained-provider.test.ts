// The `pretrained` provider (a code model that ships in the package) through a real workspace, with
// the runtime's model bytes swapped for small models trained here from the sample workspace (the
// shipped file's own tests are code-model.test.ts): a first pass embeds every chunk inline with the
// keyword pass (the model's int8 scale is known before any vector); semantic and hybrid searches
// answer with the model's cosine; keyword results are the same with the channel on as off; and a
// different model re-embeds every chunk without chunking anything again.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LearnedModel } from '../core/vector/learned/model.ts';
import { loadPretrained } from '../core/vector/pretrained/provider.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { openWithCodeModel, trainModel } from './helpers/code-model-fixture.ts';
import { sampleSources } from './helpers/tmp-workspace.ts';

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function workspace(semantic: boolean): string {
  const root = sampleSources('hci-pre-ws-', semantic ? '[semantic]\nenabled = true\nprovider = "pretrained"\n' : undefined);
  tmp.push(root);
  return root;
}

describe('the pretrained provider', () => {
  const first = trainModel(0x1234, 32);
  const second = trainModel(0x5678, 24);

  it('embeds every chunk inline with a first pass, and answers semantic and hybrid searches', async () => {
    const root = workspace(true);
    const w = await openWithCodeModel(root, async () => first);
    try {
      const phases: string[] = [];
      const s = await w.index({ onProgress: (p) => phases.push(p.phase) });
      const model = LearnedModel.fromBytes(first);
      expect(s.vectors).toMatchObject({ provider: 'pretrained', error: null, model: `pretrained/hci-code@${model.fingerprint}/32/int8` });
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect(s.vectors!.embedded).toBe(s.vectors!.chunks);
      // All of them inline: the vector phase found nothing left to embed (it reports progress only when it embeds).
      expect(phases).not.toContain('vectors');
      const r = await w.search({ query: 'apply the discount to the order total', mode: 'semantic', limit: 5 });
      expect(r.status).toBe('ok');
      // Every hit carries the model's cosine (the order also has rerank's factors).
      expect(r.hits.length).toBe(5);
      expect(r.hits.every((h) => h.vec_score! > 0 && h.vec_score! <= 1.001)).toBe(true);
      const hy = await w.search({ query: 'apply the discount to the order total', mode: 'hybrid' });
      expect(hy.status).toBe('ok');
      // A path filter: the scan's rows are read with the filter (hci_path_ok) — only that folder's chunks, every one the unfiltered page had among them.
      const all = await w.search({ query: 'apply the discount to the order total', mode: 'semantic', limit: 50 });
      const folder = all.hits[0].path.split('/').slice(0, -1).join('/');
      const inFolder = all.hits.filter((h) => h.path.startsWith(`${folder}/`));
      const only = await w.search({ query: 'apply the discount to the order total', mode: 'semantic', limit: 50, paths: [`${folder}/**`] });
      expect(only.hits.length).toBeGreaterThan(0);
      expect(only.hits.every((h) => h.path.startsWith(`${folder}/`))).toBe(true);
      expect(inFolder.length).toBeGreaterThan(0);
      expect(only.hits.length).toBeGreaterThanOrEqual(inFolder.length);
      const filteredIds = new Set(only.hits.map((h) => h.hit_id.split('.')[0]));
      expect(inFolder.filter((h) => !filteredIds.has(h.hit_id.split('.')[0]))).toEqual([]);
    } finally {
      w.close();
    }
  });

  it('keyword results are the same with the channel on as off', async () => {
    const on = await openWithCodeModel(workspace(true), async () => first);
    const off = await openWorkspace(workspace(false));
    try {
      await on.index();
      await off.index();
      for (const query of ['DiscountRule', 'apply the discount to the order total', 'catalog item price', 'OrderService']) {
        const a = await on.search({ query, mode: 'keyword' });
        const b = await off.search({ query, mode: 'keyword' });
        expect(a.hits.map((h) => [h.path, h.start_line, h.end_line, h.score])).toEqual(b.hits.map((h) => [h.path, h.start_line, h.end_line, h.score]));
      }
    } finally {
      on.close();
      off.close();
    }
  });

  it('another model re-embeds every chunk without chunking a file again', async () => {
    const root = workspace(true);
    const a = await openWithCodeModel(root, async () => first);
    let chunks = 0;
    try {
      chunks = (await a.index()).vectors!.chunks;
    } finally {
      a.close();
    }
    const b = await openWithCodeModel(root, async () => second);
    try {
      const s = await b.index();
      expect(s.files_indexed).toBe(0);
      expect(s.chunks_written).toBe(0);
      expect(s.vectors).toMatchObject({ provider: 'pretrained', error: null, embedded: chunks, with_vectors: chunks, model: expect.stringMatching(/^pretrained\/hci-code@[0-9a-f]{16}\/24\/int8$/) });
      const st = await b.status();
      expect(st.vectors).toMatchObject({ state: 'ready', coverage: 1 });
    } finally {
      b.close();
    }
  });

  it('a model with a query table (format 2) embeds chunks with its main table and queries with the query table', async () => {
    const main = LearnedModel.fromBytes(first);
    const other = LearnedModel.fromBytes(trainModel(0x9abc, 32));
    const same = main.withQueryTable({ rowScale: main.rowScale, vectors: main.vectors }).toBytes();
    const asym = main.withQueryTable({ rowScale: other.rowScale, vectors: other.vectors }).toBytes();
    const p = await loadPretrained(async () => asym);
    if ('code' in p) throw new Error(p.message);
    const qs = ['apply the discount to the order total', 'catalog item price'];
    expect(Array.from(p.embedSync(qs, 'query'))).toEqual(Array.from(p.model.embedQueries(qs).vectors));
    expect(Array.from(p.embedSync(qs))).toEqual(Array.from(main.embed(qs).vectors));
    const viaEmbed = await p.embed(qs, { kind: 'query' });
    expect(viaEmbed.ok && Array.from(viaEmbed.vectors)).toEqual(Array.from(p.model.embedQueries(qs).vectors));
    // Three workspaces: the format 1 model, format 2 with its own rows as the query table, format 2 with another model's.
    const runs: Array<{ key: string; embedded: number; semantic: Array<[string, number]>; keyword: string[] }> = [];
    for (const bytes of [first, same, asym]) {
      const w = await openWithCodeModel(workspace(true), async () => bytes);
      try {
        const s = await w.index();
        const sem = await w.search({ query: qs[0], mode: 'semantic', limit: 10 });
        const kw = await w.search({ query: 'DiscountRule', mode: 'keyword' });
        runs.push({ key: s.vectors!.model as string, embedded: s.vectors!.embedded as number, semantic: sem.hits.map((h) => [h.hit_id, h.vec_score!]), keyword: kw.hits.map((h) => h.hit_id) });
      } finally {
        w.close();
      }
    }
    const [one, twoSame, twoOther] = runs;
    // Each file its own key (the fingerprint covers the query table), every chunk embedded.
    expect(new Set(runs.map((r) => r.key)).size).toBe(3);
    expect(twoSame.embedded).toBe(one.embedded);
    expect(twoOther.embedded).toBe(one.embedded);
    // Its own rows as the query table: the same answers as format 1; another table: other cosines, same keyword results.
    expect(twoSame.semantic).toEqual(one.semantic);
    expect(twoOther.semantic).not.toEqual(one.semantic);
    expect(twoOther.keyword).toEqual(one.keyword);
  });

  it('bytes that are not a model are provider_unavailable, and keyword search goes on', async () => {
    expect(await loadPretrained(async () => new Uint8Array([1, 2, 3]))).toMatchObject({ code: 'provider_unavailable', message: expect.stringContaining('bad magic') });
    expect(await loadPretrained(undefined)).toMatchObject({ code: 'provider_unavailable' });
    const w = await openWithCodeModel(workspace(true), async () => new Uint8Array(8));
    try {
      const s = await w.index();
      expect(s.vectors).toMatchObject({ error: { code: 'provider_unavailable' } });
      expect((await w.search({ query: 'DiscountRule' })).hits.length).toBeGreaterThan(0);
    } finally {
      w.close();
    }
  });
});
