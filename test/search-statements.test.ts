// The statements a search runs every time are prepared once per connection (SearchSession.statement,
// the FTS channel's two queries): the same statement comes back for the same SQL, and a workspace that
// has run many searches through its cached statements — all-terms and any-term passes, with and
// without a path filter, one after another — answers each exactly as a workspace that never ran one.
// Through a real workspace on disk and the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterEach, vi } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import type { SearchRequest } from '../core/search/contract.ts';
import { SearchSession } from '../core/search/session.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { createTmpWorkspace } from './helpers/tmp-workspace.ts';

describe('prepared search statements', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const done of cleanups.splice(0).reverse()) await done();
  });

  it('gives back the same statement for the same SQL, reset for its next use', async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      const session = new SearchSession(db, fflateCodec);
      const st = session.statement('SELECT ? + 1');
      expect(session.statement('SELECT ? + 1')).toBe(st);
      expect(session.statement('SELECT ? + 2')).not.toBe(st);
      for (const n of [1, 41]) {
        st.bind([n]);
        expect(st.step()).toBe(true);
        expect(st.get(0)).toBe(n + 1);
        st.reset(true);
      }
    } finally {
      db.close();
    }
  });

  it('answers every search as a fresh workspace does, whatever ran before on the connection', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) {
      const area = i % 3 === 0 ? 'Billing' : 'Orders';
      files[`src/${area}/Step${i}.cs`] = `namespace Shop.${area};\n\npublic class Step${i}\n{\n    // ${i % 2 ? 'settles the invoice total' : 'ships the parcel'}\n    public decimal Total${i}(decimal price) => price * ${i + 1};\n}\n`;
    }
    const ws = await createTmpWorkspace(files);
    cleanups.push(() => ws.cleanup());
    const w = await openWorkspace(ws.root);
    cleanups.push(() => w.close());
    await w.index();
    const requests: SearchRequest[] = [
      { query: 'invoice total', limit: 5 },
      { query: 'settles parcel', limit: 20 }, // no chunk holds both: the any-term pass widens
      { query: 'Total3', limit: 5, paths: ['src/Billing'] },
      { query: 'ships', limit: 3 },
      { query: 'invoice total', limit: 5, paths: ['src/Orders'] },
      { query: 'Step', limit: 10 },
    ];
    const answer = async (x: HciWorkspace, r: SearchRequest) => (await x.search(r)).hits.map((h) => `${h.path}:${h.start_line} ${h.score}`);
    for (let round = 0; round < 2; round++) {
      for (const r of requests) {
        const fresh = await openWorkspace(ws.root);
        cleanups.push(() => fresh.close());
        const want = await answer(fresh, r);
        expect(want.length, r.query).toBeGreaterThan(0);
        expect(await answer(w, r), `${r.query} round ${round}`).toEqual(want);
      }
    }
  });

  it('looks up a query\'s compounds through statements prepared once per connection', async () => {
    const ws = await createTmpWorkspace({
      'src/Shop/InvoiceTotal.cs': 'namespace Shop;\n\n// the invoice total of an order\npublic class InvoiceTotal\n{\n    public decimal Amount { get; set; }\n}\n',
      'src/Shop/ParcelLabel.cs': 'namespace Shop;\n\n// prints the parcel label\npublic class ParcelLabel\n{\n    public string Text { get; set; } = "";\n}\n',
    });
    cleanups.push(() => ws.cleanup());
    const w = await openWorkspace(ws.root);
    cleanups.push(() => w.close());
    await w.index();
    expect((await w.search({ query: 'invoice total' })).hits[0].path).toBe('src/Shop/InvoiceTotal.cs');
    const db = (await w.searcher()).session.db;
    const spies = [vi.spyOn(db, 'prepare'), vi.spyOn(db, 'selectValue'), vi.spyOn(db, 'selectArrays')];
    try {
      // A new query of two adjacent words: its compound ("parcellabel") is looked up, through the statement the first one prepared.
      expect((await w.search({ query: 'parcel label' })).hits[0].path).toBe('src/Shop/ParcelLabel.cs');
      const sql = spies.flatMap((s) => s.mock.calls.map((c) => String(c[0])));
      expect(sql.filter((q) => q.includes('chunks_fts MATCH ? LIMIT 1'))).toEqual([]);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});
