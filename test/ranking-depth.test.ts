// One ranked list per query, whatever the page (core/search/depth.ts; issue 32): over the sample
// workspace indexed with semantic search on (the learned provider), for every golden query of
// bench/golden/sample-workspace.jsonl, the first k hits at limit k are the first k at limit 50, in
// keyword and hybrid mode; following next_cursor (pages of 7) gives the limit-50 page and goes on past
// it to the last hit, never repeating one and reaching every chunk the deepest ranking holds, with
// scores that never rise; explain's fusion values, score and rank are the ones a hit was shown with,
// on a later page too; and a search over two repositories pages one merged list past 50 hits.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace, type HciWorkspace } from '../runtimes/node/index.ts';
import type { SearchHit, SearchRequest } from '../core/search/contract.ts';
import { rankQuery } from '../core/search/pipeline.ts';
import { depthTiers } from '../core/search/depth.ts';
import { Federation, HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { copyWorkspace, createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

const SAMPLE = path.resolve(import.meta.dirname, 'sample-workspace');
const GOLDEN = fs.readFileSync(path.resolve(import.meta.dirname, '../bench/golden/sample-workspace.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { query: string }).query);

const key = (h: SearchHit) => `${h.path}:${h.start_line}`;
const shown = (h: SearchHit) => `${key(h)} ${h.score} ${h.fts_norm ?? ''} ${h.vec_norm ?? ''}`;

let root: string;
let w: HciWorkspace;

beforeAll(async () => {
  root = copyWorkspace(SAMPLE, 'hci-depth-');
  fs.mkdirSync(path.join(root, '.hci'), { recursive: true });
  fs.writeFileSync(path.join(root, '.hci/settings.toml'), '[semantic]\nenabled = true\n');
  w = await openWorkspace(root);
  const s = await w.index({ full: true });
  expect(s.vectors?.with_vectors).toBeGreaterThan(0);
}, 180_000);

afterAll(() => {
  w?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function search(req: SearchRequest) {
  const r = await w.search(req);
  expect(r.status === 'ok' || r.status === 'empty', `${req.query}: ${JSON.stringify(r.error)}`).toBe(true);
  return r;
}

/** Every page of a query by its cursors, `limit` hits at a time. */
async function allPages(req: SearchRequest, limit: number): Promise<SearchHit[]> {
  const out: SearchHit[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 500; n++) {
    const r = await search({ ...req, limit, cursor });
    out.push(...r.hits);
    if (!r.next_cursor) return out;
    expect(r.hits.length, `${req.query}: a page with a cursor is full`).toBe(limit);
    cursor = r.next_cursor;
  }
  throw new Error(`${req.query}: more than 500 pages`);
}

describe('the first hits do not depend on the limit', () => {
  for (const mode of ['keyword', 'hybrid'] as const) {
    it(`${mode}: the first k hits at limit k (1, 8, 20) are the first k at limit 50, with the same scores, for every golden query`, async () => {
      const differ: string[] = [];
      for (const query of GOLDEN) {
        const wide = await search({ query, mode, limit: 50 });
        for (const k of [1, 8, 20]) {
          const r = await search({ query, mode, limit: k });
          const want = wide.hits.slice(0, k);
          if (r.hits.map(shown).join('\n') !== want.map(shown).join('\n')) differ.push(`${query} @${k}`);
          // A cursor whenever more exist than the page shows.
          if (!!r.next_cursor !== wide.hits.length > k && wide.hits.length < 50) differ.push(`${query} @${k}: cursor`);
        }
      }
      expect(differ).toEqual([]);
    }, 300_000);
  }
});

describe('pages of one ranked list', () => {
  // Queries with many hits (a word most chunks hold), a question, an identifier, a literal.
  const queries: SearchRequest[] = [
    { query: 'public' }, { query: 'order', mode: 'hybrid' }, { query: 'where is the order discount applied to the total', mode: 'hybrid' },
    { query: 'GetCatalogItemsAsync' }, { query: 'async task', mode: 'keyword' }, { query: 'return', mode: 'literal' },
  ];

  it('following next_cursor 7 hits at a time gives the limit-50 page, then goes on to the last hit without a repeat; scores never rise', async () => {
    let pastFifty = 0;
    for (const req of queries) {
      const small = await allPages(req, 7);
      const big = await allPages(req, 50);
      expect(small.map(shown), req.query).toEqual(big.map(shown));
      expect(new Set(small.map(key)).size, `${req.query}: no hit twice`).toBe(small.length);
      small.forEach((h, i) => expect(h.rank).toBe(i + 1));
      for (let i = 1; i < small.length; i++) expect(small[i].score, `${req.query} #${i + 1}`).toBeLessThanOrEqual(small[i - 1].score);
      if (small.length > 50) pastFifty++;
    }
    // The fixture reaches past 50 hits (the third tier and deeper at rank_depth 10) for more than one query.
    expect(pastFifty).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it('reaches every chunk the deepest ranking holds (no gaps)', async () => {
    const searcher = await w.searcher();
    for (const query of ['public', 'async task', 'return value']) {
      const listed = new Set((await allPages({ query }, 50)).map(key));
      const deepest = depthTiers(w.settings.rank_depth).at(-1)!;
      const all = await searcher.store.read(() => rankQuery(searcher.context(), { query }, deepest).ranked.map((c) => `${c.path}:${c.startLine}`));
      expect(all.length, query).toBeGreaterThan(50);
      expect(all.filter((k) => !listed.has(k)), query).toEqual([]);
      expect(listed.size, query).toBe(all.length);
    }
  }, 120_000);
});

describe('explain reads the ranking a hit was shown from', () => {
  it('hybrid: the fusion values, score and rank of hits on the first and a later page', async () => {
    let fused = 0;
    for (const query of GOLDEN.slice(0, 60)) {
      const first = await search({ query, mode: 'hybrid', limit: 8 });
      if (first.hint?.startsWith('keyword results only')) continue;
      const later = first.next_cursor ? (await search({ query, mode: 'hybrid', limit: 8, cursor: first.next_cursor })).hits : [];
      for (const h of [...first.hits.slice(0, 3), ...later.slice(0, 2)]) {
        const e = await w.explain(h.hit_id);
        expect(e.status, query).toBe('ok');
        const x = e.explanation!;
        expect([x.rank, x.score], `${query} ${key(h)}`).toEqual([h.rank, h.score]);
        if (h.fts_norm === undefined) continue;
        fused++;
        expect([x.fusion?.keyword.normalized, x.fusion?.vector.normalized], `${query} ${key(h)}`).toEqual([h.fts_norm, h.vec_norm]);
      }
    }
    expect(fused).toBeGreaterThan(20);
  }, 300_000);
});

describe('a search over two repositories pages one merged list', () => {
  let a: TmpWorkspace, b: TmpWorkspace;
  const services: HciService[] = [];
  let fed: Federation;
  // 60 notes each, saying "lantern" 1-4 times: 120 hits, more than one page's maximum in each repository.
  const notes = (seed: number) => Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`docs/note-${i}.md`,
    `# Note ${i}\n\n${Array.from({ length: 1 + ((i * seed) % 4) }, () => 'The lantern glows.').join(' ')} Filler words ${i} about wicks and oil.\n`]));

  beforeAll(async () => {
    a = await createTmpWorkspace(notes(3), 'hci-depth-a-');
    b = await createTmpWorkspace(notes(7), 'hci-depth-b-');
    for (const ws of [a, b]) {
      const s = new HciService({ root: ws.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
      services.push(s);
      await s.index();
    }
    fed = new Federation([{ repo: 'a', service: services[0] }, { repo: 'b', service: services[1] }]);
  }, 120_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    for (const ws of [a, b]) await ws?.cleanup();
  });

  it('the first page at any limit is a prefix of the limit-50 page; cursors reach all 120 hits once each', async () => {
    const fkey = (h: SearchHit) => `${h.repo}/${h.path}:${h.start_line} ${h.score}`;
    const wide = await fed.call('search', { query: 'lantern', limit: 50 });
    for (const k of [1, 8, 20]) {
      const r = await fed.call('search', { query: 'lantern', limit: k });
      expect(r.hits.map(fkey)).toEqual(wide.hits.slice(0, k).map(fkey));
    }
    const hits: SearchHit[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 40; n++) {
      const r = await fed.call('search', { query: 'lantern', limit: 9, cursor });
      hits.push(...r.hits);
      cursor = r.next_cursor;
      if (!cursor) break;
    }
    expect(hits.slice(0, 50).map(fkey)).toEqual(wide.hits.map(fkey));
    expect(new Set(hits.map((h) => `${h.repo}/${h.path}`)).size).toBe(120);
    expect(hits).toHaveLength(120);
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
  }, 120_000);
});
