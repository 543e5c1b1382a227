// `npm run eval`: retrieval quality at file level. Runs a golden query set (JSONL: query, relevant
// files, kind) through hci and, in the same run, through the comparisons: a plain FTS5 index over
// 110-line windows (content only, words ORed), ripgrep-based ranking (when rg exists), Orama and
// MiniSearch over hci's own chunks, and hci's BM25 alone (no text boosts). Metrics per kind and
// overall: Recall@1/5/10, MRR@10, nDCG@10. Writes bench-results/eval-<corpus>.md and .json.
//
//   npm run eval                                          # the bundled sample workspace
//   npm run eval -- --golden my-set.jsonl --root ~/src/my-repo
//   npm run eval -- --variants                            # every set-up of every baseline (what was tried)
//   npm run eval -- --set broad --corpora DIR             # every repository of bench/golden/repos.json (bench/eval-set.ts)
//   npm run eval -- --semantic pretrained [--set broad …]   # + hci-hybrid: the index built with semantic search on, hybrid mode
//   options: --engines hci,plain,rg,orama,minisearch,hci-bm25 · --variants · --semantic PROVIDER · --semantic-settings JSON · --rg PATH · --out DIR · --record · --keep
//            --provenance TEXT (what the set is: in-sample / held-out; printed with the figures)
//            --semantic-sets sample,generated,dev | none (then bench/semantic-eval.ts: keyword / semantic / hybrid)
//            with --set: --corpora DIR · --queries DIR · --label NAME · --repo NAME (repeatable) · --compare PREVIOUS.json (see bench/eval-set.ts)
//
// Recall@k is capped: |relevant ∩ top k| / min(k, |relevant|), so a perfect ranking scores 1 at
// every k even when a query has several relevant files. MRR@10 is 1/rank of the first relevant file
// (0 beyond 10). nDCG@10 uses binary relevance. Rankings are of distinct files, in first-hit order,
// except "nDCG@10 as returned": over the first ten hits as the engine returned them (a file's second
// chunk takes a slot; bench/lib/metrics.ts), as an external benchmark measures search tools.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace } from '../runtimes/node/index.ts';
import { docsOfLine, dumpChunks, openIndex, readDumpLines } from './lib/chunks.ts';
import { readGolden, type GoldenQuery } from './lib/queries.ts';
import { copyTree, fmtNum, markdownTable, mean, now, optList, optString, parseArgs, repoRoot, sampleWorkspaceDir, slug, writeJson, runMain } from './lib/util.ts';
import { bm25Search, openWasmMemory, type SqlAdapter } from './baselines/sql-store.ts';
import { buildLineWindowIndex, findRipgrep, lineWindowSearch, PLAIN_VARIANTS, RIPGREP_VARIANTS, ripgrepRank, ripgrepVersion } from './baselines/grep-and-windows.ts';
import { createMiniSearch, createOrama, MINISEARCH_VARIANTS, ORAMA_VARIANTS, type JsEngine } from './baselines/js-engines.ts';
import { DEFAULT_VARIANT } from './baselines/variants.ts';
import { commitInfo, recordResult, type CommitInfo } from './lib/record.ts';
import { distinct, scoreQuery, TOP, type Metrics } from './lib/metrics.ts';
import { declarationAt1, shortPages, type DeclarationCheck, type HitSpan, type PageObservation, type ShortPageCheck } from './lib/page-checks.ts';
import { SEARCH_LIMIT } from '../core/contract/search.ts';
import { formatHybridCheck, hybridCheck } from './lib/hybrid-check.ts';

export const EVAL_ENGINES = ['hci', 'plain', 'rg', 'orama', 'minisearch', 'hci-bm25'] as const;

/** With --semantic PROVIDER: hci's hybrid mode on the same index (keyword + the vector channel, fused). */
export const HYBRID_ENGINE = 'hci-hybrid';

export interface EvalOptions {
  golden: string;
  root: string;
  label?: string;
  engines: string[];
  /** Run every variant of each baseline (true), or only its default, the best measured (bench/baselines/variants.ts). */
  variants: boolean;
  /** What the golden set is to hci (tuned on it, or not): printed next to every figure. */
  provenance?: string;
  record: boolean;
  rg?: string | null;
  outDir: string | null;
  keep: boolean;
  log: (line: string) => void;
  /**
   * Index with semantic search on (the `[semantic]` table: provider and any fusion setting) and add
   * the hci-hybrid engine; `hci` stays keyword mode on the same index.
   */
  semantic?: Record<string, unknown>;
}

export interface QueryOutcome {
  id: string;
  query: string;
  kind: string;
  relevant: string[];
  /** 1-based rank of each relevant file among the top 10 distinct files, or null. */
  ranks: Array<number | null>;
  top: string[];
  metrics: Omit<Metrics, 'n'>;
}

export interface EngineEval {
  engine: string;
  label: string;
  overall: Metrics;
  byKind: Record<string, Metrics>;
  queries: QueryOutcome[];
  buildMs: number;
  queryMs: number;
}

export interface EvalReport {
  corpus: { label: string; root: string; golden: string; queries: number; kinds: Record<string, number>; files: number; chunks: number };
  provenance: string;
  commit: CommitInfo;
  started: string;
  engines: EngineEval[];
  identifierAtRank1: { hit: number; total: number; misses: string[] } | null;
  /** Rows with a declaration (the broad set's symbol queries): hci's first hit on the declaring line. */
  declarations?: DeclarationCheck | null;
  /** hci's first page at the default limit against the chunks its index matches (bench/lib/page-checks.ts). */
  shortPages?: ShortPageCheck | null;
  /**
   * Whether the page an agent gets (the default limit) is the first hits of the 50-hit answer these
   * metrics are computed over (core/search/depth.ts: one ranked list per query), per mode measured.
   */
  agentPage?: Record<string, { same: number; total: number; differ: string[] }> | null;
  notes: string[];
}

function aggregate(outcomes: readonly QueryOutcome[]): Metrics {
  const avg = (f: (m: QueryOutcome['metrics']) => number) => mean(outcomes.map((o) => f(o.metrics)));
  return { n: outcomes.length, recall1: avg((m) => m.recall1), recall5: avg((m) => m.recall5), recall10: avg((m) => m.recall10), mrr10: avg((m) => m.mrr10), ndcg10: avg((m) => m.ndcg10), ndcg10Returned: avg((m) => m.ndcg10Returned) };
}

async function evaluate(
  engine: string, label: string, golden: readonly GoldenQuery[], buildMs: number, search: (q: string) => Promise<string[]> | string[],
): Promise<EngineEval> {
  const queries: QueryOutcome[] = [];
  const t0 = now();
  for (const g of golden) {
    const ranked = await search(g.query);
    const s = scoreQuery(ranked, g.relevant);
    const { ranks, ...metrics } = s;
    queries.push({ id: g.id ?? '', query: g.query, kind: g.kind, relevant: g.relevant, ranks, top: distinct(ranked).slice(0, TOP), metrics });
  }
  const queryMs = now() - t0;
  const byKind: Record<string, Metrics> = {};
  for (const k of [...new Set(golden.map((g) => g.kind))].sort()) byKind[k] = aggregate(queries.filter((q) => q.kind === k));
  return { engine, label, overall: aggregate(queries), byKind, queries, buildMs, queryMs };
}

export async function runEval(opts: Partial<EvalOptions> & { golden: string; root: string }): Promise<EvalReport> {
  const o: EvalOptions = { engines: [...EVAL_ENGINES], variants: false, record: false, rg: undefined, outDir: null, keep: false, log: () => {}, ...opts };
  const variantsOf = (engine: keyof typeof DEFAULT_VARIANT, all: Record<string, unknown>) => (o.variants ? Object.keys(all) : [DEFAULT_VARIANT[engine]]);
  const id = (engine: string, variant: string) => (o.variants ? `${engine}:${variant}` : engine);
  const golden = readGolden(o.golden);
  const src = path.resolve(o.root);
  for (const g of golden) {
    for (const r of g.relevant) {
      if (!fs.existsSync(path.join(src, r))) throw new Error(`${o.golden}: "${g.query}" lists ${r}, which does not exist under ${src}`);
    }
  }
  const label = o.label ?? slug(path.basename(src));
  const want = (e: string) => o.engines.includes(e);
  const notes: string[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-eval-'));
  const started = new Date().toISOString();
  try {
    // hci writes .hci/ into the workspace: index a copy, never the caller's tree.
    const root = path.join(work, 'corpus');
    copyTree(src, root);
    const engines: EngineEval[] = [];
    o.log(`hci: indexing ${src} (copy in ${root})…`);
    const ws = await openWorkspace(root, o.semantic ? { settings: { semantic: { enabled: true, ...o.semantic } } as never } : undefined);
    let files: string[];
    let chunks = 0;
    const firstHit = new Map<string, HitSpan | undefined>();
    const pages = new Map<string, Omit<PageObservation, 'candidates'>>();
    // The 50-hit answers' hits (path:line), per mode, to compare with the default-limit page.
    const wide: Record<string, Map<string, string[]>> = {};
    const spot = (h: { path: string; start_line: number }) => `${h.path}:${h.start_line}`;
    const agentPage: NonNullable<EvalReport['agentPage']> = {};
    try {
      const t0 = now();
      const summary = await ws.index({ full: true });
      const buildMs = now() - t0;
      chunks = summary.chunks_written;
      if (want('hci')) {
        engines.push(await evaluate('hci', 'hci (keyword: BM25 over weighted columns + boosts)', golden, buildMs, async (q) => {
          const r = await ws.search({ query: q, limit: 50 });
          if (r.status === 'error') throw new Error(`hci search "${q}" failed: ${r.error?.message}`);
          (wide.keyword ??= new Map()).set(q, r.hits.map(spot));
          const h = r.hits[0];
          firstHit.set(q, h && { path: h.path, start_line: h.start_line, end_line: h.end_line });
          return r.hits.map((h) => h.path);
        }));
        if (o.semantic) {
          const provider = String(o.semantic.provider ?? 'learned');
          engines.push(await evaluate(HYBRID_ENGINE, `hci hybrid (keyword + ${provider} vectors, fused)`, golden, 0, async (q) => {
            const r = await ws.search({ query: q, limit: 50, mode: 'hybrid' });
            if (r.status === 'error') throw new Error(`hci hybrid search "${q}" failed: ${r.error?.message}`);
            (wide.hybrid ??= new Map()).set(q, r.hits.map(spot));
            return r.hits.map((h) => h.path);
          }));
        }
        // What an agent sees first: the page at the default limit, and whether it carries a cursor.
        for (const g of golden) {
          const r = await ws.search({ query: g.query });
          pages.set(g.query, { hits: r.hits.length, limit: SEARCH_LIMIT.default, hasCursor: !!r.next_cursor });
        }
        // Is that page the first hits of the 50-hit answer measured above (per mode)?
        for (const [mode, answers] of Object.entries(wide)) {
          const a = (agentPage[mode] = { same: 0, total: 0, differ: [] as string[] });
          for (const [q, hits] of answers) {
            const page = (await ws.search({ query: q, mode: mode as 'keyword' | 'hybrid' })).hits.map(spot);
            a.total++;
            if (page.join('\n') === hits.slice(0, page.length).join('\n')) a.same++;
            else a.differ.push(q);
          }
        }
      }
    } finally {
      ws.close();
    }
    const dump = path.join(work, 'chunks.jsonl');
    const meta = await dumpChunks(root, dump);
    const { lines } = readDumpLines(dump);
    files = lines.map((l) => String((JSON.parse(l) as { file: { path: string } }).file.path));
    const unindexed = [...new Set(golden.flatMap((g) => g.relevant))].filter((r) => !files.includes(r));
    if (unindexed.length) notes.push(`relevant files hci does not index (no engine gets credit for them except rg/plain): ${unindexed.join(', ')}`);

    const pageObs = new Map<string, PageObservation>();
    if (want('hci-bm25') || pages.size) {
      const db = await openIndex(root);
      const adapter: SqlAdapter = {
        label: 'wasm', exec: (s) => void db.exec(s), prepare: () => { throw new Error('read-only'); },
        all: (s, p) => db.selectArrays(s, p as never) as unknown[][], close: () => db.close(),
      };
      try {
        if (want('hci-bm25')) engines.push(await evaluate('hci-bm25', "hci's BM25 candidates only (no boosts, no per-file cap)", golden, 0, (q) => bm25Search(adapter, q, 50)));
        for (const [q, p] of pages) pageObs.set(q, { ...p, candidates: bm25Search(adapter, q, p.limit).length });
      } finally {
        adapter.close();
      }
    }
    for (const v of want('plain') ? variantsOf('plain', PLAIN_VARIANTS) : []) {
      o.log(`plain (${v}): FTS5 over 110-line windows…`);
      const db = await openWasmMemory();
      try {
        const t0 = now();
        const idx = buildLineWindowIndex(db, root, files, v);
        const buildMs = now() - t0;
        engines.push(await evaluate(id('plain', v), `plain FTS5 (${v}): 110-line windows, content only (${idx.windows} windows)`, golden, buildMs, (q) => lineWindowSearch(db, idx.paths, q, 200, v)));
      } finally {
        db.close();
      }
    }
    if (want('rg')) {
      const rg = findRipgrep(o.rg);
      if (!rg) notes.push('ripgrep skipped: `rg` was not found (install it with `apt-get install ripgrep`, or pass --rg PATH / set HCI_BENCH_RG).');
      else {
        for (const v of variantsOf('rg', RIPGREP_VARIANTS)) {
          o.log(`rg (${v}): grep-then-rank…`);
          engines.push(await evaluate(id('rg', v), `${ripgrepVersion(rg)} (${v}): TF-IDF over per-term match counts${RIPGREP_VARIANTS[v].verbatimFirst ? ', files with the query verbatim first' : ''}`, golden, 0, (q) => ripgrepRank(rg, root, q, files.length, v)));
        }
      }
    }
    for (const e of ['orama', 'minisearch'] as const) {
      if (!want(e)) continue;
      for (const v of variantsOf(e, e === 'orama' ? ORAMA_VARIANTS : MINISEARCH_VARIANTS)) {
        o.log(`${e} (${v}): indexing the same chunks…`);
        const t0 = now();
        const engine: JsEngine = e === 'orama' ? await createOrama(meta.ftsColumns, v) : createMiniSearch(meta.ftsColumns, v);
        for (const line of lines) for (const d of docsOfLine(line, meta.ftsColumns)) await engine.add(d);
        const buildMs = now() - t0;
        engines.push(await evaluate(id(e, v), `${engine.name} over hci's chunks`, golden, buildMs, (q) => engine.search(q, 200)));
      }
    }

    const hci = engines.find((e) => e.engine === 'hci');
    const ids = hci?.queries.filter((q) => q.kind === 'identifier') ?? [];
    const report: EvalReport = {
      corpus: {
        label, root: src, golden: path.resolve(o.golden), queries: golden.length,
        kinds: Object.fromEntries([...new Set(golden.map((g) => g.kind))].sort().map((k) => [k, golden.filter((g) => g.kind === k).length])),
        files: files.length, chunks,
      },
      provenance: o.provenance ?? provenanceOf(o.golden),
      commit: commitInfo(),
      started,
      engines,
      identifierAtRank1: hci && ids.length ? { hit: ids.filter((q) => q.metrics.recall1 === 1).length, total: ids.length, misses: ids.filter((q) => q.metrics.recall1 !== 1).map((q) => q.query) } : null,
      declarations: hci ? declarationAt1(golden, firstHit) : null,
      shortPages: hci ? shortPages(golden, pageObs) : null,
      agentPage: hci ? agentPage : null,
      notes,
    };
    if (o.outDir) {
      const base = path.join(o.outDir, `eval-${label}`);
      writeJson(`${base}.json`, report);
      fs.writeFileSync(`${base}.md`, `${formatEval(report)}\n`);
    }
    if (o.record) recordResult(`eval-${label}${o.variants ? '-variants' : ''}`, report, formatEval(report));
    return report;
  } finally {
    if (!o.keep) fs.rmSync(work, { recursive: true, force: true });
  }
}

export function formatEval(r: EvalReport, opts: { misses?: boolean } = {}): string {
  const f = (x: number) => fmtNum(x, 3);
  const out: string[] = [];
  out.push(`### Retrieval quality: ${r.corpus.label} (${r.corpus.queries} golden queries, ${r.corpus.files} files, ${r.corpus.chunks} hci chunks)`);
  out.push('');
  out.push(`Set: ${r.provenance}. Measured at ${r.commit.sha ? `commit ${r.commit.sha.slice(0, 10)}${r.commit.dirty ? ' + uncommitted changes' : ''}` : 'an unknown commit'}.`);
  out.push('');
  out.push(markdownTable(
    ['engine', 'Recall@1', 'Recall@5', 'Recall@10', 'MRR@10', 'nDCG@10', 'nDCG@10 as returned'],
    r.engines.map((e) => [e.label, f(e.overall.recall1), f(e.overall.recall5), f(e.overall.recall10), f(e.overall.mrr10), f(e.overall.ndcg10), f(e.overall.ndcg10Returned)]),
  ));
  const kinds = Object.keys(r.corpus.kinds);
  out.push('');
  out.push('Recall@5 / MRR@10 by kind:');
  out.push('');
  out.push(markdownTable(
    ['kind (queries)', ...r.engines.map((e) => e.engine)],
    kinds.map((k) => [`${k} (${r.corpus.kinds[k]})`, ...r.engines.map((e) => (e.byKind[k] ? `${f(e.byKind[k].recall5)} / ${f(e.byKind[k].mrr10)}` : ''))]),
  ));
  const hc = hybridCheck(r.engines);
  if (hc) out.push('', formatHybridCheck(hc));
  if (r.identifierAtRank1) {
    const i = r.identifierAtRank1;
    out.push('');
    out.push(`Exact identifier queries with a defining file at rank 1 (hci): ${i.hit}/${i.total}${i.misses.length ? ` — misses: ${i.misses.join(', ')}` : ''}`);
  }
  if (r.declarations) {
    const d = r.declarations;
    out.push('');
    out.push(`Type-name queries with the declaration at rank 1 (hci, first hit's lines hold it): ${d.hit}/${d.total}${d.total ? ` (${f(d.hit / d.total)})` : ''}; declaring file at rank 1: ${d.fileHit}/${d.total}; member names: ${d.members.hit}/${d.members.total}` +
      (d.misses.length ? ` — misses: ${d.misses.map((m) => `${m.query} (want ${path.posix.basename(m.want)}, got ${path.posix.basename(m.got)})`).join('; ')}` : ''));
  }
  if (r.shortPages) {
    const s = r.shortPages;
    out.push('');
    out.push(`Short pages (hci, default limit ${SEARCH_LIMIT.default}: fewer hits than the limit while the index matches more chunks): ${s.short}/${s.total}; pages without a cursor while more exist: ${s.noCursor}/${s.total}` +
      (s.list.length ? ` — ${s.list.slice(0, 12).map((p) => `"${p.query}" ${p.hits} of ${p.candidates}${p.cursor ? '' : ', no cursor'}`).join('; ')}${s.list.length > 12 ? ` … (${s.list.length - 12} more)` : ''}` : ''));
  }
  if (r.agentPage && Object.keys(r.agentPage).length) {
    out.push('');
    out.push(`The page an agent gets (default limit ${SEARCH_LIMIT.default}) is the first hits of the 50-hit answer measured here: ` +
      Object.entries(r.agentPage).map(([mode, a]) => `${mode} ${a.same}/${a.total}${a.differ.length ? ` (differs: ${a.differ.slice(0, 6).map((q) => `"${q}"`).join(', ')}${a.differ.length > 6 ? ' …' : ''})` : ''}`).join('; '));
  }
  const hci = r.engines.find((e) => e.engine === 'hci');
  const misses = opts.misses === false ? [] : hci?.queries.filter((q) => q.metrics.recall5 < 1) ?? [];
  if (misses.length) {
    out.push('');
    out.push(`hci queries with a relevant file missing from the top 5 (${misses.length}):`);
    out.push('');
    out.push(markdownTable(
      ['query', 'kind', 'ranks of relevant files', 'hci top 3'],
      misses.map((q) => [q.query, q.kind, q.relevant.map((p, i) => `${path.posix.basename(p)}:${q.ranks[i] ?? '–'}`).join(' '), q.top.slice(0, 3).map((p) => path.posix.basename(p)).join(', ')]),
      ['l', 'l', 'l', 'l'],
    ));
  }
  if (r.notes.length) {
    out.push('');
    for (const n of r.notes) out.push(`- ${n}`);
  }
  return out.join('\n');
}

/** What a golden set is to hci, when the file says nothing (pass --provenance to state it). */
export function provenanceOf(golden: string): string {
  const g = path.resolve(golden);
  if (g === path.join(repoRoot(), 'bench', 'golden', 'sample-workspace.jsonl')) {
    return "IN-SAMPLE: hand-written from the sample workspace, which hci's ranking rules were developed and checked against";
  }
  if (/eval-dev/.test(g)) {
    return "public dev set on real repositories hci did not write (MudBlazor, FluentAvalonia): NOT held-out — the ranking work (issue 12) read its misses and swept settings on it, and the baselines' set-ups were chosen on it; the held-out set kept outside the project is the honest check";
  }
  return 'provenance not stated (pass --provenance "in-sample: …" or "held-out: …")';
}

/** `--semantic PROVIDER` and `--semantic-settings JSON` (more keys of the `[semantic]` table, e.g. fusion settings). */
function semanticOption(opts: ReturnType<typeof parseArgs>['opts']): Record<string, unknown> | undefined {
  const provider = optString(opts, 'semantic');
  const extra = optString(opts, 'semantic-settings');
  if (!provider && !extra) return undefined;
  return { ...(provider ? { provider } : {}), ...(extra ? (JSON.parse(extra) as Record<string, unknown>) : {}) };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['keep', 'help', 'variants', 'record']);
  if (opts.help) {
    process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
    return 0;
  }
  const set = optString(opts, 'set');
  const semantic = semanticOption(opts);
  if (set) {
    // Every repository of a query set (bench/eval-set.ts; imported when used, like semantic-eval.ts).
    const { mainSet } = await import('./eval-set.ts');
    return mainSet({ runEval, formatEval }, {
      set, corpora: optString(opts, 'corpora'), queries: optString(opts, 'queries'), label: optString(opts, 'label'), repos: optList(opts, 'repo'), engines: optList(opts, 'engines'), record: opts.record === true,
      outDir: path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results')), compare: optString(opts, 'compare'), provenance: optString(opts, 'provenance'),
      semantic,
    });
  }
  const golden = optString(opts, 'golden') ?? path.join(repoRoot(), 'bench', 'golden', 'sample-workspace.jsonl');
  const root = optString(opts, 'root') ?? sampleWorkspaceDir();
  if (optString(opts, 'golden') && !optString(opts, 'root')) throw new Error('--golden needs --root (the folder the relevant paths are relative to)');
  const engines = optList(opts, 'engines');
  const outDir = path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results'));
  const report = await runEval({
    golden, root, label: root === sampleWorkspaceDir() ? 'sample-workspace' : undefined,
    engines: engines.length ? engines : [...EVAL_ENGINES], rg: optString(opts, 'rg'), outDir, keep: opts.keep === true,
    variants: opts.variants === true, record: opts.record === true, provenance: optString(opts, 'provenance'), semantic,
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(`\n${formatEval(report)}\n\n(written to ${path.join(outDir, `eval-${report.corpus.label}.json`)} and .md)\n`);
  // The semantic channel, keyword / semantic / hybrid per kind (bench/semantic-eval.ts): on the bundled
  // golden sets, unless a set of your own was given; --semantic-sets sample,generated,dev (or none).
  // (Imported when used: a keyword-only eval never loads it.)
  const semanticSets = optString(opts, 'semantic-sets') ?? (optString(opts, 'golden') ? 'none' : 'sample');
  if (semanticSets !== 'none') await (await import('./semantic-eval.ts')).main(['--sets', semanticSets, ...(opts.record === true ? ['--record'] : [])]);
  return 0;
}

await runMain(import.meta.url, 'eval', main);
