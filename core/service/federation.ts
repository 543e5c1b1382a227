// Many repositories in one search: a Federation answers the verbs over several services, one per
// workspace folder or published index (`hci search <q> --root A --root B`, `hci mcp A B`), each with
// its own index file and connection. A search asks every repository (or those the request's `repos`
// names) for the first pages with their keyword scores made comparable — the statistics of all the
// index files added up first (core/search/term-stats.ts), each index's keyword hits scored with them
// (channels/fts-global.ts): the score one index of the union would give — with one keyword candidate
// pool shared by them (each keeps its chunks among the best of all: poolShares; rerank's text-level
// signals likewise reach each one's candidates among the union's best) — merges the lists by score
// and pages them with its own cursor; each repository ranks with its hits unrendered and renders only
// those the merged page keeps (renderKept). Every hit carries its `repo` (its path stays relative to that
// repository) and its hit_id is qualified (`<repo>/<id>`), so explain reaches the right index; the calls that name a path (outline, file,
// tree, resolve, similar) take it qualified the same way; status, reindex and watch go to every
// repository (the first one's answer, the others' in its hint). Owns naming the repositories,
// merging, routing and the merged answer's shape; each repository's part of a search (its
// statistics, its search) is a RepoSearch (repo-search.ts): on this thread over its service (each
// call's SQLite work is synchronous, so they run one after the other), or on a thread of its own
// where the runtime gives one (all repositories at once).
import { HciError } from '../platform.ts';
import { CONTRACT_VERSION } from '../contract/version.ts';
import { SEARCH_LIMIT } from '../contract/limits.ts';
import type { ErrorInfo, IndexFreshness } from '../contract/common.ts';
import type { MatchKind, SearchAnswer, SearchHit, SearchRequest } from '../contract/search.ts';
import { decodeCursor, encodeCursor, estimateTokens, fitTokenBudget } from '../search/page.ts';
import { keywordFirstPassOnly, parseRequest, pathFiltered } from '../search/pipeline.ts';
import { mergeStats, poolShares, queryPhrases, type CorpusStats, type FirstPass, type HeadsAsk, type PoolShare } from '../search/term-stats.ts';
import { ftsExpression } from '../search/query.ts';
import { clauseExprs } from '../search/channels/fts.ts';
import { UNION_RERANK_POOLS, type RerankPools } from '../search/rerank.ts';
import { LocalRepoSearch, type RepoSearch } from './repo-search.ts';
import type { CallContext } from './host.ts';
import type { HciService } from './service.ts';
import { errorFields, tidyHint } from './views.ts';
import type { VerbInput, VerbName, VerbOutput } from './verbs.ts';

/** What a surface needs of the service it serves (HciService, Federation). */
export type VerbService = Pick<HciService, 'root' | 'watcherPlan' | 'call' | 'failure' | 'freshness' | 'start' | 'close'>;

export interface FederationMember {
  /** The repository's name in answers (`repo`) and in qualified paths and hit ids. */
  repo: string;
  service: HciService;
  /** Its part of a merged search when it runs elsewhere (a worker thread: RepoSearchPool); default on this thread, over `service`. */
  search?: RepoSearch;
}

export interface FederationOptions {
  /** Re-weigh keyword scores with the statistics of every index (default true; false: each index's own, for measuring). */
  mergeStats?: boolean;
  /**
   * The keyword candidate pool split across the repositories, in pools of one index of their union
   * (default SHARED_POOL; 0: a whole pool for each repository, as before the split).
   */
  sharedPool?: number;
  /**
   * Rerank's text-level signals (rerank.ts: the best 40 candidates of a pass, 80 for coverage) split
   * across the repositories as one index of their union gives them, in union pools (default
   * SHARED_RERANK; 0: every repository's own pools). Applies where the keyword pool is split.
   */
  sharedRerank?: number;
}

/**
 * The pool split across the repositories, in union pools: twice the union's, so a chunk near the cut
 * (scored a hair apart by the separate indexes) still reaches its repository's pipeline.
 */
export const SHARED_POOL = 2;

/**
 * The text-signal pools split across the repositories, in union pools: the union's own (merged /
 * union R@5 at least 1.0 on the ten sets of bench/results/federation-10-neutral-fed15.md; before,
 * every repository gave them to its best 40 / 80: up to ten times the union's).
 */
export const SHARED_RERANK = 1;

/**
 * Each list's share of the union's text-signal pools at `times` their size (per pool, how many of
 * its scores are among the best of all the lists; undefined where every candidate of all the lists
 * is within the pool: each keeps its own).
 */
function rerankShares(lists: ReadonlyArray<readonly number[]>, times: number): Array<RerankPools | undefined> {
  const all = lists.reduce((n, l) => n + l.length, 0);
  const cut = (size: number) => (all > Math.round(size * times) ? poolShares(lists, Math.round(size * times)) : null);
  const text = cut(UNION_RERANK_POOLS.text);
  const coverage = cut(UNION_RERANK_POOLS.coverage);
  return lists.map((_, i) => (text || coverage ? { ...(text ? { text: text[i] } : {}), ...(coverage ? { coverage: coverage[i] } : {}) } : undefined));
}

/**
 * A repository's first `want` hits: its first page, then its next pages by their cursors (each of at
 * most a page's maximum) until it has them or has no more; `next_cursor` is set when more remain.
 */
async function firstHits(search: (req: SearchRequest) => Promise<SearchAnswer>, ask: SearchRequest, want: number): Promise<SearchAnswer> {
  const first = await search(ask);
  const hits = [...first.hits];
  let cursor = first.next_cursor;
  while (cursor !== undefined && hits.length < want) {
    const next = await search({ ...ask, cursor, limit: Math.min(want - hits.length, SEARCH_LIMIT.max) });
    if (next.status === 'error' || next.status === 'no_index') break;
    hits.push(...next.hits);
    cursor = next.next_cursor;
  }
  return { ...first, hits, next_cursor: cursor };
}

/** The name of a repository from its folder or URL: the last path segment (a packed file's without its extension). */
export function repoName(root: string): string {
  const seg = root.replace(/[?#].*$/, '').replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  return (/^https?:/i.test(root) ? seg.replace(/\.[a-z0-9]+$/i, '') : seg) || 'repo';
}

/** Names for roots, each its repoName, made distinct (`api`, `api-2`) and never containing a slash. */
export function repoNames(roots: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return roots.map((r) => {
    const base = repoName(r);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/** The request fields a verb may name a path or hit in, qualified with its repository in a federation. */
const QUALIFIED = ['hit_id', 'path', 'folder', 'file'] as const;

/** Verbs that name no path: asked of every repository (status, reindex, watch). */
const EVERY: ReadonlySet<VerbName> = new Set<VerbName>(['status', 'reindex', 'watch']);

const MATCH_ORDER: readonly MatchKind[] = ['all', 'all_then_any', 'any', 'similar', 'none'];

export class Federation implements VerbService {
  readonly root: string;
  private readonly byName: Map<string, FederationMember>;
  /** Each repository's part of a search (its statistics kept between searches). */
  private readonly parts = new Map<string, RepoSearch>();

  constructor(
    readonly members: readonly FederationMember[],
    private readonly opts: FederationOptions = {},
  ) {
    if (members.length === 0) throw new HciError('usage', 'a search over several repositories needs at least one', 'pass --root or --index once per repository');
    this.byName = new Map(members.map((m) => [m.repo, m]));
    for (const m of members) this.parts.set(m.repo, m.search ?? new LocalRepoSearch(m.service));
    this.root = members.map((m) => `${m.repo} (${m.service.root})`).join(', ');
  }

  get watcherPlan(): VerbService['watcherPlan'] {
    return this.members[0].service.watcherPlan;
  }

  async start(): Promise<void> {
    for (const m of this.members) await m.service.start();
  }

  async close(): Promise<void> {
    await Promise.all([...this.members.map((m) => m.service.close()), ...[...this.parts.values()].map((p) => p.close?.())]);
  }

  freshness(): Promise<IndexFreshness | null> {
    return this.members[0].service.freshness();
  }

  failure<V extends VerbName>(verb: V, f: { error: ErrorInfo; hint?: string }, req: unknown, t0 = Date.now()): Promise<VerbOutput<V>> {
    return this.members[0].service.failure(verb, f, req, t0);
  }

  /** Answers one verb: search over every repository, the others in the repository their path or hit id names. */
  async call<V extends VerbName>(verb: V, req: VerbInput<V>, ctx: CallContext = {}): Promise<VerbOutput<V>> {
    const t0 = Date.now();
    try {
      if (verb === 'search') return (await this.search(req as VerbInput<'search'>, ctx)) as VerbOutput<V>;
      return await this.routed(verb, req, ctx);
    } catch (e) {
      return this.failure(verb, errorFields(e, this.members[0].service.surface), req, t0);
    }
  }

  /** A verb for one repository: the one its qualified path or hit id names (`<repo>/…`), that name taken off. */
  private async routed<V extends VerbName>(verb: V, req: VerbInput<V>, ctx: CallContext): Promise<VerbOutput<V>> {
    const fields = req as Record<string, unknown>;
    for (const key of QUALIFIED) {
      const v = fields[key];
      if (typeof v !== 'string') continue;
      const slash = v.indexOf('/');
      const m = slash > 0 ? this.byName.get(v.slice(0, slash)) : undefined;
      if (!m) continue;
      const out = await m.service.call(verb, { ...req, [key]: v.slice(slash + 1) }, ctx);
      const o = out as Record<string, unknown>;
      if (typeof o[key] === 'string') o[key] = `${m.repo}/${o[key] as string}`;
      return out;
    }
    if (this.members.length === 1) return this.members[0].service.call(verb, req, ctx);
    if (EVERY.has(verb)) {
      // Asked of every repository: the first one's answer, the others' in its hint.
      const outs: Array<VerbOutput<V>> = [];
      for (const m of this.members) outs.push(await m.service.call(verb, req, ctx));
      const others = outs.slice(1).map((o, i) => `${this.members[i + 1].repo}: ${o.status}${o.index ? `, ${o.index.files} files, index gen ${o.index.generation}` : ''}${o.error ? ` (${o.error.code})` : ''}`);
      const first = outs[0];
      first.hint = [`this answer is ${this.members[0].repo}'s; ${others.join('; ')}`, first.hint].filter(Boolean).join('; ');
      return first;
    }
    const names = this.members.map((m) => m.repo).join(', ');
    throw new HciError('invalid_request', `this server searches ${this.members.length} repositories (${names}): name one in the ${verb} call`,
      `qualify the path or hit id with its repository, as search answers them: <repo>/<path> (repositories: ${names})`);
  }

  /** The merged search: every repository's first pages, scores made comparable, one list by score, one page of it. */
  async search(req: SearchRequest, ctx: CallContext = {}): Promise<SearchAnswer> {
    const t0 = Date.now();
    const limit = req.limit ?? SEARCH_LIMIT.default;
    const offset = decodeCursor(req.cursor);
    const unknown = (req.repos ?? []).filter((r) => !this.byName.has(r));
    if (unknown.length) {
      throw new HciError('invalid_request', `no repository named ${unknown.map((r) => `"${r}"`).join(', ')} in this search`, `the repositories are ${this.members.map((m) => m.repo).join(', ')}`);
    }
    const members = req.repos?.length ? this.members.filter((m) => req.repos!.includes(m.repo)) : this.members;
    // Each repository's first offset + limit hits of its one ranked list (core/search/depth.ts: the
    // same list whatever the page), fetched a page's maximum at a time: the merged page is among them.
    const want = offset + limit;
    const ask: SearchRequest = { ...req, repos: undefined, cursor: undefined, limit: Math.min(want, SEARCH_LIMIT.max), max_tokens: undefined };
    const keywordStats = this.opts.mergeStats === false ? undefined : await this.keywordStats(members, req);
    const shared = this.opts.sharedPool ?? SHARED_POOL;
    const shares = keywordStats?.split && shared > 0 ? await this.poolShares(members, ask, keywordStats, shared) : null;
    // Every repository at once: in parallel where its part runs on a thread of its own — each ranks
    // with its hits unrendered (ids, scores, keys), and renders afterwards only those the merged page keeps.
    const ranked = await Promise.all(members.map(async (m, i) => {
      const own = keywordStats?.own[i];
      const share = shares?.[i];
      const c = keywordStats && own ? { ...ctx, keywordStats: { all: keywordStats.all, own, ...(share ? { share } : {}) } } : ctx;
      const part = this.parts.get(m.repo)!;
      // Each page it answered: its render handle (null: its hits came rendered) and how many hits it gave the list.
      const pages: Array<{ page: number | null; n: number }> = [];
      const run = part.rank && part.render
        ? async (r: SearchRequest) => {
          const { answer, page } = await part.rank!(r, c);
          pages.push({ page: answer.status === 'error' || answer.status === 'no_index' ? null : page, n: answer.hits.length });
          return answer;
        }
        : (r: SearchRequest) => part.search(r, c);
      const a = await firstHits(run, ask, want);
      // A part on another thread never builds an index: a repository without one is its service's to answer (which may start the build).
      if (m.search && a.status === 'no_index') return { answer: await m.service.call('search', ask, c), pages: [], c };
      return { answer: a, pages, c };
    }));
    const answers = ranked.map((r) => r.answer);
    const merged: Array<{ i: number; k: number; score: number; at: number }> = [];
    answers.forEach((a, i) => a.hits.forEach((h, k) => merged.push({ i, k, score: h.score, at: merged.length })));
    merged.sort((a, b) => b.score - a.score || a.at - b.at);
    const kept = merged.slice(offset, offset + limit);
    const rendered = await this.renderKept(members, ranked, kept, ask, want);
    const page = kept.map((x, n) => {
      const h = rendered[n];
      return { ...h, repo: members[x.i].repo, hit_id: `${members[x.i].repo}/${h.hit_id}`, rank: offset + n + 1 };
    });
    const more = merged.length > offset + limit || answers.some((a) => a.next_cursor !== undefined);
    const ok = answers.filter((a) => a.status !== 'error' && a.status !== 'no_index');
    const failed = answers.find((a) => a.status === 'error' || a.status === 'no_index');
    if (ok.length === 0 && failed) return { ...failed, hint: [failed.hint, `repositories: ${members.map((m) => m.repo).join(', ')}`].filter(Boolean).join('; ') };
    const skipped: Record<string, number> = {};
    for (const a of answers) for (const [k, n] of Object.entries(a.skipped)) skipped[k] = (skipped[k] ?? 0) + n;
    const matches = ok.filter((a) => a.hits.length).map((a) => a.match);
    const match: MatchKind = matches.length === 0 ? 'none' : matches.every((x) => x === matches[0]) ? matches[0]
      : matches.some((x) => x === 'all' || x === 'all_then_any') ? 'all_then_any' : MATCH_ORDER.find((x) => matches.includes(x))!;
    const hints = answers.map((a, i) => (a.hint ? `${members[i].repo}: ${a.hint}` : '')).filter(Boolean);
    const out: SearchAnswer = {
      contract_version: CONTRACT_VERSION,
      status: page.length ? 'ok' : answers.some((a) => a.status === 'indexing') ? 'indexing' : 'empty',
      query: req.query,
      mode: ok[0]?.mode ?? req.mode ?? 'keyword',
      match,
      hits: page,
      took_ms: 0,
      skipped,
      truncated: false,
      index: ok[0]?.index ?? null,
      repos: answers.map((a, i) => ({
        repo: members[i].repo, root: members[i].service.root, status: a.status, hits: a.hits.length, index: a.index,
        ...(a.error ? { error: a.error } : {}),
      })),
      ...(hints.length ? { hint: hints.join('; ') } : {}),
    };
    if (more) out.next_cursor = encodeCursor(offset + limit);
    if (req.max_tokens !== undefined) {
      const { kept, truncated } = fitTokenBudget(out.hits, req.max_tokens, estimateTokens({ ...out, hits: [] }));
      if (truncated) {
        out.hits = kept;
        out.truncated = true;
        out.next_cursor = encodeCursor(offset + kept.length);
      }
    }
    out.took_ms = Date.now() - t0;
    return tidyHint(out);
  }

  /**
   * The merged page's hits rendered (in its order): each repository renders those of its pages
   * (the positions in each page), all repositories at once; hits that came rendered stay as they
   * are. A page its part can no longer render (the index changed since) is searched again,
   * rendered, and its hits taken by id.
   */
  private async renderKept(members: readonly FederationMember[], ranked: ReadonlyArray<{ answer: SearchAnswer; pages: ReadonlyArray<{ page: number | null; n: number }>; c: CallContext }>,
    kept: ReadonlyArray<{ i: number; k: number }>, ask: SearchRequest, want: number): Promise<SearchHit[]> {
    const out: SearchHit[] = kept.map((x) => ranked[x.i].answer.hits[x.k]);
    // Per repository and page: the positions in the page, and where each goes in the merged page.
    const asks = new Map<string, { i: number; page: number; at: number[]; to: number[] }>();
    kept.forEach((x, n) => {
      let k = x.k;
      for (const p of ranked[x.i].pages) {
        if (k >= p.n) {
          k -= p.n;
          continue;
        }
        if (p.page === null) return;
        const key = `${x.i}:${p.page}`;
        const a = asks.get(key) ?? { i: x.i, page: p.page, at: [], to: [] };
        a.at.push(k);
        a.to.push(n);
        asks.set(key, a);
        return;
      }
    });
    const again = new Map<number, Promise<SearchAnswer>>();
    await Promise.all([...asks.values()].map(async (a) => {
      const part = this.parts.get(members[a.i].repo)!;
      let hits = await part.render!(a.page, a.at);
      if (!hits) {
        if (!again.has(a.i)) again.set(a.i, firstHits((r) => part.search(r, ranked[a.i].c), ask, want));
        const byId = new Map((await again.get(a.i)!).hits.map((h) => [h.hit_id, h]));
        hits = a.to.map((n) => byId.get(out[n].hit_id) ?? out[n]);
      }
      a.to.forEach((n, j) => { out[n] = hits![j]; });
    }));
    return out;
  }

  /**
   * Each repository's share of one keyword candidate pool (null where it runs a whole pool of its
   * own): the union's first pass at the first depth keeps its best `pool` chunks, so each repository
   * keeps those of its own first-pass chunks among the best `shared` × `pool` of all of them, by the
   * scores one index of the union gives (the statistics of them all), and the same for the any-term
   * widening — its declarations and rerank then work on its part of one pool instead of a pool of its own;
   * and of rerank's text-level signals (the best 40 candidates of a pass, 80 for coverage: rerank.ts) its
   * candidates among the union's best `sharedRerank` × 40 / 80, per pass and for both passes together.
   */
  private async poolShares(members: readonly FederationMember[], ask: SearchRequest, stats: { all: CorpusStats; own: Array<CorpusStats | undefined>; split?: { cap: number } }, shared: number): Promise<Array<PoolShare | undefined> | null> {
    const passes = await Promise.all(members.map((m, i) => {
      const own = stats.own[i];
      const part = this.parts.get(m.repo)!;
      return own && part.firstPass ? part.firstPass(ask, { all: stats.all, own }) : Promise.resolve(null);
    }));
    const found = passes.filter((p): p is FirstPass => p !== null);
    if (!found.length || found.some((p) => p.pool !== found[0].pool)) return null;
    const pool = found[0].pool;
    const first = poolShares(found.map((p) => p.first), Math.round(pool * shared));
    const widening = found.filter((p) => p.wider !== null);
    const wider = poolShares(widening.map((p) => p.wider!), Math.round(pool * shared));
    // Rerank's text-level signals as one index of the union spreads them: over its best candidates of each pass.
    const times = this.opts.sharedRerank ?? SHARED_RERANK;
    const firstText = times > 0 ? rerankShares(found.map((p) => p.first), times) : [];
    const widerText = times > 0 ? rerankShares(widening.map((p) => p.wider!), times) : [];
    // (partial_matches = "by_score": both passes ranked together, by their scores.)
    const bothText = times > 0 ? rerankShares(found.map((p) => [...p.first, ...(p.wider ?? [])].sort((a, b) => b - a)), times) : [];
    return passes.map((p) => {
      if (p === null) return undefined;
      const at = found.indexOf(p);
      const texts = { first: firstText[at], ...(p.wider !== null ? { wider: widerText[widening.indexOf(p)] } : {}), both: bothText[at] };
      return {
        pool,
        cap: stats.split!.cap,
        first: first[at],
        ...(p.wider !== null ? { wider: wider[widening.indexOf(p)] } : {}),
        ...(texts.first || texts.wider || texts.both ? { rerank: texts } : {}),
      };
    });
  }

  /**
   * The keyword statistics of every repository's index for the query's phrases and clauses, added up (null: the
   * query has no keyword part). The query is parsed once, with the settings of the first repository
   * whose workspace opens (the phrases must be the same in every index for their counts to add up).
   * A repository without an index adds nothing. Without a path filter (the counts are of every
   * chunk), also how many complete matches each index's first pass keeps at its head: each part then
   * widens only when one index of the union would (channels/fts-global.ts).
   */
  private async keywordStats(members: readonly FederationMember[], req: SearchRequest): Promise<{ all: CorpusStats; own: Array<CorpusStats | undefined>; split?: { cap: number } } | undefined> {
    let phrases: string[] | null = null;
    let heads: HeadsAsk | undefined;
    // A keyword search without a path filter or text patterns: one candidate pool split across the repositories (poolShares).
    let split: { cap: number } | undefined;
    for (const m of members) {
      try {
        // The phrases BM25 weighs, and the clauses the keyword channel's widening judges common or not (fts.ts).
        const settings = (await m.service.workspace()).settings;
        const parsed = parseRequest(settings, { ...req, repos: undefined });
        const clauses = clauseExprs(parsed);
        phrases = [...new Set([...queryPhrases(parsed), ...clauses])];
        const complete = ftsExpression(parsed, 'all');
        if (complete && clauses.length >= 2 && !pathFiltered(req, parsed)) heads = { exprs: [complete], cap: settings.max_hits_per_file, clauses };
        if (keywordFirstPassOnly(req, parsed)) split = { cap: settings.max_hits_per_file };
        break;
      } catch {
        // No workspace here, or a query that does not parse: its own answer says so.
      }
    }
    if (!phrases?.length) return undefined;
    const own = (await Promise.all(members.map((m) => this.parts.get(m.repo)!.stats(phrases!, heads)))).map((s) => s ?? undefined);
    const found = own.filter((s): s is CorpusStats => s !== undefined);
    return found.length ? { all: mergeStats(found), own, ...(split ? { split } : {}) } : undefined;
  }
}
