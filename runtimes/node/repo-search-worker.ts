// The worker thread behind repo-search-pool.ts: the repositories it is given, each through a service
// and a connection of its own (LocalRepoSearch over an HciService that never indexes or watches), and
// their parts of a search over several (core/service/repo-search.ts) — the keyword statistics of
// the query's phrases, its keyword scores of the query's first pass and the repository's own search (ranked, then
// its survivors rendered: the pages it ranked stay here until then) — answered one message at a time. Owns
// nothing else: which repositories come here and how the answers are merged are the pool's and the
// federation's.
import { parentPort, workerData } from 'node:worker_threads';
import { HciService } from '../../core/service/service.ts';
import { LocalRepoSearch } from '../../core/service/repo-search.ts';
import type { SearchRequest } from '../../core/contract/search.ts';
import type { HeadsAsk, KeywordStats } from '../../core/search/term-stats.ts';
import type { SurfacePolicy } from '../../core/service/host.ts';
import type { OpenOptions } from '../../core/workspace.ts';
import { nodeServiceHost } from './service-host.ts';

export interface RepoSearchWorkerData {
  roots: string[];
  surface: 'cli' | 'mcp';
  open?: OpenOptions;
}

/** A request for repository `repo` (an index into the worker's roots). */
export type RepoSearchRequest =
  | { id: number; repo: number; op: 'stats'; phrases: string[]; heads?: HeadsAsk }
  | { id: number; repo: number; op: 'firstPass'; req: SearchRequest; keywordStats: KeywordStats }
  | { id: number; repo: number; op: 'search' | 'rank'; req: SearchRequest; keywordStats?: KeywordStats }
  | { id: number; repo: number; op: 'render'; page: number; at: number[] }
  | { id: number; op: 'close' };

export type RepoSearchReply = { id: number; value: unknown } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('repo-search-worker.js runs as a worker thread only');
const data = workerData as RepoSearchWorkerData;
const services = data.roots.map((root) => new HciService({ root, host: nodeServiceHost(data.open), surface: data.surface, watch: 'off' }));
const parts = services.map((s) => new LocalRepoSearch(s));

port.on('message', (m: RepoSearchRequest) => {
  void (async () => {
    try {
      let value: unknown;
      if (m.op === 'close') value = await Promise.all(services.map((s) => s.close()));
      else if (m.op === 'stats') value = await parts[m.repo].stats(m.phrases, m.heads);
      else if (m.op === 'firstPass') value = await parts[m.repo].firstPass(m.req, m.keywordStats);
      else if (m.op === 'render') value = await parts[m.repo].render(m.page, m.at);
      else if (m.op === 'rank') value = await parts[m.repo].rank(m.req, m.keywordStats ? { keywordStats: m.keywordStats } : {});
      else value = await parts[m.repo].search(m.req, m.keywordStats ? { keywordStats: m.keywordStats } : {});
      port.postMessage({ id: m.id, value: value ?? null } satisfies RepoSearchReply);
    } catch (e) {
      port.postMessage({ id: m.id, error: String((e as Error)?.message ?? e) } satisfies RepoSearchReply);
    }
  })();
});
