// Full pages and honest cursors (issue 32, defect 1), and a first page of distinct files: a query
// whose best few hundred chunks all lie in one file (every chunk of ZapGrid.cs holds "ZapGrid" in
// its path) still fills the page from the other files that hold it and carries a next_cursor, and
// paging reaches every matching chunk (a file's further chunks come after, never dropped); a page exactly as long as the chunks holding every word still says
// more exists; a file's further chunks go after the next file's best (same_file_factor); scores
// never rise down a page. Through the public calls only (search, explain).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import type { SearchHit } from '../core/search/contract.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { agreeScores } from '../core/search/placement.ts';
import type { Candidate } from '../core/search/candidates.ts';
import type { Channel, ChannelHit, ChunkRow } from '../core/search/channels/channel.ts';
import { createNodeIndexStorage, loadEngine, zlibCodec } from '../runtimes/node/index.ts';
import { IndexStore } from '../core/index/store.ts';
import { SearchSession } from '../core/search/session.ts';
import { rankQuery } from '../core/search/pipeline.ts';
import { semanticModes } from '../core/search/modes.ts';
import { defaultSettings } from '../core/settings.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** A class of `n` six-line methods: one chunk each, every one holding the class name in its path and member key. */
function bigClass(name: string, n: number): string {
  const methods = Array.from({ length: n }, (_, i) => `    public int Step${i}(int x)\n    {\n        var y = x + ${i};\n        y *= 2;\n        return y;\n    }\n`);
  return cs('Grids', `public partial class ${name}\n{\n${methods.join('\n')}}`);
}

const USERS = 24;

/** A method of 62 lines (a file of two is cut into one chunk per method) that says "glaze" `times` times. */
function method(name: string, times: number): string {
  const lines = Array.from({ length: 60 }, (_, i) => (i < times ? `        // glaze step ${i}` : `        // plain step ${i}`));
  return `    public void ${name}()\n    {\n${lines.join('\n')}\n    }\n`;
}

beforeAll(async () => {
  const files: Record<string, string> = {
    'src/Grids/ZapGrid.cs': bigClass('ZapGrid', 180),
    // Exactly 8 chunks hold both "alpha" and "omega"; 12 more hold only "omega".
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/Greek/Both${i}.cs`, cs('Greek', `public sealed class Both${i}\n{\n    // alpha and omega ${i}\n}`)])),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/Greek/Omega${i}.cs`, cs('Greek', `public sealed class Omega${i}\n{\n    // omega only ${i}\n}`)])),
    // Distinct files: one file with two strong chunks, another with one a little weaker.
    'src/Kiln/KilnPlan.cs': cs('Kiln', `public sealed class KilnPlan\n{\n${method('Fire', 5)}\n${method('Cool', 5)}}`),
    'src/Kiln/Pottery.cs': cs('Kiln', `public sealed class Pottery\n{\n${method('Dip', 4)}}`),
    // A docs site's per-version copies of one page (equal content) and two code files that say the word less.
    ...Object.fromEntries(['v1', 'v2', 'v3'].map((v) => [`website/versioned_docs/${v}/lacquer.md`, `# Lacquer\n\nThe lacquer coat: apply lacquer thinly, let the lacquer dry, then lacquer again.\n`])),
    'src/Kiln/Finish.cs': cs('Kiln', `public sealed class Finish\n{\n    // the lacquer is applied here\n    public void Apply() { }\n}`),
    'src/Kiln/Coat.cs': cs('Kiln', `public sealed class Coat\n{\n    // a lacquer coat\n    public void Dry() { }\n}`),
  };
  // One page declares the route; more files speak of the checkout page in words.
  files['src/Pages/Checkout.razor'] = '@page "/checkout"\n\n<h1>Checkout</h1>\n';
  for (let i = 0; i < 6; i++) files[`src/Pages/CheckoutStep${i}.cs`] = cs('Pages', `public sealed class CheckoutStep${i}\n{\n    // step ${i} of the checkout page\n}`);
  for (let i = 0; i < USERS; i++) files[`src/Pages/Page${i}.cs`] = cs('Pages', `public sealed class Page${i}\n{\n    private readonly ZapGrid _grid = new();\n}`);
  w = await fixture.create(files);
});

afterAll(() => fixture.close());

async function page(query: string, limit?: number, cursor?: string, ws = w) {
  const r = await ws.search({ query, limit, cursor });
  expect(r.status, JSON.stringify(r.error)).toBe('ok');
  return r;
}

describe('full pages and honest cursors', () => {
  it('fills the first page with distinct files and carries a cursor when one file holds the best few hundred chunks; paging reaches every chunk', async () => {
    const first = await page('ZapGrid');
    expect(first.hits).toHaveLength(8);
    expect(first.next_cursor).toBeTruthy();
    expect(new Set(first.hits.map((h) => h.path)).size, 'distinct files on the first page').toBe(8);
    const files = new Set<string>();
    const ids = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const next = await page('ZapGrid', 50, cursor);
      expect(next.hits.length === 50 || !next.next_cursor, 'only the last page may be short').toBe(true);
      for (const h of next.hits) {
        files.add(h.path);
        ids.add(h.hit_id);
      }
      cursor = next.next_cursor;
    } while (cursor && ++pages < 20);
    expect(cursor, 'paging ends').toBeUndefined();
    // Every file that holds the word, and every chunk: ZapGrid.cs's (further chunks after the other files) once each.
    expect(files.size).toBe(USERS + 1);
    expect(ids.size).toBeGreaterThanOrEqual(180 + USERS);
  });

  it('says more exists when exactly the page holds every word and other chunks hold some', async () => {
    const r = await page('alpha omega', 8);
    expect(r.hits).toHaveLength(8);
    expect(r.next_cursor).toBeTruthy();
    const rest = await page('alpha omega', 8, r.next_cursor);
    expect(rest.hits.length).toBeGreaterThan(0);
  });

  it('puts the next file’s best chunk before a further chunk of a file already listed (same_file_factor), and scores never rise down the page', async () => {
    const distinct = await page('glaze', 3);
    expect(distinct.hits.slice(0, 2).map((h) => h.path)).toEqual(['src/Kiln/KilnPlan.cs', 'src/Kiln/Pottery.cs']);
    const e = await w.explain(distinct.hits[2].hit_id, { query: 'glaze' });
    expect(e.explanation?.factors?.find((f) => f.name === 'same_file')?.factor).toBeCloseTo(0.1, 5);
    const off = await fixture.open({ same_file_factor: 1 });
    const grouped = await page('glaze', 3, undefined, off);
    expect(grouped.hits.slice(0, 2).map((h) => h.path)).toEqual(['src/Kiln/KilnPlan.cs', 'src/Kiln/KilnPlan.cs']);
    for (const hits of [distinct.hits, grouped.hits, (await page('ZapGrid', 50)).hits]) expectFalling(hits);
  });
});

describe('quoted text among words', () => {
  it('fills the page with the words’ hits after the few chunks that hold the quoted text, says so, and carries a cursor when more exist', async () => {
    const r = await page('@page "/checkout"', 4);
    expect(r.hits[0].path).toBe('src/Pages/Checkout.razor');
    expect(r.hits).toHaveLength(4);
    expect(r.next_cursor).toBeTruthy();
    expect(r.hint).toMatch(/only 1 chunk holds the quoted text with the other words/);
    expect(r.hits[0].hit_kind).toBe('text_literal');
    expect(r.hits.slice(1).every((h) => h.hit_kind !== 'text_literal')).toBe(true);
    expectFalling(r.hits);
  });
});

describe('copies count as one file', () => {
  it('lists one copy of a page a docs site keeps per version, then the other files, then the further copies (collapse_copies)', async () => {
    const r = await page('lacquer', 5);
    const paths = r.hits.map((h) => h.path);
    expect(paths.slice(0, 3).filter((p) => p.endsWith('lacquer.md')), paths.join(', ')).toHaveLength(1);
    expect(paths.slice(0, 3)).toEqual(expect.arrayContaining(['src/Kiln/Finish.cs', 'src/Kiln/Coat.cs']));
    const copy = r.hits.find((h, i) => i >= 3 && h.path.endsWith('lacquer.md'))!;
    const e = await w.explain(copy.hit_id, { query: 'lacquer' });
    expect(e.explanation?.factors?.find((f) => f.name === 'copy_of_listed')?.factor).toBeCloseTo(0.1, 5);
    const off = await fixture.open({ collapse_copies: false });
    const copies = (await page('lacquer', 5, undefined, off)).hits.map((h) => h.path);
    expect(copies.slice(0, 3).every((p) => p.endsWith('lacquer.md')), copies.join(', ')).toBe(true);
  });
});

function expectFalling(hits: SearchHit[]): void {
  for (let i = 1; i < hits.length; i++) expect(hits[i].score, `hit ${i + 1} of ${hits.length}`).toBeLessThanOrEqual(hits[i - 1].score);
}

describe('scores agree with the order', () => {
  const cand = (score: number): Candidate => ({ score, factors: [] }) as unknown as Candidate;

  it('in hybrid mode, where the guard keeps keyword’s first files first, scores still fall down the page (placement)', async () => {
    const store = await IndexStore.open(createNodeIndexStorage(fixture.root), await loadEngine(), { create: false, lockTimeoutMs: 2000, codec: zlibCodec });
    try {
      const session = new SearchSession(store.db, store.codec);
      // A stand-in vector channel: the users of ZapGrid, nearest first, whatever the words.
      const near: Channel = {
        name: 'vector', hitKind: 'text_vector', scoreField: 'vec_score',
        search(sess, _q, pool) {
          const rows = sess.db.selectArrays(
            `SELECT c.id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line, c.symbol_kind, c.symbol_name
             FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path LIKE 'src/Pages/%' ORDER BY f.path LIMIT ?`, [pool]) as unknown[][];
          return rows.map((r, i): ChannelHit => ({
            row: { chunkId: Number(r[0]), fileId: Number(r[1]), ordinal: Number(r[2]), path: String(r[3]), hash: String(r[4]), lang: String(r[5]), flags: Number(r[6]), startLine: Number(r[7]), endLine: Number(r[8]), symbolKind: r[9] as string | null, symbolName: r[10] as string | null } as ChunkRow,
            score: 1 - i / 100,
          }));
        },
      };
      const modes = semanticModes(near, { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3, routing: false, minVectorScore: 0 });
      const ranked = rankQuery({ session, settings: defaultSettings(), modes }, { query: 'glaze', mode: 'hybrid' }, 20);
      expect(ranked.fusion?.route).toBe('hybrid');
      const scores = ranked.ranked.map((c) => c.score);
      for (let i = 1; i < scores.length; i++) expect(scores[i], `hit ${i + 1}`).toBeLessThanOrEqual(scores[i - 1]);
      // The guard placed a keyword hit above a vector hit that fused higher: it was raised, and explain says so.
      expect(ranked.ranked.some((c) => c.fusion?.guarded && c.factors.some((f) => f.name === 'placement' && f.factor > 1))).toBe(true);
    } finally {
      store.close();
    }
  });

  it('raises a hit a rule placed first to the score of the hit after it, with a placement factor', () => {
    // A hybrid guard's order: keyword's first file first although a later hit fused higher.
    const ranked = agreeScores([cand(0.4), cand(0.9), cand(0.5), cand(0.2)]);
    expect(ranked.map((c) => c.score)).toEqual([0.9, 0.9, 0.5, 0.2]);
    expect(ranked[0].factors).toEqual([{ name: 'placement', factor: 0.9 / 0.4 }]);
    expect(ranked[1].factors).toEqual([]);
  });
});
