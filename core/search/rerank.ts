// Rerank: orders fused candidates by their fused score times named factors — text signals on the
// best few (the query verbatim, a definition of a query identifier; boosts.ts; the share of the
// query's words their file holds, file-evidence.ts), the path role's
// factor (tests, demos, docs, generated and build files; roles.ts; docs again in a query stated, not
// asked: stated_docs_factor), style chunks for a question about
// how something looks (appearance.ts), files in a commit-style query's
// `Scope:` (scope.ts), member lists and short chunks in a question, exact symbol and file names, a file's several matching chunks
// (file-evidence.ts), declarations of the query's names (declarations.ts), dead code (dead-code.ts) —
// each factor raised to its exponent of setting factor_weights by query row (off by default; learned
// offline by bench/rerank-fit.ts), then lists distinct files first across the passes of one search (file-tiers.ts). Every factor is
// named, so explain can show it. Owns the factors and their order; finding
// and fusing candidates is done before, paging after. A debug hook (observeRerank) hands each pass's
// scored candidates, before the file tiers, to an offline replay (bench/rerank-dump.ts).
import { languageById } from '../languages/table.ts';
import type { Settings } from '../settings.ts';
import type { FactorWeights } from '../settings-defaults.ts';
import { baseName, nameStem } from '../scan/languages.ts';
import { splitIdentifier } from '../text/analyzer.ts';
import { definitionTargets, textSignals } from './boosts.ts';
import { conventionalPairs, viewModelNames } from './pairs.ts';
import { hasViews, isUiQuestion, routeOrTitleMatches, uiTopicWords, viewFacts, type ViewFacts } from './ui.ts';
import { inScope, queryScope } from './scope.ts';
import { coverageWords, fileChunkFactors, fileCoverage } from './file-evidence.ts';
import { ownEvidenceFactors } from './own-evidence.ts';
import { nearWords, proximityFactor } from './proximity.ts';
import { loadBodies, lowerBody, type Candidate } from './candidates.ts';
import { newFileCounts, tierByFile, type FileTierOptions } from './file-tiers.ts';
import { queryTerms, type ParsedQuery } from './query.ts';
import type { SearchSession } from './session.ts';
import { resolveRole, roleFactor, rolesNamedBy, ROLE_SETTING } from './roles.ts';
import { asksHow, bareWord, identifierWords, isStated, queryType, type QueryType } from './query-type.ts';
import type { Declaration } from './declarations.ts';
import { deadShare } from './dead-code.ts';
import { deadLinesOf } from './file-facts.ts';
import { appearanceWords, isStyleChunk } from './appearance.ts';
import type { Role, RoleVerdict } from '../scan/roles.ts';
import { asksForChangeLog, isChangeLog } from './change-log.ts';
import type { Variant } from './variants.ts';

/**
 * Chunk symbols that name what is used, not what is declared: a markup element's tag (`<MudMenu>`
 * in a page uses the MudMenu component) and XAML controls and layouts named after their tag.
 */
/**
 * A file whose name holds a query identifier with more around it (`TextBoxStyles.axaml` for
 * "TextBox", `FAContentDialog.cs` for "ContentDialog"): 1 + NAME_PART × the share of the name's parts
 * the identifier covers. A whole-name match is file_name_match (1.25).
 */
const NAME_PART = 0.5;
const USAGE_KINDS = new Set(['element', 'control', 'layout']);

/**
 * The power of question_short_lines's factor: a 3-line chunk weighs 0.56 of the floor 30's, a 15-line
 * one 0.84 (13 probe sets: bench/results/rank-variants-rank8-asks.md; powers 0.5 and 0.15, and the
 * floor on every question, in bench/results/rank-variants-rank8-short.md).
 */
const SHORT_POWER = 0.25;

/** The factor that puts partial matches after complete ones (pipeline.ts applies it). */
export const AFTER_COMPLETE = 'after_complete_matches';

/** How many of the best fused candidates get the (costlier) text-level signals. */
const TEXT_SIGNAL_POOL = 40;

/**
 * How many of them coverage reads (file-evidence.ts; their bodies are loaded only for a query it
 * applies to): a file's second chunk, or the style file behind a class's many members, is often past
 * the 40th (issue 12, dev set pooled R@5 / MRR@10: coverage alone over the best 40 0.769 / 0.695,
 * over 80 0.785 / 0.698; with file_chunks over 60 0.778 / 0.704, over 80 0.784 / 0.703).
 */
const COVERAGE_POOL = 80;

/**
 * How far one pass's text-level signals reach when fewer than TEXT_SIGNAL_POOL / COVERAGE_POOL of its
 * candidates are among the best of a search over several indexes (core/service/federation.ts: one
 * index of their union gives its text-level signals to its best 40 / 80 over all of them, so each
 * index to its share of those); absent: the pools above.
 */
export interface RerankPools {
  /** At most this many of the pass's best get the text signals (TEXT_SIGNAL_POOL's share). */
  text?: number;
  /** At most this many are read for coverage and own evidence (COVERAGE_POOL's share). */
  coverage?: number;
}

/** The text-signal pools a search over several indexes sets for the complete and the partial pass (SearchSession.duringRun key, channels/fts-global.ts). */
export const RERANK_POOLS = 'rerank-pools';
export interface PassPools {
  /** The complete pass's (partial_matches = "after_complete"). */
  first?: RerankPools;
  /** The partial pass's ("after_complete"). */
  wider?: RerankPools;
  /** Both passes ranked together ("by_score"). */
  both?: RerankPools;
}

/** The text-signal and coverage pool sizes of a pass given its share (none: the whole pools). */
function poolSizes(pools?: RerankPools): { text: number; coverage: number } {
  return { text: Math.min(TEXT_SIGNAL_POOL, pools?.text ?? TEXT_SIGNAL_POOL), coverage: Math.min(COVERAGE_POOL, pools?.coverage ?? COVERAGE_POOL) };
}

/** The union's text-signal pools, in candidates: what a search over several indexes splits (federation.ts). */
export const UNION_RERANK_POOLS = { text: TEXT_SIGNAL_POOL, coverage: COVERAGE_POOL } as const;

/**
 * A declaration's tier, as a share of the raise (applyDeclarations): a type (or a function, or a
 * Razor component) over a member; a file named after it and nothing more (`X.cs`, `X.razor.cs`) over
 * one named after it with more (`X.properties.cs`, `X.TResult.cs`), over any other; the exact name
 * over the name up to a repository affix, and one that keeps a capitalized query's case over a
 * lower-case prefix's function about it (affixCase); the number of type parameters written (`Outcome<TResult>`)
 * over another; a class over an interface or type alias of the same name (TypeScript's declaration
 * merging: `interface Cheerio<T>` beside `abstract class Cheerio<T>` adds methods to the class);
 * code over a `.d.ts` file's typings of it (handlebars' `types/index.d.ts` declares `registerPartial`
 * as a function where `base.js` implements it as a method: `ambient` must weigh below a member in
 * another file, 0.9 × 0.9); a name only typings declare keeps the raise.
 */
const DECLARATION_TIER = { type: 1, file: 0.95, member: 0.9, otherFile: 0.9, stemWithMore: 0.98, affix: 0.85, affixCase: 0.9, otherArity: 0.95, shape: 0.99, ambient: 0.8 } as const;

/** Declared kinds that only describe a shape (what `shape` weighs): an implementation of the same name comes first. */
const SHAPE_KINDS = new Set(['interface', 'type']);

/** The key-path separator of a language's member keys (the language table: json `A:B`, yaml `a.b`). */
function keyPathSeparator(lang: string): string | undefined {
  return languageById(lang)?.keyPathSeparator;
}

/** A config chunk's key path, by segment (null for other chunks). */
function configKeyPath(c: Candidate): string[] | null {
  const sep = keyPathSeparator(c.lang);
  return sep && c.memberKey ? c.memberKey.split(sep) : null;
}

/** The largest share of a name's parts that one query identifier's parts cover as a run (0: none; never the whole name). */
function nameShare(nameParts: readonly string[], words: readonly string[][]): number {
  let best = 0;
  for (const wp of words) {
    if (wp.length >= nameParts.length) continue;
    for (let i = 0; i + wp.length <= nameParts.length; i++) {
      if (wp.every((p, j) => nameParts[i + j] === p)) {
        best = Math.max(best, wp.length / nameParts.length);
        break;
      }
    }
  }
  return best;
}

/**
 * A declared name up to an affix that does not keep a capitalized query's case: a lower-case prefix
 * (`isFrameElement`, `useTheme` for `FrameElement`, `Theme`) makes a function about the name, where
 * the name with a capital affix (`ExcalidrawFrameElement`) is the thing itself.
 */
const affixLowersCase = (d: Declaration): boolean => d.affix !== null && /^\p{Lu}/u.test(d.query) && /^\p{Ll}/u.test(d.name);

/** A declaration's share of the raise (DECLARATION_TIER). */
export function declarationTier(d: Declaration): number {
  const t = DECLARATION_TIER;
  return t[d.level] * (d.stemExact ? 1 : d.stem ? t.stemWithMore : t.otherFile) * (d.affix ? t.affix : 1) * (affixLowersCase(d) ? t.affixCase : 1) * (d.arityMismatch ? t.otherArity : 1) * (SHAPE_KINDS.has(d.kind) ? t.shape : 1) * (d.ambient ? t.ambient : 1);
}

/** One pass as rerank scored it, before the file tiers (observeRerank). Factors are copied by the observer or lost: the tiers add theirs. */
export interface RerankTrace {
  reranker: Reranker;
  cands: readonly Candidate[];
  options: FileTierOptions;
}

let observer: ((t: RerankTrace) => void) | null = null;

/** Sets (null: clears) the process's rerank observer: a bench's hook, never the product's (it costs nothing when unset). */
export function observeRerank(fn: ((t: RerankTrace) => void) | null): void {
  observer = fn;
}

/** Factors set as a raise to other candidates' scores: their exponent is always 1 (factor_weights leaves them). */
const RAISES = new Set(['paired_file', 'declaration', 'canonical_variant']);

/**
 * factor_weights for one query: the row `all`, then its type's row, then `stated` for a query stated,
 * not asked (query-type.ts isStated), each over the ones before, factor by factor; exponents of 1 left out.
 */
export function factorWeights(weights: FactorWeights, type: QueryType, stated: boolean): Map<string, number> {
  const m = new Map<string, number>();
  for (const row of ['all', type, ...(stated ? ['stated' as const] : [])] as const) for (const [name, w] of Object.entries(weights[row] ?? {})) m.set(name, w);
  for (const [name, w] of m) if (w === 1 || RAISES.has(name)) m.delete(name);
  return m;
}

/** Ranks the passes of one search; a file's chunks are counted across them (file-tiers.ts). */
export class Reranker {
  private readonly perFile = newFileCounts();
  private readonly targets: string[];
  private readonly words: string[];
  private readonly wordParts: string[][];
  private readonly patterns = new Map<string, RegExp[]>();
  private readonly roles: Map<number, RoleVerdict>;
  /** Each file's name facts (fileName), the session's for this index generation. */
  private readonly names: Map<number, { stem: string; parts: string[] }>;
  private readonly views = new Map<number, ViewFacts | null>();
  /** The topic words of a UI question (null: not one). */
  private readonly ui: string[] | null;
  private readonly named: ReadonlySet<Role>;
  /** The names of a `Scope: …` prefix (scope.ts; null: none, or its factor is 1). */
  private readonly scope: string[][] | null;
  private readonly scoped = new Map<string, boolean>();
  /** The words coverage counts (file-evidence.ts; empty: fewer than two, or coverage_boost 0). */
  private readonly coverage: string[];
  /** The query asks how something looks (appearance.ts): style chunks weigh style_query_boost. */
  private readonly appearance: boolean;
  /** The query's words and identifier parts (lowercase, 3+ letters): the lines dead-code looks at. */
  private readonly termWords: string[];
  /** symbol / question / mixed (query-type.ts): how much a declaration of a query identifier weighs. */
  readonly type: QueryType;
  /** The query names whose declarations rank first (declarations.ts finds them; empty: none, or declaration_boost 0). */
  readonly declarationNames: string[];
  /** exact_symbol_name's factor: 1.5 in a symbol query, 1 + 0.5 × question_identifier_share in the others. */
  private readonly nameFactor: number;
  /** Declarations by chunk (the best tier when a chunk declares several names). */
  private readonly declarations = new Map<number, Declaration>();
  /** A question put as one (query-type.ts asksHow) with question_short_lines on: short chunks weigh less. */
  private readonly asking: boolean;
  /** change_log_factor, or 1 when off or the query asks for change logs (change-log.ts). */
  private readonly changeLog: number;
  /** stated_docs_factor for a query stated, not asked (query-type.ts isStated), else 1. */
  private readonly statedDocs: number;
  /** This query's exponents of factor_weights (factorWeights; empty: off). */
  private readonly weights: Map<string, number>;

  constructor(
    private readonly session: SearchSession,
    private readonly settings: Settings,
    private readonly q: ParsedQuery,
  ) {
    this.targets = definitionTargets(q);
    // Compounds count as words for names: "settings page" names SettingsPage.axaml (expand.ts).
    this.words = [...q.clauses.filter((x) => x.kind === 'word').map((x) => x.token), ...(q.compounds ?? []).map((c) => c.token)];
    this.named = rolesNamedBy(q);
    // Identifiers of 4+ letters, by part: a name part of `TextBoxStyles` is matched by "TextBox", not by "box".
    this.wordParts = q.clauses.filter((x) => x.kind === 'word').map((x) => (x.parts.length ? x.parts : [x.token])).filter((p) => p.join('').length >= 4);
    this.roles = session.cached('roles', () => new Map<number, RoleVerdict>());
    this.names = session.cached('file-names', () => new Map<number, { stem: string; parts: string[] }>());
    this.ui = isUiQuestion(q) ? uiTopicWords(q) : null;
    this.scope = settings.scope_match_boost !== 1 ? queryScope(q.raw) : null;
    this.coverage = settings.coverage_boost > 0 ? coverageWords(q) : [];
    this.type = queryType(q);
    this.appearance = settings.style_query_boost !== 1 && appearanceWords(q).length > 0;
    const terms = queryTerms(q);
    this.termWords = [...terms.words, ...terms.parts].filter((t) => t.length >= 3);
    const ids = identifierWords(q);
    // A one-word query names what it is looking for even in lower case (`tariff`, `align`), and
    // with three letters when it starts with a capital, as a type or member is named (`App`, `Num`).
    // (With its type parameters as written: `Outcome<TResult>`.)
    const word = q.written.length === 1 ? bareWord(q.written[0]) : '';
    const single = this.type === 'symbol' && /^(?:[\p{L}_][\p{L}\p{N}_]{3,}|\p{Lu}\p{Ll}[\p{L}\p{N}_])(?:<.+>)?$/u.test(word) ? [word] : [];
    this.declarationNames = settings.declaration_boost > 0 && !q.text && this.type === 'symbol' ? [...new Set([...ids, ...single])] : [];
    // Identifiers embedded in a question or a mixed query get a smaller share of the name boost.
    this.nameFactor = 1 + 0.5 * (this.type === 'symbol' ? 1 : settings.question_identifier_share);
    this.changeLog = asksForChangeLog(q) ? 1 : settings.change_log_factor;
    this.asking = settings.question_short_lines > 0 && this.type === 'question' && asksHow(q);
    // (A subject that begins "Document …" is a docs change.)
    const stated = isStated(q);
    this.statedDocs = stated && !/^\s*document/i.test(q.raw) ? settings.stated_docs_factor : 1;
    this.weights = factorWeights(settings.factor_weights, this.type, stated);
  }

  /** The declarations of the query's names (declarations.ts), for the candidates that hold them. */
  declare(decls: readonly Declaration[]): void {
    for (const d of decls) {
      const had = this.declarations.get(d.chunkId);
      if (!had || declarationTier(d) > declarationTier(had)) this.declarations.set(d.chunkId, d);
    }
  }

  /**
   * Scores one pass's candidates (given in fused order) and orders them distinct files first
   * (file-tiers.ts: nothing is dropped). Call rank once per pass, in order: a file's chunks are
   * counted across the passes. `pools`: how far its text-level signals reach when a search over
   * several indexes gives this pass a share of them (default TEXT_SIGNAL_POOL / COVERAGE_POOL).
   */
  rank(cands: Candidate[], pools?: RerankPools): Candidate[] {
    this.applyTextSignals(cands, pools);
    for (const c of cands) this.applyFactors(c);
    this.applyOwnEvidence(cands, pools);
    this.applyPairing(cands);
    this.applyFileChunks(cands);
    this.applyWeights(cands);
    // Last: a declaration's raise is to a share of the final best score, so its tier decides.
    this.applyDeclarations(cands);
    const groups = this.applyVariants(cands);
    const groupOf = groups ? (c: Candidate) => groups.get(c.path)?.key : undefined;
    const options: FileTierOptions = { maxHitsPerFile: this.settings.max_hits_per_file, sameFileFactor: this.settings.same_file_factor, collapseCopies: this.settings.collapse_copies, groupOf };
    observer?.({ reranker: this, cands, options });
    return tierByFile(cands, options, this.perFile);
  }

  /**
   * Setting factor_weights: each factor this query's rows weigh becomes factor^w (its entry keeps the
   * exponent, `weight`, for explain) and the score is the fused score times the factors again. Before
   * the declarations, whose raise is to a share of the best score as weighed.
   */
  private applyWeights(cands: Candidate[]): void {
    if (!this.weights.size) return;
    for (const c of cands) {
      let changed = false;
      for (const f of c.factors) {
        const w = this.weights.get(f.name);
        if (w === undefined) continue;
        f.factor = Math.pow(f.factor, w);
        f.weight = w;
        changed = true;
      }
      if (changed) c.score = c.factors.reduce((s, f) => s * f.factor, c.base);
    }
  }

  /**
   * Variants of one file (variants.ts; setting collapse_variants): the canonical variant's best chunk
   * is raised to the best score of its group (factor `canonical_variant`, never lowered), so it leads
   * the group that file-tiers.ts then lists as one file — unless the best variant holds more of the
   * query's words than it does (query_coverage: "Latvian minute agreement" names the Latvian file).
   * Returns the index's groups (null: off).
   */
  private applyVariants(cands: Candidate[]): Map<string, Variant> | null {
    if (!this.settings.collapse_variants) return null;
    const groups = this.session.variantGroups();
    if (!groups.size) return groups;
    const best = new Map<string, Candidate>();
    const lead = new Map<string, Candidate>();
    for (const c of cands) {
      const v = groups.get(c.path);
      if (!v) continue;
      const b = best.get(v.key);
      if (!b || c.score > b.score) best.set(v.key, c);
      const l = lead.get(v.key);
      if (v.canonical && (!l || c.score > l.score)) lead.set(v.key, c);
    }
    const coverage = (c: Candidate) => c.factors.find((f) => f.name === 'query_coverage')?.factor ?? 1;
    for (const [key, c] of lead) {
      const top = best.get(key)!;
      if (top.score <= c.score || coverage(c) < coverage(top)) continue;
      // (A hair above the best, so it lists first among equals.)
      const factor = (top.score * 1.000001) / c.score;
      c.factors.push({ name: 'canonical_variant', factor });
      c.score *= factor;
    }
    return groups;
  }

  /**
   * Definition-first: the chunk that declares a query name (declarations.ts) is raised to
   * declaration_boost × its tier × the best candidate's score (never lowered; factor `declaration`),
   * times its path role's factor over the best role among the declarations, so a declaration
   * outranks the usages and a test's declaration of a name the library declares stays below it.
   * Among equal tiers the declarations keep their own order. Symbol queries only (query-type.ts):
   * in a question or a mixed query the name is one part of what is asked (a raise, or a factor of
   * 1.25–1.5, lost on most repositories of the dev and broad sets).
   */
  private applyDeclarations(cands: Candidate[]): void {
    const boost = this.settings.declaration_boost;
    if (boost <= 0 || !this.declarations.size) return;
    let best = 0;
    let bestRole = 0;
    const roleOf = (c: Candidate) => (c.role ? roleFactor(c.role.role, this.settings, this.named) : 1);
    for (const c of cands) {
      if (c.score > best) best = c.score;
      if (this.declarations.has(c.chunkId)) bestRole = Math.max(bestRole, roleOf(c));
    }
    if (best <= 0 || bestRole <= 0) return;
    for (const c of cands) {
      const d = this.declarations.get(c.chunkId);
      if (!d) continue;
      // A role weighs against the other declarations' (a test's declaration of a name the library
      // declares too stays below it; a name only a test declares is the test's).
      const role = roleOf(c) / bestRole;
      const floor = best * boost * declarationTier(d) * role * (1 + 0.01 * Math.min(1, c.score / best));
      const factor = floor > c.score ? floor / c.score : 1;
      c.declaration = d;
      c.factors.push({ name: 'declaration', factor });
      c.score *= factor;
    }
  }

  /**
   * A file's chunk that holds the query's words in its own text leads its file (own-evidence.ts):
   * siblings matched by the file's shared words only (path, member key's containers) weigh no more
   * (factor `own_evidence`). Over the coverage pool (bodies loaded), before pairing and file_chunks.
   */
  private applyOwnEvidence(cands: Candidate[], pools?: RerankPools): void {
    if (!this.settings.own_evidence || !this.coverage.length) return;
    const factors = ownEvidenceFactors(cands.slice(0, poolSizes(pools).coverage), this.coverage, this.settings.own_evidence_weight, this.settings.shared_only_factor);
    for (const [c, factor] of factors) {
      c.factors.push({ name: 'own_evidence', factor });
      c.score *= factor;
    }
  }

  /**
   * A file with several matching chunks (file-evidence.ts): every chunk of it gets the same factor
   * `file_chunks`, so its own chunks keep their order. After pairing: a raised partner is one chunk.
   */
  private applyFileChunks(cands: Candidate[]): void {
    const bonus = this.settings.file_chunks_bonus;
    if (bonus <= 0) return;
    const factors = fileChunkFactors(cands, bonus);
    if (!factors.size) return;
    for (const c of cands) {
      const factor = factors.get(c.fileId);
      if (factor === undefined) continue;
      c.factors.push({ name: 'file_chunks', factor });
      c.score *= factor;
    }
  }

  /**
   * Files that belong together rank together: a view, its code-behind and its view model (pairs.ts).
   * The best chunk of each partner of a file is raised to `paired_file_share` of that file's best
   * score (never lowered), from the scores before any raise, so no chain forms.
   */
  private applyPairing(cands: Candidate[]): void {
    const share = this.settings.paired_file_share;
    if (share <= 0) return;
    const best = new Map<string, Candidate>();
    for (const c of cands) {
      const b = best.get(c.path);
      if (!b || c.score > b.score) best.set(c.path, c);
    }
    if (best.size < 2) return;
    const byStem = new Map<string, Candidate>();
    for (const [path, c] of best) {
      if (!path.endsWith('.cs')) continue;
      const stem = baseName(path).slice(0, -3).toLowerCase();
      const b = byStem.get(stem);
      if (!b || c.score > b.score) byStem.set(stem, c);
    }
    const floors = new Map<Candidate, { score: number; from: string }>();
    const raise = (to: Candidate | undefined, from: Candidate) => {
      if (!to || to === from) return;
      const floor = share * from.score;
      if (floor > to.score && floor > (floors.get(to)?.score ?? 0)) floors.set(to, { score: floor, from: from.path });
    };
    for (const [path, c] of best) {
      for (const p of conventionalPairs(path)) raise(best.get(p.path), c);
      for (const vm of viewModelNames(path)) {
        const model = byStem.get(vm);
        raise(model, c);
        if (model) raise(c, model);
      }
    }
    for (const [c, f] of floors) {
      c.factors.push({ name: 'paired_file', factor: f.score / c.score });
      c.score = f.score;
    }
  }

  /** A UI question (ui.ts): views weigh more, views whose route or title holds its words most. */
  private applyUiSignals(top: readonly Candidate[], topic: readonly string[]): void {
    for (const c of top) {
      let facts = this.views.get(c.fileId);
      if (facts === undefined) {
        const stored = hasViews(c.lang) ? this.session.files.get(c.fileId, c.hash) : undefined;
        facts = stored ? viewFacts(stored, c.lang) : null;
        this.views.set(c.fileId, facts);
      }
      if (!facts?.view) continue;
      c.factors.push({ name: 'ui_view', factor: this.settings.ui_view_boost });
      const matched = topic.length ? routeOrTitleMatches(facts, topic) : [];
      if (matched.length) c.factors.push({ name: 'ui_route_title', factor: 1 + 0.5 * (matched.length / topic.length) });
    }
  }

  private applyTextSignals(cands: Candidate[], pools?: RerankPools): void {
    const sizes = poolSizes(pools);
    const top = cands.slice(0, sizes.text);
    // Coverage reads the wider pool (which holds `top`); without it only `top` needs its bodies.
    const read = this.coverage.length ? cands.slice(0, sizes.coverage) : top;
    // Member keys only where ranking reads them (a config chunk's key path): the rest wait for the page.
    loadBodies(this.session, read, (c) => keyPathSeparator(c.lang) !== undefined);
    if (this.coverage.length) {
      // Among the best candidates only: the others keep factor 1, which a share of 0 gives too.
      const long = this.settings.coverage_long_file;
      const capped = long > 0 ? (fileId: number) => this.session.cached(`file-chunks:${fileId}`, () => Number(this.session.value('SELECT count(*) FROM chunks WHERE file_id = ?', [fileId]))) > long : undefined;
      const shares = fileCoverage(read, this.coverage, this.settings.coverage_chunks, capped);
      for (const c of read) {
        const share = shares.get(c.fileId) ?? 0;
        if (share > 0) c.factors.push({ name: 'query_coverage', factor: Math.pow(1 + this.settings.coverage_boost, share) });
      }
    }
    if (this.ui) this.applyUiSignals(top, this.ui);
    const live = this.applyDeadCode(read);
    this.applyProximity(read, live);
    for (const c of top) {
      // The definition pattern reads live lines only: `//public void Tear()` declares nothing.
      const text = live.get(c);
      const sig = textSignals(text ?? c.body ?? '', this.q.verbatim, this.targets, this.patterns, configKeyPath(c), text === undefined ? lowerBody(c) : undefined);
      if (sig.exact) c.factors.push({ name: 'exact_text', factor: 1.5 });
      if (sig.definition) c.factors.push({ name: 'definition_like', factor: 3.0 });
    }
  }

  /**
   * Term proximity (proximity.ts; setting proximity_boost, off by default): a chunk whose live text
   * holds several of the query's coverage words within proximity_lines lines of each other weighs
   * (1 + boost) ^ ((near − 1) / (words − 1)) (factor `proximity`). Over the coverage pool (bodies
   * loaded); a query of fewer than two coverage words is left alone.
   */
  private applyProximity(cands: readonly Candidate[], live: ReadonlyMap<Candidate, string>): void {
    const boost = this.settings.proximity_boost;
    if (boost <= 0 || this.coverage.length < 2) return;
    for (const c of cands) {
      const near = nearWords(live.get(c) ?? c.body ?? '', this.coverage, this.settings.proximity_lines);
      const factor = proximityFactor(near, this.coverage.length, boost);
      if (factor !== 1) c.factors.push({ name: 'proximity', factor });
    }
  }

  /**
   * Commented-out code, `#if false` blocks and generated regions (dead-code.ts) weigh below live
   * code: a chunk whose dead share is s weighs 1 − (1 − dead_code_factor) × s (factor `dead_code`).
   * Returns the live text of the chunks that hold dead lines (those lines blanked).
   */
  private applyDeadCode(cands: readonly Candidate[]): Map<Candidate, string> {
    const live = new Map<Candidate, string>();
    const f = this.settings.dead_code_factor;
    if (f >= 1) return live;
    for (const c of cands) {
      const stored = this.session.files.get(c.fileId, c.hash);
      if (!stored) continue;
      const dead = deadLinesOf(this.session, c.fileId, c.hash, stored, c.lang);
      // No dead line in the chunk (most): a share of 0 and its body as it is, without the file's lines.
      if (!dead.subarray(Math.max(0, c.startLine - 1), c.endLine).includes(1)) continue;
      const share = deadShare(dead, stored.lines, c.startLine, c.endLine, this.termWords);
      if (share > 0) c.factors.push({ name: 'dead_code', factor: 1 - (1 - f) * share });
      // (The chunk holds a dead line, as the check above found: its live text blanks those lines.)
      live.set(c, stored.lines.slice(c.startLine - 1, c.endLine).map((l, i) => (dead[c.startLine - 1 + i] ? '' : l)).join('\n'));
    }
    return live;
  }

  /**
   * A candidate's file name as the name factors read it: its stem in lower case and the parts of
   * the stem as written (the session's map for this index generation: worked out once per file, not
   * once per candidate of every query — splitting it was a twentieth of what a warm query allocated).
   */
  private fileName(c: Candidate): { stem: string; parts: string[] } {
    let name = this.names.get(c.fileId);
    if (!name) {
      // (A Sass partial's leading `_` is no part of its name: `_table.scss` is named "table".)
      const written = nameStem(c.path);
      this.names.set(c.fileId, (name = { stem: written.toLowerCase().replace(/^_+/, ''), parts: splitIdentifier(written) }));
    }
    return name;
  }

  private applyFactors(c: Candidate): void {
    const { settings, words } = this;
    let role = this.roles.get(c.fileId);
    if (!role) this.roles.set(c.fileId, (role = resolveRole(c.path, c.flags, this.session.projects())));
    // (this.roles is the session's map for this index generation: a file's role is worked out once.)
    c.role = role;
    // Every role but source shows its factor in explain, 1 included (a role the query names, or set to 1).
    if (role.role !== 'source') c.factors.push({ name: ROLE_SETTING[role.role], factor: roleFactor(role.role, settings, this.named) });
    if (this.changeLog !== 1 && isChangeLog(c.path)) c.factors.push({ name: 'change_log', factor: this.changeLog });
    // A commit subject or a paraphrase names a change to code: a docs page weighs stated_docs_factor more (unless the query names docs).
    if (this.statedDocs !== 1 && role.role === 'docs' && !this.named.has('docs')) c.factors.push({ name: 'stated_docs', factor: this.statedDocs });
    if (this.scope) {
      let hit = this.scoped.get(c.path);
      if (hit === undefined) this.scoped.set(c.path, (hit = inScope(c.path, this.scope)));
      if (hit) c.factors.push({ name: 'query_scope', factor: settings.scope_match_boost });
    }
    if (this.appearance && isStyleChunk(c)) c.factors.push({ name: 'style_query', factor: settings.style_query_boost });
    // A question asks what code does: a chunk that only lists members (fields, properties, keys: kind
    // `members`) gathers several of its words in the heavy symbol column without doing anything.
    if (this.type === 'question' && c.symbolKind === 'members' && settings.question_members_factor !== 1) c.factors.push({ name: 'question_members', factor: settings.question_members_factor });
    // A question put as one (`how are …`) asks what code does; BM25's length normalisation hands a
    // few lines that say some of its words (a property, a field, a one-line member) more than the
    // member that does it: a chunk shorter than question_short_lines weighs (lines / that)^0.25.
    const lines = c.endLine - c.startLine + 1;
    if (this.asking && lines < settings.question_short_lines) c.factors.push({ name: 'question_short', factor: Math.pow(lines / settings.question_short_lines, SHORT_POWER) });
    const name = c.symbolName?.toLowerCase();
    if (name && words.includes(name) && !USAGE_KINDS.has(c.symbolKind ?? '')) c.factors.push({ name: 'exact_symbol_name', factor: this.nameFactor });
    const { stem, parts } = this.fileName(c);
    if (stem && words.includes(stem)) c.factors.push({ name: 'file_name_match', factor: 1.25 });
    else {
      const share = nameShare(parts, this.wordParts);
      if (share > 0) c.factors.push({ name: 'file_name_part', factor: 1 + NAME_PART * share });
    }
    c.score = c.factors.reduce((s, f) => s * f.factor, c.base);
  }
}
