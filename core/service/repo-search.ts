// One repository's part of a search over several (core/service/federation.ts): the keyword
// statistics of its index for the query's phrases, kept between searches (term-stats.ts
// StatsCache), its keyword scores of the query's first pass (what one candidate pool is split by), and its own search weighed with the statistics of them all. LocalRepoSearch runs both
// on this thread over the repository's service; a runtime may run each repository's part on a
// thread of its own, through its own connection (Node: runtimes/node/repo-search-pool.ts), so the
// repositories are searched in parallel. Owns the interface and the on-thread implementation; what
// is merged, and how, is the federation's.
import type { SearchAnswer, SearchRequest } from '../contract/search.ts';
import { StatsCache, type CorpusStats, type FirstPass, type HeadsAsk, type KeywordStats } from '../search/term-stats.ts';
import type { HciService } from './service.ts';
import type { CallContext } from './host.ts';

export interface RepoSearch {
  /** Its index's statistics for the phrases, and the head counts asked for (null: no index to read yet, or it failed: its search answers why). */
  stats(phrases: readonly string[], heads?: HeadsAsk): Promise<CorpusStats | null>;
  /** Its keyword scores of the query's first pass, with the statistics of them all (Searcher.firstPass): what one pool is split by (null: it has none). */
  firstPass?(req: SearchRequest, keywordStats: KeywordStats): Promise<FirstPass | null>;
  /** Its own search; `ctx.keywordStats`: the statistics of every repository, its own among them, and its share of the pool (another thread gets only those). */
  search(req: SearchRequest, ctx: CallContext): Promise<SearchAnswer>;
  close?(): Promise<void>;
}

/** Makes one RepoSearch per workspace folder or published index, each with its own connection (a runtime's, to search them in parallel). */
export type RepoSearchPool = (roots: readonly string[]) => RepoSearch[];

/** A repository's part on this thread, over its service (searches of several such run one after the other). */
export class LocalRepoSearch implements RepoSearch {
  private readonly cache = new StatsCache();

  constructor(private readonly service: HciService) {}

  async stats(phrases: readonly string[], heads?: HeadsAsk): Promise<CorpusStats | null> {
    try {
      const ws = await this.service.workspace();
      return await ws.readValue((db) => this.cache.read(db, phrases, heads));
    } catch {
      return null;
    }
  }

  async firstPass(req: SearchRequest, keywordStats: KeywordStats): Promise<FirstPass | null> {
    try {
      return await (await this.service.workspace()).firstPass(req, keywordStats);
    } catch {
      return null;
    }
  }

  search(req: SearchRequest, ctx: CallContext): Promise<SearchAnswer> {
    return this.service.call('search', req, ctx);
  }
}
