// The keyword channel's widening judges a word common by the counts it is given (channels/fts.ts
// widenFts): a search over several indexes passes the counts of them all (channels/fts-global.ts),
// as one index of the union would count — a repository's own name is in most of its chunks but
// not of the union's. A real workspace, searched through the service with keyword statistics: with
// its own counts every word is rare and the page fills with chunks holding any of them; with counts
// in which `alpha` is in half of 10,000 chunks, the widening leaves `alpha` out — the chunk holding
// only it is not found — and the chunks holding the other words still are; the chunks that pass
// finds are scored over its own phrases, as one index of the union scores them (a chunk that also
// holds the common word scores as one alike without it) — unless setting near_complete adds the
// chunks holding every word but one, scored over every word (channels/fts.ts nearGroups).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { HciService } from '../core/service/index.ts';
import { parseRequest } from '../core/search/pipeline.ts';
import { clauseExprs } from '../core/search/channels/fts.ts';
import { corpusStats, queryPhrases, type CorpusStats } from '../core/search/term-stats.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

const FILES = {
  'docs/all.md': '# Notes\n\nalpha beta gamma together in one place.\n',
  'docs/first.md': '# First\n\nonly alpha is here, with other words.\n',
  'docs/second.md': '# Second\n\nonly beta is here, with other words.\n',
  'docs/third.md': '# Third\n\nonly gamma is here, with other words.\n',
  // As second.md but for the common word (same number of tokens in every column).
  'docs/fourth.md': '# Fourth\n\nonly beta is alpha, with other words.\n',
};
const QUERY = 'alpha beta gamma';

describe('the widening with the counts of several indexes', () => {
  let ws: TmpWorkspace;
  let svc: HciService;
  let own: CorpusStats;

  beforeAll(async () => {
    ws = await createTmpWorkspace(FILES, 'hci-widen-');
    svc = new HciService({ root: ws.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    await svc.index();
    const w = await svc.workspace();
    const q = parseRequest(w.settings, { query: QUERY });
    const exprs = [...new Set([...queryPhrases(q), ...clauseExprs(q)])];
    expect(clauseExprs(q)).toHaveLength(3);
    own = (await w.read((db) => corpusStats(db, exprs))).value;
  }, 60_000);

  afterAll(async () => {
    await svc?.close();
    await ws?.cleanup();
  });

  const paths = async (all: CorpusStats) => {
    const a = await svc.call('search', { query: QUERY, limit: 10 }, { keywordStats: { all, own } });
    return a.hits.map((h) => h.path).sort();
  };

  it('leaves out a word the counts of all the indexes make common, and only that word', async () => {
    // Its own counts: every word rare, the page filled with chunks holding any of them.
    expect(await paths(own)).toEqual(['docs/all.md', 'docs/first.md', 'docs/fourth.md', 'docs/second.md', 'docs/third.md']);
    // The union's counts: 10,000 chunks, `alpha` in 5,000 of them (the cutoff is 4% and at least 1,000).
    const alpha = clauseExprs(parseRequest((await svc.workspace()).settings, { query: QUERY })).find((e) => e.includes('alpha'))!;
    const all: CorpusStats = { rows: 10_000, tokens: 10_000 * (own.tokens / own.rows), docs: { ...own.docs, [alpha]: 5_000 } };
    expect(await paths(all)).toEqual(['docs/all.md', 'docs/fourth.md', 'docs/second.md', 'docs/third.md']);
  });

  it('scores the any-term pass over its own phrases, as one index of the union does', async () => {
    // 100,000 chunks, `alpha` in 5,000: common (the cutoff is 4,000) yet far from FTS5's IDF floor.
    const alpha = clauseExprs(parseRequest((await svc.workspace()).settings, { query: QUERY })).find((e) => e.includes('alpha'))!;
    const all: CorpusStats = { rows: 100_000, tokens: 100_000 * (own.tokens / own.rows), docs: Object.fromEntries(Object.entries(own.docs).map(([p, n]) => [p, p.includes('alpha') ? 5_000 : n * 1_000])) };
    expect(alpha).toBeDefined();
    const a = await svc.call('search', { query: QUERY, limit: 10 }, { keywordStats: { all, own } });
    const score = (path: string) => a.hits.find((h) => h.path === path)?.fts_score;
    expect(score('docs/second.md')).toBeGreaterThan(0);
    // The pass ORs beta and gamma: alpha's part is no part of fourth.md's score there.
    expect(score('docs/fourth.md')).toBeCloseTo(score('docs/second.md')!, 9);
  });

  it('scores a chunk holding every word but one over all of them with near_complete (the common word counts again)', async () => {
    const alpha = clauseExprs(parseRequest((await svc.workspace()).settings, { query: QUERY })).find((e) => e.includes('alpha'))!;
    const all: CorpusStats = { rows: 100_000, tokens: 100_000 * (own.tokens / own.rows), docs: Object.fromEntries(Object.entries(own.docs).map(([p, n]) => [p, p.includes('alpha') ? 5_000 : n * 1_000])) };
    expect(alpha).toBeDefined();
    const near = new HciService({ root: ws.root, host: nodeServiceHost(), surface: 'cli', watch: 'off', open: (root) => openWorkspace(root, { settings: { near_complete: 'short' } }) });
    try {
      const a = await near.call('search', { query: QUERY, limit: 10 }, { keywordStats: { all, own } });
      const score = (path: string) => a.hits.find((h) => h.path === path)?.fts_score;
      // fourth.md holds beta and the common alpha (every clause but gamma): found by the near-complete
      // groups and scored over every clause, alpha's part among them; second.md (beta alone) keeps the rare pass's score.
      expect(score('docs/second.md')).toBeGreaterThan(0);
      expect(score('docs/fourth.md')).toBeGreaterThan(score('docs/second.md')! * 1.01);
      expect(a.hits.findIndex((h) => h.path === 'docs/fourth.md')).toBeLessThan(a.hits.findIndex((h) => h.path === 'docs/second.md'));
    } finally {
      await near.close();
    }
  });
});
