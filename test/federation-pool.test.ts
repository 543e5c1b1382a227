// A search over several repositories ranks one candidate pool split across them, as one index of
// their union ranks one pool (core/service/federation.ts poolShares, channels/fts-global.ts): each
// repository's part keeps those of its first-pass chunks that are among the union's best `pool`
// (pipeline.ts candidatePool at the first depth: 144 at rank_depth 10), so its declarations and
// rerank work on its share instead of a pool of its own. Two repositories hold 150 and 30 notes that
// all say "lantern" (180 matches, more than one pool): the shares each part is handed are its chunks
// among the union index's best 144 by BM25, and the merged page is the union's; rerank's text-level
// signals reach each part's chunks among the union's best 40 (80 for coverage), as the union's do.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Federation, HciService, type RepoSearch } from '../core/service/index.ts';
import { LocalRepoSearch } from '../core/service/repo-search.ts';
import { searchAnswer } from '../core/contract/index.ts';
import { COLUMN_WEIGHTS } from '../core/search/channels/fts.ts';
import type { PoolShare } from '../core/search/term-stats.ts';
import { observeRerank, UNION_RERANK_POOLS } from '../core/search/rerank.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createTmpWorkspace, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

// Each note a different length and a different number of "lantern"s: no two score alike.
const note = (repo: string, n: number, words: number): string =>
  `# ${repo} note ${n}\n\n${Array.from({ length: (n % 4) + 1 }, () => 'The lantern glows.').join(' ')} ${Array.from({ length: words }, (_, i) => `w${(i * 13 + n) % 211}`).join(' ')}\n`;
const notes = (repo: string, count: number, base: number): WorkspaceFiles =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`docs/${repo}-${i + 1}.md`, note(repo, i + 1, base + i * 3)]));
const ALPHA = notes('alpha', 150, 20);
const BETA = notes('beta', 30, 250);
const prefixed = (repo: string, files: WorkspaceFiles): WorkspaceFiles => Object.fromEntries(Object.entries(files).map(([p, c]) => [`${repo}/${p}`, c]));
const POOL = 144;
/** Rerank's text-signal pools (rerank.ts UNION_RERANK_POOLS). */
const TEXT_POOL = UNION_RERANK_POOLS.text;
const COVERAGE_POOL = UNION_RERANK_POOLS.coverage;

describe('one candidate pool split across the repositories of a search', () => {
  const spaces: TmpWorkspace[] = [];
  const services: HciService[] = [];
  let alphaSvc: HciService, betaSvc: HciService, unionSvc: HciService;

  beforeAll(async () => {
    for (const files of [ALPHA, BETA, { ...prefixed('alpha', ALPHA), ...prefixed('beta', BETA) }]) spaces.push(await createTmpWorkspace(files, 'hci-fed-pool-'));
    for (const w of spaces) services.push(new HciService({ root: w.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' }));
    for (const s of services) await s.index();
    [alphaSvc, betaSvc, unionSvc] = services;
  }, 120_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    for (const w of spaces) await w.cleanup();
  });

  /** A federation whose parts record the share each search was handed. */
  function recording(opts: { sharedPool?: number; sharedRerank?: number } = {}): { fed: Federation; shares: Map<string, PoolShare | undefined> } {
    const shares = new Map<string, PoolShare | undefined>();
    const part = (repo: string, svc: HciService): RepoSearch => {
      const local = new LocalRepoSearch(svc);
      return {
        stats: (p, h) => local.stats(p, h),
        firstPass: (req, ks) => local.firstPass(req, ks),
        search: (req, ctx) => {
          shares.set(repo, ctx.keywordStats?.share);
          return local.search(req, ctx);
        },
      };
    };
    const fed = new Federation([{ repo: 'alpha', service: alphaSvc, search: part('alpha', alphaSvc) }, { repo: 'beta', service: betaSvc, search: part('beta', betaSvc) }], opts);
    return { fed, shares };
  }

  it("hands each part its chunks among the union's best pool, and lists the union's page", async () => {
    // The union index's best 144 by BM25 (the keyword channel's weights), per repository.
    const ws = await unionSvc.workspace();
    const best = await ws.readValue((db) => db.selectValues(`SELECT f.path FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
      WHERE chunks_fts MATCH '"lantern"' ORDER BY bm25(chunks_fts, ${Object.values(COLUMN_WEIGHTS).join(', ')}) LIMIT ${POOL}`) as string[]);
    const inUnion = (repo: string) => best.filter((p) => p.startsWith(`${repo}/`)).length;
    expect(inUnion('alpha') + inUnion('beta')).toBe(POOL);
    expect(inUnion('beta')).toBeGreaterThan(0);
    expect(inUnion('beta')).toBeLessThan(30);

    const { fed, shares } = recording({ sharedPool: 1, sharedRerank: 1 });
    const m = searchAnswer.parse(await fed.call('search', { query: 'lantern', limit: 10 }));
    expect(shares.get('alpha')).toMatchObject({ pool: POOL, first: inUnion('alpha') });
    expect(shares.get('beta')).toMatchObject({ pool: POOL, first: inUnion('beta') });
    // Rerank's text-level signals likewise: each part's chunks among the union's best 40 (80 for
    // coverage) — one pass, no widening, so the pass ranked alone and both passes together alike.
    const among = (repo: string, n: number) => best.slice(0, n).filter((p) => p.startsWith(`${repo}/`)).length;
    for (const repo of ['alpha', 'beta']) {
      const pools = { text: among(repo, TEXT_POOL), coverage: among(repo, COVERAGE_POOL) };
      expect(shares.get(repo)?.rerank).toEqual({ first: pools, both: pools });
    }
    expect(among('beta', TEXT_POOL)).toBeLessThan(TEXT_POOL);
    expect(among('alpha', TEXT_POOL)).toBeLessThan(TEXT_POOL);
    const u = searchAnswer.parse(await unionSvc.call('search', { query: 'lantern', limit: 10 }));
    expect(m.hits.map((h) => `${h.repo}/${h.path}`)).toEqual(u.hits.map((h) => h.path));
  });

  it("gives rerank's text-level signals to each part's chunks among the union's best 40, as the union gives them", async () => {
    // Every note holds "lantern glows" as written (factor exact_text): each pass's candidates that get it, per repository.
    const exact = async (opts: { sharedRerank?: number }) => {
      const got = new Map<string, number>();
      observeRerank(({ cands }) => {
        for (const c of cands) if (c.factors.some((f) => f.name === 'exact_text')) got.set(c.path.split('-')[0], (got.get(c.path.split('-')[0]) ?? 0) + 1);
      });
      try {
        await recording({ sharedPool: 1, ...opts }).fed.call('search', { query: 'lantern glows', limit: 10 });
      } finally {
        observeRerank(null);
      }
      return got;
    };
    const shared = await exact({ sharedRerank: 1 });
    expect((shared.get('docs/alpha') ?? 0) + (shared.get('docs/beta') ?? 0)).toBe(TEXT_POOL);
    expect(shared.get('docs/beta')).toBeGreaterThan(0);
    // Each part's own pool: its best 40 each (beta has 30 notes, each in the union's pool or not).
    const own = await exact({ sharedRerank: 0 });
    expect(own.get('docs/alpha')).toBe(TEXT_POOL);
    expect(own.get('docs/beta')).toBeGreaterThan(shared.get('docs/beta')!);
  });

  it('hands no share when told to rank a whole pool per repository, or when a path filter narrows the pass; no text-signal share when told so', async () => {
    const whole = recording({ sharedPool: 0 });
    await whole.fed.call('search', { query: 'lantern', limit: 10 });
    expect(whole.shares.get('alpha')).toBeUndefined();
    // Rerank's text-signal pools left whole: the keyword pool's share alone.
    const own = recording({ sharedRerank: 0 });
    await own.fed.call('search', { query: 'lantern', limit: 10 });
    expect(own.shares.get('alpha')).toMatchObject({ pool: POOL });
    expect(own.shares.get('alpha')?.rerank).toBeUndefined();
    const filtered = recording();
    await filtered.fed.call('search', { query: 'lantern path:docs', limit: 10 });
    expect(filtered.shares.get('beta')).toBeUndefined();
  });
});
