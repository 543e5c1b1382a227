// A search over several repositories with each repository's part on a worker thread
// (runtimes/node/repo-search-pool.ts, core/service/repo-search.ts): three real workspaces — the
// sample workspace and the two of federation-repos.ts, whose own statistics mis-order "gizmo" —
// searched through a Federation whose parts run in 2 real worker threads (the built worker script,
// npm run build), each repository through its own connection, and through one whose parts run on
// this thread: every answer's hits are the same (ids, paths, order, scores), the merge of the
// statistics included; a repos filter and paging go through the workers too; closing ends them.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as path from 'node:path';
import { Federation, HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createNodeRepoSearchPool } from '../runtimes/node/repo-search-pool.ts';
import { copyWorkspace, createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { ALPHA, BETA } from './helpers/federation-repos.ts';
import { ensureBuilt } from './helpers/hci-process.ts';
import * as fs from 'node:fs';

const QUERIES = ['gizmo', 'CatalogService', 'order total discount', '"public async Task"', 'wheels axle', 'ext:md notes', 'IRepository<T>'];
const hitsOf = (a: { hits: Array<Record<string, unknown>> }) => a.hits.map((h) => [h.hit_id, h.repo, h.path, h.rank, h.score, h.start_line]);

describe('a search over several repositories, each on a worker thread', () => {
  let alpha: TmpWorkspace, beta: TmpWorkspace;
  let sample: string;
  const services: HciService[] = [];
  let inThread: Federation, workers: Federation;

  beforeAll(async () => {
    ensureBuilt();
    alpha = await createTmpWorkspace(ALPHA, 'hci-fedw-alpha-');
    beta = await createTmpWorkspace(BETA, 'hci-fedw-beta-');
    sample = copyWorkspace(path.resolve(import.meta.dirname, 'sample-workspace'), 'hci-fedw-sample-');
    const roots = [alpha.root, beta.root, sample];
    const names = ['alpha', 'beta', 'sample'];
    const open = (root: string) => {
      const s = new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
      services.push(s);
      return s;
    };
    const built = roots.map(open);
    for (const s of built) await s.index();
    inThread = new Federation(roots.map((r, i) => ({ repo: names[i], service: built[i] })));
    const parts = createNodeRepoSearchPool({ workers: 2 })(roots);
    workers = new Federation(roots.map((r, i) => ({ repo: names[i], service: open(r), search: parts[i] })));
  }, 120_000);

  afterAll(async () => {
    await workers?.close();
    for (const s of services) await s.close();
    for (const w of [alpha, beta]) await w?.cleanup();
    if (sample) fs.rmSync(sample, { recursive: true, force: true });
  });

  it('answers as the search on this thread does, statistics merged', async () => {
    let answered = 0;
    for (const query of QUERIES) {
      const [a, b] = [await inThread.call('search', { query, limit: 10 }), await workers.call('search', { query, limit: 10 })];
      expect(b.status, query).toBe(a.status);
      expect(hitsOf(b), query).toEqual(hitsOf(a));
      expect(b.repos?.map((r) => [r.repo, r.status, r.hits]), query).toEqual(a.repos?.map((r) => [r.repo, r.status, r.hits]));
      if (a.hits.length) answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(QUERIES.length - 1);
    // The merged statistics reach the workers: alpha's chunk first, as one index of the union ranks it (federation.test.ts).
    expect((await workers.call('search', { query: 'gizmo' })).hits.map((h) => `${h.repo}/${h.path}`)).toEqual(['alpha/docs/notes.md', 'beta/docs/notes.md']);
  });

  it('filters by repository and pages through the workers as on this thread', async () => {
    const req = { query: 'order', limit: 3, repos: ['sample', 'beta'] };
    const [a, b] = [await inThread.call('search', req), await workers.call('search', req)];
    expect(hitsOf(b)).toEqual(hitsOf(a));
    expect(a.next_cursor).toBeDefined();
    const next = { ...req, cursor: a.next_cursor };
    expect(hitsOf(await workers.call('search', next))).toEqual(hitsOf(await inThread.call('search', next)));
  });
});
