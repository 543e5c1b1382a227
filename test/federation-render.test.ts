// A search over several repositories renders only the hits its merged page keeps
// (core/service/federation.ts renderKept): each repository's part ranks with its hits unrendered
// (RepoSearch.rank: ids, scores, keys) and renders afterwards the positions the merge asks of it
// (RepoSearch.render) — its snippets, symbols and paired files, and the file text they need, read for
// those alone. The merged answers are the same, byte for byte, as those of parts that render every
// hit of their pages (RepoSearch.search alone); each part renders only its hits in the merged page.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Federation, HciService, type RepoSearch } from '../core/service/index.ts';
import { LocalRepoSearch } from '../core/service/repo-search.ts';
import type { SearchAnswer, SearchRequest } from '../core/contract/search.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createTmpWorkspace, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

const source = (repo: string, n: number): string =>
  `// ${repo} module ${n}: the lantern keeper\nexport class Lantern${n} {\n  glow(level: number): number {\n    return level * ${n}; // lantern glow\n  }\n\n  dim(): void {\n    console.log('dim the lantern ${repo}');\n  }\n}\n\nexport function keeper${n}(l: Lantern${n}): number {\n  return l.glow(${n});\n}\n`;
const repoFiles = (repo: string, count: number): WorkspaceFiles => Object.fromEntries(Array.from({ length: count }, (_, i) => [
  [`src/${repo}/lantern${i + 1}.ts`, source(repo, i + 1)],
  [`src/${repo}/lantern${i + 1}.test.ts`, `import { Lantern${i + 1} } from './lantern${i + 1}';\n// keeper test: the lantern glows\nnew Lantern${i + 1}().glow(2);\n`],
]).flat() as Array<[string, string]>);
const REPOS = { alpha: repoFiles('alpha', 14), beta: repoFiles('beta', 9), gamma: repoFiles('gamma', 5) };

/** An answer without its time. */
const same = (a: SearchAnswer): string => JSON.stringify({ ...a, took_ms: 0 });

describe('a merged search renders only the hits of its merged page', () => {
  const spaces: TmpWorkspace[] = [];
  const services: HciService[] = [];

  beforeAll(async () => {
    for (const files of Object.values(REPOS)) spaces.push(await createTmpWorkspace(files, 'hci-fed-render-'));
    for (const w of spaces) services.push(new HciService({ root: w.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' }));
    for (const s of services) await s.index();
  }, 120_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    for (const w of spaces) await w.cleanup();
  });

  /** Parts that rank then render (counting the hits each ranked and rendered), or that render every hit (search alone). */
  function federation(deferred: boolean): { fed: Federation; ranked: Map<string, number>; rendered: Map<string, number> } {
    const ranked = new Map<string, number>();
    const rendered = new Map<string, number>();
    const names = Object.keys(REPOS);
    const part = (repo: string, svc: HciService): RepoSearch => {
      const local = new LocalRepoSearch(svc);
      const base: RepoSearch = { stats: (p, h) => local.stats(p, h), firstPass: (req, ks) => local.firstPass(req, ks), search: (req, ctx) => local.search(req, ctx) };
      if (!deferred) return base;
      return {
        ...base,
        rank: async (req, ctx) => {
          const r = await local.rank(req, ctx);
          ranked.set(repo, (ranked.get(repo) ?? 0) + r.answer.hits.length);
          return r;
        },
        render: async (page, at) => {
          rendered.set(repo, (rendered.get(repo) ?? 0) + at.length);
          return local.render(page, at);
        },
      };
    };
    const fed = new Federation(names.map((repo, i) => ({ repo, service: services[i], search: part(repo, services[i]) })));
    return { fed, ranked, rendered };
  }

  const requests: SearchRequest[] = [
    { query: 'lantern', limit: 5 },
    { query: 'lantern glow', limit: 10 },
    { query: 'keeper', limit: 7, max_tokens: 400 },
    { query: 'Lantern3', limit: 4 },
    { query: 'dim the lantern', limit: 3, repos: ['beta', 'gamma'] },
    { query: 'lantern', limit: 6, mode: 'keyword', paths: ['src/**/*.test.ts'] },
  ];

  it('answers as parts that render every hit, byte for byte, on first and later pages', async () => {
    const lean = federation(true);
    const full = federation(false);
    for (const req of requests) {
      let cursor: string | undefined;
      for (let p = 0; p < 3; p++) {
        const r = { ...req, ...(cursor ? { cursor } : {}) };
        const a = await lean.fed.search(r);
        const b = await full.fed.search(r);
        expect(a.hits.length, req.query).toBeGreaterThan(0);
        expect(a.hits.every((h) => h.snippet.length > 0)).toBe(true);
        expect(same(a)).toBe(same(b));
        cursor = a.next_cursor;
        if (!cursor) break;
      }
    }
  });

  it('renders, in each repository, only its hits in the merged page', async () => {
    // (A token budget cuts the rendered page afterwards: those requests are left to the test above.)
    for (const req of requests.filter((r) => r.max_tokens === undefined)) {
      const { fed, ranked, rendered } = federation(true);
      const a = await fed.search(req);
      const inPage = (repo: string) => a.hits.filter((h) => h.repo === repo).length;
      let all = 0;
      for (const repo of Object.keys(REPOS)) {
        expect(rendered.get(repo) ?? 0, `${req.query} ${repo}`).toBe(inPage(repo));
        all += ranked.get(repo) ?? 0;
      }
      // The parts ranked more than the page (each its own first page): they rendered the page's alone.
      expect(all, req.query).toBeGreaterThan(a.hits.length);
    }
  });

  it('searches a page again when its part can no longer render it', async () => {
    const { fed } = federation(true);
    const full = federation(false);
    // Parts that forget every page they ranked (as after an index change): the hits come from a search again.
    const forgetful = new Federation(Object.keys(REPOS).map((repo, i) => {
      const local = new LocalRepoSearch(services[i]);
      return { repo, service: services[i], search: { stats: (p, h) => local.stats(p, h), firstPass: (req, ks) => local.firstPass(req, ks), search: (req, ctx) => local.search(req, ctx), rank: (req, ctx) => local.rank(req, ctx), render: async () => null } satisfies RepoSearch };
    }));
    const req = { query: 'lantern glow', limit: 8 };
    expect(same(await forgetful.search(req))).toBe(same(await full.fed.search(req)));
    expect(same(await fed.search(req))).toBe(same(await full.fed.search(req)));
  });
});
