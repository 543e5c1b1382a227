// `npm run eval -- --set broad --corpora DIR`: the eval over every repository of a query set (a
// manifest with one <Repo>.jsonl per entry next to it; `broad` = bench/golden/repos.json). Each
// repository runs as `npm run eval -- --golden … --root DIR/<Repo>` would (bench/eval.ts: one table
// per repository, per kind, declaration@1, short pages); then one aggregate table (a row per
// repository, the query-weighted mean and the mean over repositories) and hci per kind over all.
// With --compare PREVIOUS.json (a result file this wrote) it prints, per repository, the change
// against it and every query that lost rank 1 or its declaration at rank 1.
//
//   npm run eval -- --set broad --corpora /work/corpora/broad [--repo Polly --repo SukiUI]
//   npm run eval -- --set /work/shared/eval-dev/repos.json --queries /work/shared/eval-dev/golden --corpora /work/corpora/devset --label dev
//   options: --engines hci,hci-bm25,plain (default for a set; any of bench/eval.ts's) · --record (bench/results/eval-<label>.md/.json)
//            --queries DIR (the <Repo>.jsonl files, default next to the manifest) · --label NAME (default broad, or the manifest's folder name)
//            --out DIR (default <checkout>/bench-results) · --compare FILE · --provenance TEXT
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readManifest } from './lib/corpora.ts';
import { markdownTable, fmtNum, repoRoot, writeJson } from './lib/util.ts';
import { commitInfo, RECORD_DIR, type CommitInfo } from './lib/record.ts';
import { readGolden } from './lib/queries.ts';
import { hybridCheck } from './lib/hybrid-check.ts';
// Types only: eval.ts imports this module when --set is given, and a value import back into eval.ts
// (the entry point, with a top-level await) would be a cycle Node never settles (exit 13). The eval
// functions come in as arguments.
import type { EvalReport, formatEval, runEval } from './eval.ts';
import type { Metrics } from './lib/metrics.ts';

export const SET_ENGINES = ['hci', 'hci-bm25', 'plain'];

export interface EvalFns { runEval: typeof runEval; formatEval: typeof formatEval }

export interface SetOptions {
  set: string;
  fns: EvalFns;
  /** The folder of the <Repo>.jsonl files (default: the manifest's folder). */
  queries?: string;
  /** Default: setLabel(set). */
  label?: string;
  corpora: string;
  repos?: string[];
  engines?: string[];
  provenance?: string;
  log?: (line: string) => void;
  /** Semantic search on (bench/eval.ts --semantic): every repository also runs hci-hybrid. */
  semantic?: Record<string, unknown>;
}

/** Per query, what a later run is compared on. */
export interface QueryOutcomeLite { id: string; kind: string; query: string; rank: number | null; declAt1?: boolean }

export interface SetRepoResult {
  name: string;
  github: string;
  commit: string;
  report: EvalReport;
  outcomes: QueryOutcomeLite[];
}

export interface SetReport {
  set: string;
  /** What the results are named after (eval-<label>). */
  label: string;
  manifest: string;
  provenance: string;
  commit: CommitInfo;
  started: string;
  engines: string[];
  repos: Array<Omit<SetRepoResult, 'report'> & { report: EvalReport }>;
  aggregate: {
    /** engine → query-weighted mean over every query of every repository. */
    pooled: Record<string, Metrics>;
    /** engine → mean of the repositories' means. */
    macro: Record<string, Metrics>;
    /** hci per kind over every repository. */
    hciByKind: Record<string, Metrics>;
    declarations: { hit: number; fileHit: number; total: number; members: { hit: number; total: number } };
    shortPages: { short: number; noCursor: number; total: number };
    /** Per mode: queries whose default-limit page is the first hits of the 50-hit answer measured (eval.ts agentPage). */
    agentPage?: Record<string, { same: number; total: number }>;
  };
}

export function manifestOf(set: string): string {
  if (set === 'broad') return path.join(repoRoot(), 'bench', 'golden', 'repos.json');
  const p = path.resolve(set);
  if (!fs.existsSync(p)) throw new Error(`--set ${set}: neither "broad" nor an existing manifest file`);
  return p;
}

const KEYS = ['recall1', 'recall5', 'recall10', 'mrr10', 'ndcg10', 'ndcg10Returned'] as const;

function weighted(parts: ReadonlyArray<Metrics | undefined>): Metrics {
  const have = parts.filter((m): m is Metrics => !!m && m.n > 0);
  const n = have.reduce((a, m) => a + m.n, 0);
  const out = { n } as Metrics;
  for (const k of KEYS) out[k] = n ? have.reduce((a, m) => a + m[k] * m.n, 0) / n : 0;
  return out;
}

function macro(parts: ReadonlyArray<Metrics | undefined>): Metrics {
  const have = parts.filter((m): m is Metrics => !!m && m.n > 0);
  const out = { n: have.reduce((a, m) => a + m.n, 0) } as Metrics;
  for (const k of KEYS) out[k] = have.length ? have.reduce((a, m) => a + m[k], 0) / have.length : 0;
  return out;
}

export async function runSet(o: SetOptions): Promise<SetReport> {
  const manifest = manifestOf(o.set);
  const dir = path.resolve(o.queries ?? path.dirname(manifest));
  const entries = readManifest(manifest).filter((e) => fs.existsSync(path.join(dir, `${e.name}.jsonl`)));
  const unknown = (o.repos ?? []).filter((n) => !entries.some((e) => e.name === n));
  if (unknown.length) throw new Error(`--repo ${unknown.join(', ')}: no such repository with queries in ${manifest}`);
  const chosen = entries.filter((e) => !o.repos?.length || o.repos.includes(e.name));
  const corpora = path.resolve(o.corpora);
  const missing = chosen.filter((e) => !fs.existsSync(path.join(corpora, e.name)));
  if (missing.length) throw new Error(`${missing.map((e) => path.join(corpora, e.name)).join(', ')} missing: run \`npm run corpora -- --out ${corpora}${o.set === 'broad' ? '' : ` --manifest ${manifest}`}\` first`);
  for (const e of chosen) {
    const marker = path.join(corpora, `${e.name}.corpus.json`);
    if (fs.existsSync(marker)) {
      const m = JSON.parse(fs.readFileSync(marker, 'utf8')) as { commit?: string };
      if (m.commit && m.commit !== e.commit) throw new Error(`${e.name}: the corpus in ${corpora} is at ${m.commit.slice(0, 12)}, the set pins ${e.commit.slice(0, 12)} (re-run npm run corpora)`);
    }
  }
  const engines = [...(o.engines?.length ? o.engines : SET_ENGINES), ...(o.semantic ? ['hci-hybrid'] : [])];
  // Stated, or known for the broad set; otherwise each repository's eval says what its query file is (provenanceOf).
  const stated = o.provenance ?? (o.set === 'broad'
    ? 'broad tuning set (bench/golden/repos.json): public repositories, queries written before any hci ranking was seen; tuned on from then on, so gains here need the held-out check'
    : undefined);
  const started = new Date().toISOString();
  const repos: SetRepoResult[] = [];
  for (const e of chosen) {
    o.log?.(`[${repos.length + 1}/${chosen.length}] ${e.name} (${e.github}@${e.commit.slice(0, 10)})`);
    const golden = path.join(dir, `${e.name}.jsonl`);
    const report = await o.fns.runEval({ golden, root: path.join(corpora, e.name), label: e.name, engines, ...(o.semantic ? { semantic: o.semantic } : {}), ...(stated ? { provenance: stated } : {}), ...(o.log ? { log: o.log } : {}) });
    const rows = readGolden(golden);
    const hci = report.engines.find((x) => x.engine === 'hci');
    const declMiss = new Set(report.declarations?.misses.map((m) => m.id) ?? []);
    const outcomes: QueryOutcomeLite[] = (hci?.queries ?? []).map((q, i) => {
      const firstRank = q.ranks.filter((r): r is number => r !== null).sort((a, b) => a - b)[0] ?? null;
      const d = rows[i]?.declaration;
      return { id: q.id, kind: q.kind, query: q.query, rank: firstRank, ...(d?.of === 'type' ? { declAt1: !declMiss.has(q.id) } : {}) };
    });
    repos.push({ name: e.name, github: e.github, commit: e.commit, report, outcomes });
  }
  const byEngine = (eng: string) => repos.map((r) => r.report.engines.find((x) => x.engine === eng)?.overall);
  const kinds = [...new Set(repos.flatMap((r) => Object.keys(r.report.corpus.kinds)))].sort();
  const sum = (f: (r: SetRepoResult) => number) => repos.reduce((a, r) => a + f(r), 0);
  return {
    set: o.set, label: o.label ?? setLabel(o.set), manifest, provenance: stated ?? [...new Set(repos.map((r) => r.report.provenance))].join('; '), commit: commitInfo(), started, engines,
    repos,
    aggregate: {
      pooled: Object.fromEntries(engines.map((eng) => [eng, weighted(byEngine(eng))])),
      macro: Object.fromEntries(engines.map((eng) => [eng, macro(byEngine(eng))])),
      hciByKind: Object.fromEntries(kinds.map((k) => [k, weighted(repos.map((r) => r.report.engines.find((x) => x.engine === 'hci')?.byKind[k]))])),
      declarations: {
        hit: sum((r) => r.report.declarations?.hit ?? 0), fileHit: sum((r) => r.report.declarations?.fileHit ?? 0), total: sum((r) => r.report.declarations?.total ?? 0),
        members: { hit: sum((r) => r.report.declarations?.members.hit ?? 0), total: sum((r) => r.report.declarations?.members.total ?? 0) },
      },
      shortPages: { short: sum((r) => r.report.shortPages?.short ?? 0), noCursor: sum((r) => r.report.shortPages?.noCursor ?? 0), total: sum((r) => r.report.shortPages?.total ?? 0) },
      agentPage: Object.fromEntries([...new Set(repos.flatMap((r) => Object.keys(r.report.agentPage ?? {})))].map((mode) =>
        [mode, { same: sum((r) => r.report.agentPage?.[mode]?.same ?? 0), total: sum((r) => r.report.agentPage?.[mode]?.total ?? 0) }])),
    },
  };
}

const f3 = (x: number) => fmtNum(x, 3);
const ratio = (a: number, b: number) => (b ? `${a}/${b} (${f3(a / b)})` : '–');

export function formatSet(s: SetReport, fns: Pick<EvalFns, 'formatEval'>, opts: { perRepo?: boolean } = {}): string {
  const out: string[] = [];
  if (opts.perRepo !== false) for (const r of s.repos) out.push(fns.formatEval(r.report, { misses: false }), '');
  out.push(`## ${s.label}: ${s.repos.length} repositories, ${s.repos.reduce((a, r) => a + r.report.corpus.queries, 0)} queries`);
  out.push('');
  out.push(`Set: ${s.provenance}. Measured at ${s.commit.sha ? `commit ${s.commit.sha.slice(0, 10)}${s.commit.dirty ? ' + uncommitted changes' : ''}` : 'an unknown commit'}.`);
  out.push('');
  const others = s.engines.filter((e) => e !== 'hci');
  out.push(markdownTable(
    ['repository', 'queries', 'hci R@1', 'hci R@5', 'hci R@10', 'hci MRR@10', 'hci nDCG@10', 'hci nDCG@10 as returned', 'decl@1 (types)', 'short pages', ...others.map((e) => `${e} R@5 / MRR`)],
    [
      ...s.repos.map((r) => {
        const h = r.report.engines.find((x) => x.engine === 'hci')?.overall;
        const d = r.report.declarations;
        const p = r.report.shortPages;
        return [r.name, String(r.report.corpus.queries), ...(h ? [f3(h.recall1), f3(h.recall5), f3(h.recall10), f3(h.mrr10), f3(h.ndcg10), f3(h.ndcg10Returned)] : ['–', '–', '–', '–', '–', '–']),
          d ? ratio(d.hit, d.total) : '–', p ? `${p.short}/${p.total}` : '–',
          ...others.map((e) => { const m = r.report.engines.find((x) => x.engine === e)?.overall; return m ? `${f3(m.recall5)} / ${f3(m.mrr10)}` : '–'; })];
      }),
      ...(['pooled', 'macro'] as const).map((k) => {
        const h = s.aggregate[k].hci;
        return [k === 'pooled' ? '**all (per query)**' : '**mean of repositories**', String(s.aggregate.pooled.hci?.n ?? ''), ...(h ? [f3(h.recall1), f3(h.recall5), f3(h.recall10), f3(h.mrr10), f3(h.ndcg10), f3(h.ndcg10Returned)] : ['–', '–', '–', '–', '–', '–']),
          k === 'pooled' ? ratio(s.aggregate.declarations.hit, s.aggregate.declarations.total) : '', k === 'pooled' ? `${s.aggregate.shortPages.short}/${s.aggregate.shortPages.total}` : '',
          ...others.map((e) => { const m = s.aggregate[k][e]; return m ? `${f3(m.recall5)} / ${f3(m.mrr10)}` : '–'; })];
      }),
    ],
  ));
  const checks = s.repos.map((r) => ({ name: r.name, c: hybridCheck(r.report.engines), hy: r.report.engines.find((x) => x.engine === 'hci-hybrid')?.overall, kw: r.report.engines.find((x) => x.engine === 'hci')?.overall }));
  if (checks.some((x) => x.c)) {
    const d = (a?: number, b?: number) => (a === undefined || b === undefined ? '–' : `${a - b >= 0 ? '+' : ''}${f3(a - b)}`);
    out.push('');
    out.push('hci-hybrid against hci (keyword), per repository:');
    out.push('');
    out.push(markdownTable(['repository', 'keyword R@5 / MRR', 'hybrid R@5 / MRR', 'Δ R@5', 'Δ MRR', 'better / worse', 'rank-1 lost'], checks.map((x) => [
      x.name, x.kw ? `${f3(x.kw.recall5)} / ${f3(x.kw.mrr10)}` : '–', x.hy ? `${f3(x.hy.recall5)} / ${f3(x.hy.mrr10)}` : '–', d(x.hy?.recall5, x.kw?.recall5), d(x.hy?.mrr10, x.kw?.mrr10),
      x.c ? `${x.c.better} / ${x.c.worse}` : '–', x.c ? `${x.c.lost.length} of ${x.c.rank1Keyword}${x.c.lost.length ? `: ${x.c.lost.map((l) => `${l.id || l.query} (${l.kind})`).join(', ')}` : ''}` : '–',
    ])));
  }
  out.push('');
  out.push('hci by kind over every repository (R@1 / R@5 / MRR@10 / nDCG@10):');
  out.push('');
  const kinds = Object.keys(s.aggregate.hciByKind);
  out.push(markdownTable(
    ['repository', ...kinds],
    [
      ...s.repos.map((r) => [r.name, ...kinds.map((k) => { const m = r.report.engines.find((x) => x.engine === 'hci')?.byKind[k]; return m ? `${f3(m.recall1)} / ${f3(m.recall5)} / ${f3(m.mrr10)} / ${f3(m.ndcg10)} (${m.n})` : '–'; })]),
      ['**all**', ...kinds.map((k) => { const m = s.aggregate.hciByKind[k]; return `${f3(m.recall1)} / ${f3(m.recall5)} / ${f3(m.mrr10)} / ${f3(m.ndcg10)} (${m.n})`; })],
    ],
  ));
  const d = s.aggregate.declarations;
  out.push('');
  out.push(`Declaration at rank 1 for type-name queries: ${ratio(d.hit, d.total)} (target ≥ 0.95); declaring file at rank 1: ${ratio(d.fileHit, d.total)}; member names: ${ratio(d.members.hit, d.members.total)}. ` +
    `Short pages: ${s.aggregate.shortPages.short}/${s.aggregate.shortPages.total}; no cursor while more exist: ${s.aggregate.shortPages.noCursor}/${s.aggregate.shortPages.total} (target 0).`);
  const agent = Object.entries(s.aggregate.agentPage ?? {});
  if (agent.length) out.push('', `The page an agent gets (default limit) is the first hits of the 50-hit answer measured: ${agent.map(([mode, a]) => `${mode} ${a.same}/${a.total}`).join('; ')}.`);
  return out.join('\n');
}

/** The slim copy that is committed: every figure, the per-query outcomes, none of the per-query top lists. */
export function slimSet(s: SetReport): unknown {
  return {
    ...s,
    repos: s.repos.map((r) => ({
      name: r.name, github: r.github, commit: r.commit, outcomes: r.outcomes,
      corpus: r.report.corpus, notes: r.report.notes,
      declarations: r.report.declarations, shortPages: r.report.shortPages, agentPage: r.report.agentPage,
      engines: r.report.engines.map((e) => ({ engine: e.engine, label: e.label, overall: e.overall, byKind: e.byKind, buildMs: Math.round(e.buildMs), queryMs: Math.round(e.queryMs) })),
    })),
  };
}

interface SlimRepo { name: string; outcomes: QueryOutcomeLite[]; engines: Array<{ engine: string; overall: Metrics }> }

/** This run against an earlier result file of the same set: per repository R@5/MRR before → after, queries that lost rank 1 or decl@1. */
export function compareSets(s: SetReport, previousFile: string): string {
  const prev = JSON.parse(fs.readFileSync(previousFile, 'utf8')) as { commit?: CommitInfo; repos: SlimRepo[] };
  const out: string[] = [`Against ${path.basename(previousFile)} (measured at ${prev.commit?.sha?.slice(0, 10) ?? '?'}):`, ''];
  const rows: string[][] = [];
  const lost: string[] = [];
  let gains = 0;
  let losses = 0;
  for (const r of s.repos) {
    const p = prev.repos.find((x) => x.name === r.name);
    const now = r.report.engines.find((x) => x.engine === 'hci')?.overall;
    const was = p?.engines.find((x) => x.engine === 'hci')?.overall;
    if (!p || !now || !was) {
      rows.push([r.name, '–', '–', 'not in the earlier run']);
      continue;
    }
    const dm = now.mrr10 - was.mrr10;
    if (dm > 0.005) gains++;
    else if (dm < -0.005) losses++;
    rows.push([r.name, `${f3(was.recall5)} → ${f3(now.recall5)}`, `${f3(was.mrr10)} → ${f3(now.mrr10)} (${dm >= 0 ? '+' : ''}${f3(dm)})`, '']);
    const before = new Map(p.outcomes.map((o) => [o.id, o]));
    for (const o of r.outcomes) {
      const b = before.get(o.id);
      if (!b) continue;
      if (b.rank === 1 && o.rank !== 1) lost.push(`${r.name} ${o.id} [${o.kind}] "${o.query}": rank 1 → ${o.rank ?? '>10'}`);
      if (b.declAt1 === true && o.declAt1 === false) lost.push(`${r.name} ${o.id} [${o.kind}] "${o.query}": declaration no longer at rank 1`);
    }
  }
  out.push(markdownTable(['repository', 'hci R@5', 'hci MRR@10', ''], rows));
  out.push('');
  out.push(`MRR@10 up on ${gains} repositories, down on ${losses} (|Δ| > 0.005), of ${s.repos.length}.`);
  out.push(lost.length ? `Lost rank 1 or the declaration at rank 1 (${lost.length}):\n${lost.map((l) => `- ${l}`).join('\n')}` : 'No query lost rank 1 or its declaration at rank 1.');
  return out.join('\n');
}

/** The name results are written under: broad, or the manifest's folder (eval-dev/repos.json → eval-dev). */
export function setLabel(set: string): string {
  return set === 'broad' ? 'broad' : path.basename(path.dirname(path.resolve(set))).replace(/[^A-Za-z0-9._-]+/g, '-') || 'set';
}

export async function mainSet(fns: EvalFns, opts: { set: string; corpora?: string; queries?: string; label?: string; repos: string[]; engines: string[]; record: boolean; outDir: string; compare?: string; provenance?: string; semantic?: Record<string, unknown> }): Promise<number> {
  if (!opts.corpora) throw new Error('--set needs --corpora DIR (the folder npm run corpora wrote)');
  const s = await runSet({ set: opts.set, fns, corpora: opts.corpora, queries: opts.queries, label: opts.label, repos: opts.repos, engines: opts.engines, provenance: opts.provenance, semantic: opts.semantic, log: (l) => process.stderr.write(`${l}\n`) });
  let text = formatSet(s, fns);
  if (opts.compare) text += `\n\n${compareSets(s, opts.compare)}`;
  const name = `eval-${s.label}`;
  const base = path.join(opts.outDir, name);
  writeJson(`${base}.json`, slimSet(s));
  fs.writeFileSync(`${base}.md`, `${text}\n`);
  if (opts.record) {
    const rec = path.join(RECORD_DIR(), name);
    writeJson(`${rec}.json`, slimSet(s));
    fs.writeFileSync(`${rec}.md`, `${text}\n`);
  }
  process.stdout.write(`\n${text}\n\n(written to ${base}.json and .md${opts.record ? `; recorded in ${path.join(RECORD_DIR(), name)}.md` : ''})\n`);
  return 0;
}
