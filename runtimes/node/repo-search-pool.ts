// Node's RepoSearchPool (core/service/repo-search.ts): the repositories of a search over several
// spread over worker threads (repo-search-worker.js), one per core at most, each repository through
// a connection of its own in its worker — so a merged search asks them all at once instead of one
// after the other on the calling thread. Owns starting the workers, sending each repository's part
// to its worker and matching the replies; the workers end when every part is closed (unref'd: they
// never keep a finished command alive).
import * as os from 'node:os';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { RepoSearch, RepoSearchPool } from '../../core/service/repo-search.ts';
import type { CorpusStats, FirstPass } from '../../core/search/term-stats.ts';
import type { SearchAnswer, SearchHit } from '../../core/contract/search.ts';
import type { OpenOptions } from '../../core/workspace.ts';
import type { RepoSearchReply, RepoSearchRequest, RepoSearchWorkerData } from './repo-search-worker.ts';

/** The compiled worker script (a Worker cannot run .ts: from the TypeScript sources, the build's). */
function workerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/runtimes/node/repo-search-worker.js', import.meta.url)
    : new URL('./repo-search-worker.js', import.meta.url);
}

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

/** One worker and the replies it owes. */
class PoolWorker {
  private readonly worker: Worker;
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private failure: Error | null = null;

  constructor(data: RepoSearchWorkerData) {
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    this.worker = new Worker(workerUrl(), { workerData: data });
    this.worker.unref();
    this.worker.on('message', (r: RepoSearchReply) => {
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if ('error' in r) w?.reject(new Error(r.error));
      else w?.resolve(r.value);
    });
    const fail = (e: Error) => {
      this.failure = e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the search worker stopped (exit code ${code})`)));
  }

  ask<T>(msg: Distribute<RepoSearchRequest>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.ask({ op: 'close' }).catch(() => {});
    await this.worker.terminate();
  }
}

/** A pool of at most `workers` threads (default: the cores available); `surface` words the answers' hints. */
export function createNodeRepoSearchPool(opts: { workers?: number; surface?: 'cli' | 'mcp'; open?: OpenOptions } = {}): RepoSearchPool {
  return (roots) => {
    const n = Math.max(1, Math.min(roots.length, opts.workers ?? os.availableParallelism()));
    const assigned = Array.from({ length: n }, () => [] as string[]);
    roots.forEach((r, i) => assigned[i % n].push(r));
    const workers = assigned.map((rs) => new PoolWorker({ roots: rs, surface: opts.surface ?? 'cli', ...(opts.open ? { open: opts.open } : {}) }));
    let open = roots.length;
    return roots.map((_, i): RepoSearch => {
      const w = workers[i % n];
      const repo = Math.floor(i / n);
      let closed = false;
      return {
        stats: (phrases, heads) => w.ask<CorpusStats | null>({ op: 'stats', repo, phrases: [...phrases], ...(heads ? { heads } : {}) }),
        firstPass: (req, keywordStats) => w.ask<FirstPass | null>({ op: 'firstPass', repo, req, keywordStats }),
        search: (req, ctx) => w.ask<SearchAnswer>({ op: 'search', repo, req, ...(ctx.keywordStats ? { keywordStats: ctx.keywordStats } : {}) }),
        rank: (req, ctx) => w.ask<{ answer: SearchAnswer; page: number | null }>({ op: 'rank', repo, req, ...(ctx.keywordStats ? { keywordStats: ctx.keywordStats } : {}) }),
        render: (page, at) => w.ask<SearchHit[] | null>({ op: 'render', repo, page, at: [...at] }),
        close: async () => {
          if (closed) return;
          closed = true;
          if (--open === 0) await Promise.all(workers.map((x) => x.close()));
        },
      };
    });
  };
}
