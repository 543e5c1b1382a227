// The documented ranking factors that had no test of their own: generated_path_penalty,
// file_name_match and exact_symbol_name. Each is checked through the public calls only
// (HciWorkspace.search and explain), so the checks hold whatever the search pipeline looks like
// inside: the factor is named by explain on the hits it applies to and on no other, it is what
// multiplies the BM25 score into the final one, and it changes which hit ranks first.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import type { SearchHit } from '../core/search/contract.ts';
import { mentions, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
const opened: HciWorkspace[] = [];
const open = async (settings: Record<string, unknown> = {}) => fixture.open(settings);

beforeAll(async () => {
  opened.push(await fixture.create({
    // generated_path_penalty: the generated file says "reconciliation" three times, the hand-written one once.
    'src/Billing/LedgerMapper.g.cs': mentions('Billing', 'LedgerMapperGenerated', 'Map', 'reconciliation', 3),
    'src/Billing/LedgerBook.cs': mentions('Billing', 'LedgerBook', 'Post', 'reconciliation', 1),
    // file_name_match: "settlement" is the stem of one file's name; the other says it more often, in a folder of that name.
    'src/Payments/Settlement.cs': mentions('Payments', 'PaymentRun', 'Execute', 'settlement', 1),
    'src/Settlement/PayoutJob.cs': mentions('Payments', 'PayoutJob', 'Execute', 'settlement', 3),
    // exact_symbol_name: a long method named Refund (in a file named otherwise), and a short one under a refund/ folder that says the word more.
    'src/Orders/OrderDesk.cs': `public sealed class OrderDesk\n{\n    public void Refund()\n    {\n${Array.from({ length: 40 }, (_, i) => `        // line ${i}: give the money back to the customer`).join('\n')}\n    }\n}\n`,
    'src/Refund/OrderLog.cs': mentions('Orders', 'OrderLog', 'Write', 'refund', 3),
  }));
});

afterAll(() => fixture.close());

/** Keyword hits: every one carries fts_score. */
type KeywordHit = SearchHit & { fts_score: number };

async function ranked(w: HciWorkspace, query: string): Promise<KeywordHit[]> {
  const r = await w.search({ query, limit: 20 });
  expect(r.status, JSON.stringify(r.error)).toBe('ok');
  expect(r.hits.every((h) => typeof h.fts_score === 'number')).toBe(true);
  return r.hits as KeywordHit[];
}

/** The factors explain lists for a hit (with the same query), and the hit's final and BM25 scores. */
async function factorsOf(w: HciWorkspace, hit: SearchHit, query: string): Promise<Record<string, number>> {
  const e = await w.explain(hit.hit_id, { query });
  expect(e.status).toBe('ok');
  const x = e.explanation!;
  // The final score is the BM25 score times the listed factors, nothing else.
  const product = (x.factors ?? []).reduce((s, f) => s * f.factor, x.fts!.score);
  expect(x.score).toBeCloseTo(product, 2);
  expect(hit.score).toBeCloseTo(x.score!, 2);
  return Object.fromEntries((x.factors ?? []).map((f) => [f.name, f.factor]));
}

const byPath = (hits: KeywordHit[], p: string) => {
  const h = hits.find((x) => x.path === p);
  expect(h, `${p} in ${hits.map((x) => x.path).join(', ')}`).toBeTruthy();
  return h!;
};

describe('ranking factors, through search and explain', () => {
  it('generated_path_penalty: a generated file ranks below hand-written code it would beat on BM25 alone', async () => {
    const w = opened[0];
    const hits = await ranked(w, 'reconciliation');
    const gen = byPath(hits, 'src/Billing/LedgerMapper.g.cs');
    const own = byPath(hits, 'src/Billing/LedgerBook.cs');
    expect(gen.fts_score!).toBeGreaterThan(own.fts_score!); // more mentions: BM25 alone puts it first
    expect(hits.indexOf(own)).toBeLessThan(hits.indexOf(gen)); // the penalty turns the order around
    expect(await factorsOf(w, gen, 'reconciliation')).toMatchObject({ generated_path_penalty: 0.5 });
    expect(await factorsOf(w, own, 'reconciliation')).not.toHaveProperty('generated_path_penalty');
    // The setting is the factor: at 1 (no penalty) BM25's order stands.
    const noPenalty = await open({ generated_path_penalty: 1 });
    const flat = await ranked(noPenalty, 'reconciliation');
    expect(flat.findIndex((h) => h.path === 'src/Billing/LedgerMapper.g.cs')).toBeLessThan(flat.findIndex((h) => h.path === 'src/Billing/LedgerBook.cs'));
    expect(await factorsOf(noPenalty, byPath(flat, 'src/Billing/LedgerMapper.g.cs'), 'reconciliation')).toMatchObject({ generated_path_penalty: 1 });
  });

  it('file_name_match: a file whose name is the query word gets the 1.25 factor and outranks a better BM25 match', async () => {
    const w = opened[0];
    const hits = await ranked(w, 'settlement');
    const named = byPath(hits, 'src/Payments/Settlement.cs');
    const other = byPath(hits, 'src/Settlement/PayoutJob.cs');
    expect(await factorsOf(w, named, 'settlement')).toMatchObject({ file_name_match: 1.25 });
    expect(await factorsOf(w, other, 'settlement')).not.toHaveProperty('file_name_match');
    expect(named.score / named.fts_score!).toBeCloseTo(1.25, 2);
    // BM25 alone puts the other file first (three mentions, and the word is its folder); the factor turns it around.
    expect(named.fts_score!).toBeLessThan(other.fts_score!);
    expect(hits.indexOf(named)).toBeLessThan(hits.indexOf(other));
  });

  it('exact_symbol_name: the chunk whose symbol is named by the query gets the 1.5 factor and outranks a better BM25 match', async () => {
    const w = opened[0];
    const hits = await ranked(w, 'refund');
    const sym = hits.find((h) => h.path === 'src/Orders/OrderDesk.cs' && h.symbol?.name === 'Refund');
    expect(sym, hits.map((h) => `${h.path} ${h.symbol?.name}`).join('; ')).toBeTruthy();
    const talk = byPath(hits, 'src/Refund/OrderLog.cs');
    const f = await factorsOf(w, sym!, 'refund');
    expect(f).toMatchObject({ exact_symbol_name: 1.5 });
    expect(await factorsOf(w, talk, 'refund')).not.toHaveProperty('exact_symbol_name');
    // BM25 alone puts the other chunk first (it says the word three times, and in its folder); the factor turns it around.
    expect(sym!.fts_score!).toBeLessThan(talk.fts_score!);
    expect(hits[0]).toBe(sym);
    expect(sym!.score / sym!.fts_score!).toBeCloseTo(Object.values(f).reduce((a, b) => a * b, 1), 2);
  });
});
