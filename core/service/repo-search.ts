// One repository's part of a search over several (core/service/federation.ts): the keyword
// statistics of its index for the query's phrases, kept between searches (term-stats.ts
// StatsCache), its keyword scores of the query's first pass (what one candidate pool is split by), and its own search weighed with the statistics of them all —
// ranked with its hits unrendered (rank), the merge then asking it to render the hits its page keeps (render). LocalRepoSearch runs them
// on this thread over the repository's service; a runtime may run each repository's part on a
// thread of its own, through its own connection (Node: runtimes/node/repo-search-pool.ts), so the
// repositories are searched in parallel. Owns the interface and the on-thread implementation; what
// is merged, and how, is the federation's.
import type { SearchAnswer, SearchHit, SearchRequest } from '../contract/search.ts';
import { StatsCache, type CorpusStats, type FirstPass, type HeadsAsk, type KeywordStats } from '../search/term-stats.ts';
import type { HciService } from './service.ts';
import type { CallContext } from './host.ts';

type Render = (at: readonly number[]) => Promise<SearchHit[] | null>;

export interface RepoSearch {
  /** Its index's statistics for the phrases, and the head counts asked for (null: no index to read yet, or it failed: its search answers why). */
  stats(phrases: readonly string[], heads?: HeadsAsk): Promise<CorpusStats | null>;
  /** Its keyword scores of the query's first pass, with the statistics of them all (Searcher.firstPass): what one pool is split by (null: it has none). */
  firstPass?(req: SearchRequest, keywordStats: KeywordStats): Promise<FirstPass | null>;
  /** Its own search; `ctx.keywordStats`: the statistics of every repository, its own among them, and its share of the pool (another thread gets only those). */
  search(req: SearchRequest, ctx: CallContext): Promise<SearchAnswer>;
  /**
   * Its search as `search`, its hits unrendered (ids, scores, keys: what the merge needs) and `page`
   * the handle to render some of them afterwards (null: its hits came rendered, e.g. a failed search).
   */
  rank?(req: SearchRequest, ctx: CallContext): Promise<{ answer: SearchAnswer; page: number | null }>;
  /** The hits of a page `rank` answered, at these positions, rendered as `search` renders them (null: the page is gone or the index changed since: search again). */
  render?(page: number, at: readonly number[]): Promise<SearchHit[] | null>;
  close?(): Promise<void>;
}

/** How many pages a repository's part keeps for render (the last ranked; a merge renders its survivors right away). */
const KEPT_PAGES = 64;

/** Makes one RepoSearch per workspace folder or published index, each with its own connection (a runtime's, to search them in parallel). */
export type RepoSearchPool = (roots: readonly string[]) => RepoSearch[];

/** A repository's part on this thread, over its service (searches of several such run one after the other). */
export class LocalRepoSearch implements RepoSearch {
  private readonly cache = new StatsCache();
  /** The renderers of the pages `rank` answered, oldest first. */
  private readonly pages = new Map<number, Render>();
  private next = 1;

  constructor(private readonly service: HciService) {}

  async stats(phrases: readonly string[], heads?: HeadsAsk): Promise<CorpusStats | null> {
    try {
      const ws = await this.service.workspace();
      return await ws.readSession((session) => this.cache.read(session, phrases, heads));
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

  async rank(req: SearchRequest, ctx: CallContext): Promise<{ answer: SearchAnswer; page: number | null }> {
    let render: Render | null = null;
    const answer = await this.service.call('search', req, { ...ctx, deferRender: (r) => { render = r; } });
    if (!render) return { answer, page: null };
    const page = this.next++;
    this.pages.set(page, render);
    for (const k of this.pages.keys()) if (this.pages.size > KEPT_PAGES) this.pages.delete(k);
    return { answer, page };
  }

  async render(page: number, at: readonly number[]): Promise<SearchHit[] | null> {
    const r = this.pages.get(page);
    this.pages.delete(page);
    return r ? r(at) : null;
  }
}
