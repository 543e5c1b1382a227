// A search over several repositories widens (the any-term pass after the complete matches) only when
// one index of their union would (core/service/federation.ts counts each index's complete matches
// at its first pass's head, channels/fts-global.ts hands each part the others'): two repositories
// hold six complete matches of "lantern wick" each — twelve, more than a first page needs (setting
// rank_depth 10), so the union never widens — while each alone holds six, fewer than a page, and
// widened. The second also holds short notes named after "lantern" alone, whose partial matches
// outscore the long complete ones: widened on their own they took the top of the merged page, which
// the union never lists.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Federation, HciService } from '../core/service/index.ts';
import { searchAnswer } from '../core/contract/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createTmpWorkspace, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

const filler = (n: number) => Array.from({ length: 60 }, (_, i) => `word${(i * 7 + n) % 97}`).join(' ');
const complete = (repo: string, n: number): WorkspaceFiles => ({ [`docs/${repo}-${n}.md`]: `# Page ${n}\n\nThe lantern needs a wick. ${filler(n)}\n` });
const many = (repo: string, count: number): WorkspaceFiles => Object.assign({}, ...Array.from({ length: count }, (_, i) => complete(repo, i + 1)));
// Notes on other things: the query's words stay rare (in fewer than half of the chunks, their IDF above FTS5's floor).
const others = (count: number): WorkspaceFiles => Object.fromEntries(Array.from({ length: count }, (_, i) => [`notes/other-${i + 1}.md`, `# Other ${i + 1}\n\nPlain words about wheels and axles, page ${i + 1}.\n`]));

const EPSILON: WorkspaceFiles = { ...many('epsilon', 6), ...others(30) };
const ZETA: WorkspaceFiles = {
  ...many('zeta', 6),
  ...others(30),
  ...Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`docs/lantern-${i + 1}.md`, `# Lantern ${i + 1}\n\nA lantern, a lantern.\n`])),
};
const prefixed = (repo: string, files: WorkspaceFiles): WorkspaceFiles => Object.fromEntries(Object.entries(files).map(([p, c]) => [`${repo}/${p}`, c]));
const QUERY = 'lantern wick';

describe('the widening of a search over several repositories', () => {
  const spaces: TmpWorkspace[] = [];
  const services: HciService[] = [];
  let fed: Federation, unionSvc: HciService, zetaSvc: HciService;

  beforeAll(async () => {
    for (const files of [EPSILON, ZETA, { ...prefixed('epsilon', EPSILON), ...prefixed('zeta', ZETA) }]) spaces.push(await createTmpWorkspace(files, 'hci-fed-widen-'));
    for (const w of spaces) services.push(new HciService({ root: w.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' }));
    for (const s of services) await s.index();
    const [e, z, u] = services;
    zetaSvc = z;
    unionSvc = u;
    fed = new Federation([{ repo: 'epsilon', service: e }, { repo: 'zeta', service: z }]);
  }, 60_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    for (const w of spaces) await w.cleanup();
  });

  it('lists what the union lists: the complete matches only, no partial one widened by a repository alone', async () => {
    const alone = searchAnswer.parse(await zetaSvc.call('search', { query: QUERY, limit: 10 }));
    // Alone, the repository widens: its partial matches lead its page.
    expect(alone.match).toBe('all_then_any');
    expect(alone.hits[0].path).toMatch(/^docs\/lantern-/);
    const u = searchAnswer.parse(await unionSvc.call('search', { query: QUERY, limit: 10 }));
    expect(u.match).toBe('all');
    expect(u.hits.some((h) => h.path.includes('lantern-'))).toBe(false);
    const m = searchAnswer.parse(await fed.call('search', { query: QUERY, limit: 10 }));
    expect(m.hits).toHaveLength(10);
    expect(m.hits.filter((h) => h.path.includes('lantern-')).map((h) => h.path)).toEqual([]);
    expect(m.match).toBe('all');
    // The same chunks as the union's page (the union's paths hold the repository's folder).
    expect(m.hits.map((h) => `${h.repo}/${h.path}`).sort()).toEqual(u.hits.map((h) => h.path).sort());
  });
});
