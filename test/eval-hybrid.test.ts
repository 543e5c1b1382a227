// `npm run eval -- --semantic PROVIDER`: the index is built with semantic search on and hci-hybrid
// (mode hybrid, the product's fusion) runs beside hci (keyword) on the same index; the report names
// keyword's rank-1 hits hybrid lost and counts better / worse queries, per repository of a set
// (bench/eval.ts, bench/eval-set.ts, bench/lib/hybrid-check.ts). Real indexing of the sample
// workspace with the shipped code model; figures are never asserted, only that they are computed
// and reported. The pure check on hand-made outcomes.
// @lane cli
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatSet, runSet } from '../bench/eval-set.ts';
import { formatEval, runEval } from '../bench/eval.ts';
import { formatHybridCheck, hybridCheck } from '../bench/lib/hybrid-check.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');

describe('hybrid against keyword', () => {
  it('names the rank-1 hits hybrid lost and counts better / worse first ranks', () => {
    const q = (id: string, r1: number, mrr: number) => ({ id, query: `q ${id}`, kind: 'symbol', metrics: { recall1: r1, mrr10: mrr } });
    const c = hybridCheck([
      { engine: 'hci', queries: [q('a', 1, 1), q('b', 1, 1), q('c', 0, 0.2), q('d', 0, 0)] },
      { engine: 'hci-hybrid', queries: [q('a', 1, 1), q('b', 0, 0.5), q('c', 0, 0.25), q('d', 0, 0)] },
    ])!;
    expect(c).toMatchObject({ rank1Keyword: 2, better: 1, worse: 1 });
    expect(c.lost.map((l) => l.id)).toEqual(['b']);
    expect(formatHybridCheck(c)).toMatch(/better first relevant rank on 1 queries, worse on 1; keyword rank-1 hits lost: 1 of 2 — b \(symbol: "q b"\)/);
    expect(hybridCheck([{ engine: 'hci', queries: [] }])).toBeNull();
  });

  it('eval --semantic pretrained: hci-hybrid on the same index, in the repository report and the set table', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-evalhy-'));
    try {
      const setDir = path.join(tmp, 'set');
      const corpora = path.join(tmp, 'corpora');
      fs.mkdirSync(setDir);
      fs.mkdirSync(corpora);
      fs.symlinkSync(sample, path.join(corpora, 'Sample'));
      fs.writeFileSync(path.join(setDir, 'repos.json'), JSON.stringify({ Sample: { github: 'acme/sample', commit: 'c'.repeat(40) } }));
      const rows = [
        { id: 'Sample-s-01', query: 'CatalogService', relevant: ['src/Contoso.Shop.Application/Catalog/CatalogService.cs'], kind: 'symbol' },
        { id: 'Sample-p-01', query: 'where is the order discount applied to the total', relevant: ['src/Contoso.Shop.Application/Pricing/PricingEngine.cs'], kind: 'paraphrase' },
      ];
      fs.writeFileSync(path.join(setDir, 'Sample.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
      const s = await runSet({ set: path.join(setDir, 'repos.json'), fns: { runEval, formatEval }, corpora, engines: ['hci'], semantic: { provider: 'pretrained' } });
      const engines = s.repos[0].report.engines.map((e) => e.engine);
      expect(engines).toEqual(['hci', 'hci-hybrid']);
      expect(s.aggregate.pooled['hci-hybrid'].n).toBe(2);
      expect(formatEval(s.repos[0].report)).toMatch(/hci-hybrid against hci \(keyword\): better first relevant rank on \d+ queries, worse on \d+; keyword rank-1 hits lost: \d+ of \d+/);
      expect(formatSet(s, { formatEval })).toMatch(/hci-hybrid against hci \(keyword\), per repository:[\s\S]*\|\s*Sample\s*\|/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);
});
