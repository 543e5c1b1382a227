// What a warm search does not run or read, counted (issue 34, warm new query p95): the statements a
// search runs through its session (SearchSession.statement) and the rows they return, each beside the
// answer it must keep. A chunk a later stage adds (a declaration's, definition_widen's) is scored with
// the all-terms expression only when the first pass did not list every complete match, and not again
// with an expression whose ranked list (definition_widen's) gave its hit already. Whether a file has a
// dead line is read once per index generation from the record's index of the marked files (file-facts.ts):
// neither file by file nor by a scan of the whole record (file by file, for a record made before that index). Real index
// files in a temp folder, the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterAll, vi } from 'vitest';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { SearchSession } from '../core/search/session.ts';

const fixture = new RankingFixture();
afterAll(() => fixture.close());

/** The search's answer and the SQL of every statement it ran through its session. */
async function traced(ws: HciWorkspace, query: string, limit = 10) {
  const spy = vi.spyOn(SearchSession.prototype, 'statement');
  try {
    const answer = await ws.search({ query, limit });
    return { hits: answer.hits, sql: spy.mock.calls.map((c) => String(c[0])) };
  } finally {
    spy.mockRestore();
  }
}

/** Statements that score given chunks (channels/fts.ts scoreMany). */
const scoring = (sql: readonly string[]) => sql.filter((s) => s.includes('+chunks_fts.rowid IN'));

describe('a warm search', () => {
  it('scores a chunk outside a complete first pass with the any-term expression alone, and only once', async () => {
    const files: Record<string, string> = {
      'src/Billing/InvoiceTotal.cs': cs('Billing', 'public sealed class InvoiceTotal\n{\n    public decimal Amount { get; set; }\n}'),
      // SettleAmount's declaration: a chunk that does not say InvoiceTotal (declarations add it; so does definition_widen).
      'src/Billing/Payments.cs': cs('Billing', 'public sealed class Payments\n{\n    public void SettleAmount(decimal amount)\n    {\n        Paid += amount;\n    }\n\n    public decimal Paid { get; private set; }\n}'),
    };
    // Both names in a chunk of thirty files: more complete matches than the page's depth (no
    // widening), fewer than the first pass's pool (every one of them listed).
    for (let i = 0; i < 30; i++) files[`src/Orders/Step${i}.cs`] = cs('Orders', `public sealed class Step${i}\n{\n    public void Run(InvoiceTotal t, Payments p) => p.SettleAmount(t.Amount + ${i});\n}`);
    const ws = await fixture.create(files);
    const settle = (hits: ReadonlyArray<{ path: string }>) => expect(hits.map((h) => h.path)).toContain('src/Billing/Payments.cs');
    // Declarations alone add SettleAmount's chunk: scored with one statement (the any-term expression),
    // not two — no chunk outside the first pass holds both names (the all-terms statement found none).
    const declared = await traced(await fixture.open({ definition_widen: 0 }), 'InvoiceTotal SettleAmount');
    settle(declared.hits);
    expect(scoring(declared.sql)).toHaveLength(1);
    // definition_widen alone adds it: its ranked list of the names' holders (the query's any-term
    // expression: both words are identifiers) gave the chunk's hit already, so no statement scores it.
    // (A partial match, it ranks below the thirty complete ones: past this page.)
    const widened = await traced(await fixture.open({ declaration_boost: 0 }), 'InvoiceTotal SettleAmount');
    expect(scoring(widened.sql)).toHaveLength(0);
    // Both (the defaults): none either.
    const both = await traced(ws, 'InvoiceTotal SettleAmount');
    settle(both.hits);
    expect(both.hits[0].path).toBe('src/Billing/InvoiceTotal.cs');
    expect(scoring(both.sql)).toHaveLength(0);
  });

  it('reads the files with a dead line once per index generation from the index of them, neither file by file nor by a scan of the record', async () => {
    const files: Record<string, string> = {
      // One file with commented-out code: the only one scanned for dead lines.
      'src/Legacy/OldTariff.cs': cs('Legacy', 'public sealed class OldTariff\n{\n    // public decimal TariffRate() => 1m;\n    public decimal Rate => 2m;\n}'),
    };
    for (let i = 0; i < 8; i++) files[`src/Pricing/Tariff${i}.cs`] = cs('Pricing', `public sealed class Tariff${i}\n{\n    public decimal TariffRate() => ${i}m;\n}`);
    const ws = await fixture.create(files);
    const first = await traced(ws, 'tariff rate');
    const again = await traced(ws, 'tariff rate');
    expect(first.hits.length).toBeGreaterThan(4);
    expect(again.hits.map((h) => h.path)).toEqual(first.hits.map((h) => h.path));
    const lookups = (sql: readonly string[]) => sql.filter((q) => /FROM file_facts WHERE file_id = \?/.test(q));
    const scans = (sql: readonly string[]) => sql.filter((q) => /FROM file_facts WHERE dead/.test(q));
    const listed = (sql: readonly string[]) => sql.filter((q) => /FROM file_facts INDEXED BY file_facts_dead WHERE dead/.test(q));
    // One statement over the index's entries (the marked files' ids) answers for every file of the
    // generation: no lookup per file, no scan of the record (names and all: 1.3 MB on Avalonia) ...
    expect(listed(first.sql)).toHaveLength(1);
    expect(lookups(first.sql)).toEqual([]);
    expect(scans(first.sql)).toEqual([]);
    // ... and the same generation does not ask again.
    expect([...listed(again.sql), ...lookups(again.sql), ...scans(again.sql)]).toEqual([]);
    // The commented-out line still weighs its chunk down (dead_code: rerank scanned that file).
    const old = first.hits.find((h) => h.path === 'src/Legacy/OldTariff.cs');
    const e = await ws.explain(old!.hit_id, { query: 'tariff rate' });
    expect(e.explanation?.factors?.find((f) => f.name === 'dead_code')?.factor).toBeLessThan(1);

    // A record made before the index (an older hci's): a generation asks file by file, each file once
    // (a one-query process, the CLI, reads a few rows, not the whole record), with the same answer.
    const { session } = await ws.searcher();
    session.db.exec('DROP INDEX file_facts_dead');
    const older = await fixture.open();
    const before = await traced(older, 'tariff rate');
    expect(before.hits).toEqual(first.hits);
    expect(lookups(before.sql).length).toBeGreaterThan(0);
    expect(lookups(before.sql).length).toBeLessThanOrEqual(Object.keys(files).length);
    expect([...listed(before.sql), ...scans(before.sql)]).toEqual([]);
    expect(lookups((await traced(older, 'tariff rate')).sql)).toEqual([]);
    // The next whole-tree pass makes the index from the record's rows (no file read again).
    await older.index();
    expect(session.db.selectValue("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'file_facts_dead'")).toBe(1);
  });
});
