// `npm run eval -- --set`: every repository of a query set in one run, with declaration@1 and short
// pages (bench/eval-set.ts, bench/lib/page-checks.ts). Real indexing of the sample workspace as a
// one-repository set; the pure checks on hand-made observations. Figures are never asserted, only
// that they are computed and reported.
// @lane cli
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareSets, formatSet, runSet, setLabel, slimSet } from '../bench/eval-set.ts';
import { declarationAt1, shortPages } from '../bench/lib/page-checks.ts';
import type { GoldenQuery } from '../bench/lib/queries.ts';
import { formatEval, runEval } from '../bench/eval.ts';

const fns = { runEval, formatEval };

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const CATALOG = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';

describe('page checks', () => {
  const q = (query: string, over: Partial<GoldenQuery> = {}): GoldenQuery => ({ id: query, query, relevant: [CATALOG], kind: 'symbol', ...over });

  it('declaration@1 needs the first hit in the declaring file with the line in its range; members are apart', () => {
    const decl = (line: number, of: 'type' | 'member' = 'type') => ({ path: CATALOG, line, symbol: 'CatalogService', of });
    const rows = [q('a', { declaration: decl(12) }), q('b', { declaration: decl(12) }), q('c', { declaration: decl(12) }), q('d', { declaration: decl(40, 'member') }), q('e')];
    const first = new Map([
      ['a', { path: CATALOG, start_line: 1, end_line: 30 }],
      ['b', { path: CATALOG, start_line: 60, end_line: 90 }],
      ['c', { path: 'other.cs', start_line: 1, end_line: 30 }],
      ['d', { path: CATALOG, start_line: 31, end_line: 50 }],
    ]);
    const d = declarationAt1(rows, first)!;
    expect(d).toMatchObject({ total: 3, hit: 1, fileHit: 2, members: { total: 1, hit: 1 } });
    expect(d.misses.map((m) => m.query)).toEqual(['b', 'c']);
    expect(declarationAt1([q('e')], first)).toBeNull();
  });

  it('a short page has fewer hits than the limit while more chunks match; a missing cursor is counted apart', () => {
    const rows = [q('full'), q('short'), q('complete'), q('nocursor')];
    const pages = new Map([
      ['full', { hits: 8, limit: 8, hasCursor: true, candidates: 100 }],
      ['short', { hits: 3, limit: 8, hasCursor: false, candidates: 156 }],
      ['complete', { hits: 2, limit: 8, hasCursor: false, candidates: 2 }],
      ['nocursor', { hits: 8, limit: 8, hasCursor: false, candidates: 20 }],
    ]);
    const s = shortPages(rows, pages);
    expect(s).toMatchObject({ total: 4, short: 1, noCursor: 2 });
    expect(s.list.map((p) => p.query)).toEqual(['short', 'nocursor']);
  });
});

describe('eval over a set of repositories', () => {
  it('runs every repository of a manifest, reports per repository, in aggregate, per kind, declaration@1 and short pages; compares with an earlier run', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-evalset-'));
    try {
      const setDir = path.join(tmp, 'set');
      const corpora = path.join(tmp, 'corpora');
      fs.mkdirSync(setDir);
      fs.mkdirSync(corpora);
      fs.symlinkSync(sample, path.join(corpora, 'Sample'));
      const commit = 'c'.repeat(40);
      fs.writeFileSync(path.join(setDir, 'repos.json'), JSON.stringify({ Sample: { github: 'acme/sample', commit, kind: 'fixture' }, NoQueries: { github: 'acme/none', commit } }));
      const rows = [
        { id: 'Sample-s-01', query: 'CatalogService', relevant: [CATALOG], kind: 'symbol', declaration: { path: CATALOG, line: 12, symbol: 'CatalogService', of: 'type' } },
        { id: 'Sample-b-01', query: 'where are catalog categories cached', relevant: [CATALOG], kind: 'behaviour' },
        { id: 'Sample-c-01', query: 'GetCatalogItemsAsync', relevant: ['src/Contoso.Shop.Application/Catalog/ICatalogService.cs'], kind: 'commit' },
      ];
      // The queries may live apart from the manifest (--queries), as the public dev set's do.
      const queries = path.join(tmp, 'queries');
      fs.mkdirSync(queries);
      fs.writeFileSync(path.join(queries, 'Sample.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
      const s = await runSet({ set: path.join(setDir, 'repos.json'), fns, corpora, queries, engines: ['hci'] });
      expect(s.repos.map((r) => r.name)).toEqual(['Sample']);
      const r = s.repos[0];
      expect(r.report.declarations).toMatchObject({ total: 1 });
      expect(r.report.shortPages?.total).toBe(3);
      expect(r.outcomes.map((o) => o.id)).toEqual(rows.map((x) => x.id));
      expect(typeof r.outcomes[0].declAt1).toBe('boolean');
      expect(s.aggregate.pooled.hci.n).toBe(3);
      expect(Object.keys(s.aggregate.hciByKind)).toEqual(['behaviour', 'commit', 'symbol']);
      const text = formatSet(s, fns);
      expect(text).toMatch(/### Retrieval quality: Sample/);
      expect(text).toMatch(/## set: 1 repositories/);
      expect(text).toMatch(/\|\s*Sample\s*\|\s*3\s*\|/);
      expect(text).toMatch(/Declaration at rank 1 for type-name queries: [01]\/1/);
      expect(text).toMatch(/Short pages: \d+\/3/);
      // A later run compared with this one: nothing changed, so nothing lost.
      const prev = path.join(tmp, 'prev.json');
      fs.writeFileSync(prev, JSON.stringify(slimSet(s)));
      expect(compareSets(s, prev)).toMatch(/No query lost rank 1/);
      // An earlier run where every query was at rank 1 with its declaration: the drops are named.
      const better = JSON.parse(fs.readFileSync(prev, 'utf8')) as { repos: Array<{ outcomes: Array<{ rank: number | null; declAt1?: boolean }> }> };
      for (const o of better.repos[0].outcomes) { o.rank = 1; if ('declAt1' in o) o.declAt1 = true; }
      fs.writeFileSync(prev, JSON.stringify(better));
      const lostLines = s.repos[0].outcomes.filter((o) => o.rank !== 1).length + s.repos[0].outcomes.filter((o) => o.declAt1 === false).length;
      const cmp = compareSets(s, prev);
      expect(lostLines ? cmp.match(/^- Sample /gm)?.length : 0).toBe(lostLines);
      // A corpus at another commit than the set pins is refused.
      fs.writeFileSync(path.join(corpora, 'Sample.corpus.json'), JSON.stringify({ commit: 'd'.repeat(40) }));
      await expect(runSet({ set: path.join(setDir, 'repos.json'), fns, corpora, queries, engines: ['hci'] })).rejects.toThrow(/is at dddddddddddd/);
      expect(setLabel(path.join(setDir, 'repos.json'))).toBe('set');
      expect(setLabel('broad')).toBe('broad');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
