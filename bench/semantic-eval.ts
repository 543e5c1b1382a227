// The semantic channel's retrieval quality through the real pipeline: for each golden set (the
// sample workspace, a generated solution, the public dev set) and each provider available here,
// index a copy with semantic search on and run every query in keyword, semantic and hybrid mode;
// file-level Recall@5 / MRR@10 per kind (bench/eval.ts's metrics), keyword's rank-1 hits that hybrid
// lost, and the build times. `npm run eval` runs it after the baselines; alone:
//
//   node dist/bench/semantic-eval.js [--sets sample,generated,dev] [--providers learned,pretrained,http,onnx] [--files 2000] [--record]
//
// Providers: `learned` and `pretrained` (the code model in the package) always; `http` when HCI_EVAL_HTTP_URL (+ HCI_EVAL_HTTP_MODEL, _DIMS, _API
// ollama|openai) names an endpoint; `onnx` when HCI_EVAL_ONNX_DIR names a model folder. The dev set:
// golden files from $EVAL_DEV_DIR or ../shared/eval-dev, corpora from $EVAL_DEV_CORPUS or
// ../devset-corpus (as bench/vector-eval.ts finds them). Corpora are copied: nothing is written into them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { SearchMode } from '../core/contract/search.ts';
import { generateCorpus } from './corpus-gen.ts';
import { readGolden, type GoldenQuery } from './lib/queries.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { copyTree, fmtNum, markdownTable, mean, optInt, optList, parseArgs, repoRoot, sampleWorkspaceDir, writeJson, runMain } from './lib/util.ts';
import { scoreQuery } from './lib/metrics.ts';

const MODES: readonly SearchMode[] = ['keyword', 'semantic', 'hybrid'];

function firstDir(env: string | undefined, candidates: string[]): string {
  return [env, ...candidates].find((d): d is string => !!d && fs.existsSync(d)) ?? candidates[0];
}
const DEV_GOLDEN = path.join(firstDir(process.env.EVAL_DEV_DIR, [path.resolve(repoRoot(), '../shared/eval-dev'), path.resolve(repoRoot(), '../../shared/eval-dev')]), 'golden');
const DEV_CORPUS = firstDir(process.env.EVAL_DEV_CORPUS, [path.resolve(repoRoot(), '../devset-corpus'), path.resolve(repoRoot(), '../../devset-corpus'), path.join(os.tmpdir(), 'devset-corpus')]);

interface SetSpec {
  label: string;
  /** A folder to copy, or a generator writing one. */
  root?: string;
  generate?: number;
  golden?: string;
  dev?: boolean;
}

interface Metrics { n: number; r5: number; mrr: number }

export interface ProviderRun {
  provider: string;
  model: string | null;
  keywordMs: number;
  vectorMs: number;
  trainReason: string | null;
  chunks: number;
  indexBytes: number;
  byMode: Record<string, Record<string, Metrics>>;
  rank1Lost: number;
  rank1Keyword: number;
  /** Queries hybrid ranks a relevant file better / worse than keyword (MRR). */
  better: number;
  worse: number;
  queryMs: Record<string, number>;
}

export interface SetRun {
  label: string;
  queries: number;
  kinds: string[];
  providers: ProviderRun[];
}

function providerSettings(name: string): Record<string, unknown> | null {
  if (name === 'learned') return { enabled: true, provider: 'learned' };
  if (name === 'pretrained') return { enabled: true, provider: 'pretrained' };
  if (name === 'combined') return { enabled: true, provider: 'combined' };
  if (name === 'http') {
    const url = process.env.HCI_EVAL_HTTP_URL;
    if (!url) return null;
    return { enabled: true, provider: 'http', http: { api: process.env.HCI_EVAL_HTTP_API ?? 'ollama', base_url: url, model: process.env.HCI_EVAL_HTTP_MODEL ?? 'nomic-embed-text', dims: Number(process.env.HCI_EVAL_HTTP_DIMS ?? 768) } };
  }
  if (name === 'onnx') {
    const dir = process.env.HCI_EVAL_ONNX_DIR;
    return dir ? { enabled: true, provider: 'onnx', onnx: { model_dir: path.resolve(dir) } } : null;
  }
  return null;
}

function metricsOf(rows: ReadonlyArray<{ kind: string; r5: number; mrr: number }>, kinds: readonly string[]): Record<string, Metrics> {
  const m = (xs: typeof rows): Metrics => ({ n: xs.length, r5: mean(xs.map((x) => x.r5)), mrr: mean(xs.map((x) => x.mrr)) });
  return Object.fromEntries([['all', m(rows)], ...kinds.map((k) => [k, m(rows.filter((r) => r.kind === k))])]);
}

async function runSet(spec: SetSpec, providers: readonly string[], log: (s: string) => void): Promise<SetRun | null> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-seval-'));
  try {
    const root = path.join(work, 'corpus');
    let golden: GoldenQuery[];
    if (spec.generate) golden = generateCorpus(root, { files: spec.generate, seed: 7 }).golden;
    else {
      if (!spec.root || !fs.existsSync(spec.root) || !spec.golden || !fs.existsSync(spec.golden)) {
        log(`${spec.label}: not found (${spec.root}), skipped`);
        return null;
      }
      copyTree(spec.root, root);
      golden = readGolden(spec.golden);
    }
    const kinds = [...new Set(golden.map((g) => g.kind))].sort();
    const run: SetRun = { label: spec.label, queries: golden.length, kinds, providers: [] };
    for (const name of providers) {
      const semantic = providerSettings(name);
      if (!semantic) {
        log(`${spec.label}: provider ${name} not available here (see the header of bench/semantic-eval.ts)`);
        continue;
      }
      log(`${spec.label}: indexing with ${name}…`);
      const ws = await openWorkspace(root, { settings: { semantic } as never });
      try {
        const s = await ws.index({ full: true });
        const st = await ws.status();
        const rows: Record<string, Array<{ kind: string; r5: number; mrr: number; r1: boolean }>> = {};
        const queryMs: Record<string, number> = {};
        for (const mode of MODES) {
          rows[mode] = [];
          const t0 = performance.now();
          for (const g of golden) {
            const r = await ws.search({ query: g.query, limit: 50, mode });
            if (r.status === 'error') throw new Error(`${mode} "${g.query}": ${r.error?.message}`);
            const sc = scoreQuery(r.hits.map((h) => h.path), g.relevant);
            rows[mode].push({ kind: g.kind, r5: sc.recall5, mrr: sc.mrr10, r1: sc.recall1 > 0 });
          }
          queryMs[mode] = (performance.now() - t0) / golden.length;
        }
        const kw = rows.keyword;
        const hy = rows.hybrid;
        run.providers.push({
          provider: name, model: s.vectors?.model ?? null, keywordMs: s.took_ms - (s.vectors?.took_ms ?? 0), vectorMs: s.vectors?.took_ms ?? 0,
          trainReason: s.vectors?.train_reason ?? null, chunks: s.vectors?.chunks ?? 0, indexBytes: st.size?.index_bytes ?? 0,
          byMode: Object.fromEntries(MODES.map((m) => [m, metricsOf(rows[m], kinds)])),
          rank1Keyword: kw.filter((r) => r.r1).length,
          rank1Lost: kw.filter((r, i) => r.r1 && !hy[i].r1).length,
          better: kw.filter((r, i) => hy[i].mrr > r.mrr).length,
          worse: kw.filter((r, i) => hy[i].mrr < r.mrr).length,
          queryMs,
        });
      } finally {
        ws.close();
      }
    }
    return run;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function formatSemanticEval(runs: readonly SetRun[]): string {
  const f = (x: number) => fmtNum(x, 3);
  const cell = (m?: Metrics) => (m && m.n ? `${f(m.r5)} / ${f(m.mrr)}` : '');
  const out: string[] = ['### Semantic channel: keyword / semantic / hybrid (Recall@5 / MRR@10, file level)', ''];
  for (const r of runs) {
    for (const p of r.providers) {
      out.push(`#### ${r.label} — ${p.provider} (${p.model ?? 'no model'}), ${r.queries} queries, ${p.chunks} chunks`, '');
      out.push(markdownTable(['kind (queries)', 'keyword', 'semantic', 'hybrid'], ['all', ...r.kinds].map((k) => [
        `${k} (${p.byMode.keyword[k]?.n ?? 0})`, cell(p.byMode.keyword[k]), cell(p.byMode.semantic[k]), cell(p.byMode.hybrid[k]),
      ])), '');
      out.push(`keyword rank-1 hits lost by hybrid: ${p.rank1Lost} of ${p.rank1Keyword} · hybrid better on ${p.better} queries, worse on ${p.worse} · ` +
        `build: keyword pass ${fmtNum(p.keywordMs / 1000, 2)} s, vector phase ${fmtNum(p.vectorMs / 1000, 2)} s (${fmtNum((100 * p.vectorMs) / Math.max(1, p.keywordMs), 0)}%) · ` +
        `query mean: ${MODES.map((m) => `${m} ${fmtNum(p.queryMs[m], 1)} ms`).join(', ')}`, '');
    }
  }
  const dev = runs.filter((r) => r.label === 'MudBlazor' || r.label === 'FluentAvalonia');
  if (dev.length === 2) {
    for (const name of dev[0].providers.map((p) => p.provider)) {
      const ps = dev.map((r) => r.providers.find((p) => p.provider === name)).filter((p): p is ProviderRun => !!p);
      if (ps.length !== 2) continue;
      const kinds = [...new Set(dev.flatMap((r) => r.kinds))];
      const pool = (mode: string, k: string): Metrics => {
        const parts = ps.map((p) => p.byMode[mode][k]).filter((m): m is Metrics => !!m && m.n > 0);
        const n = parts.reduce((s, m) => s + m.n, 0);
        return { n, r5: parts.reduce((s, m) => s + m.r5 * m.n, 0) / n, mrr: parts.reduce((s, m) => s + m.mrr * m.n, 0) / n };
      };
      out.push(`#### Dev set pooled (MudBlazor + FluentAvalonia) — ${name}`, '');
      out.push(markdownTable(['kind (queries)', 'keyword', 'semantic', 'hybrid'], ['all', ...kinds].map((k) => [
        `${k} (${pool('keyword', k).n})`, cell(pool('keyword', k)), cell(pool('semantic', k)), cell(pool('hybrid', k)),
      ])), '');
      out.push(`keyword rank-1 hits lost by hybrid: ${ps.reduce((s, p) => s + p.rank1Lost, 0)} of ${ps.reduce((s, p) => s + p.rank1Keyword, 0)}`, '');
    }
  }
  return out.join('\n');
}

export function setSpecs(sets: readonly string[], files: number): SetSpec[] {
  const out: SetSpec[] = [];
  for (const s of sets) {
    if (s === 'sample') out.push({ label: 'sample-workspace', root: sampleWorkspaceDir(), golden: path.join(repoRoot(), 'bench/golden/sample-workspace.jsonl') });
    else if (s === 'generated') out.push({ label: `generated-${files}`, generate: files });
    else if (s === 'dev') for (const repo of ['MudBlazor', 'FluentAvalonia']) out.push({ label: repo, root: path.join(DEV_CORPUS, repo), golden: path.join(DEV_GOLDEN, `${repo}.jsonl`), dev: true });
    else throw new Error(`--sets: unknown set ${s} (sample, generated, dev)`);
  }
  return out;
}

export async function runSemanticEval(o: { sets?: string[]; providers?: string[]; files?: number; log?: (s: string) => void }): Promise<SetRun[]> {
  const log = o.log ?? (() => {});
  const runs: SetRun[] = [];
  for (const spec of setSpecs(o.sets ?? ['sample', 'generated', 'dev'], o.files ?? 2000)) {
    const r = await runSet(spec, o.providers ?? ['learned', 'pretrained', 'combined', 'http', 'onnx'], log);
    if (r) runs.push(r);
  }
  return runs;
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['record']);
  const sets = optList(opts, 'sets');
  const providers = optList(opts, 'providers');
  const runs = await runSemanticEval({ sets: sets.length ? sets : undefined, providers: providers.length ? providers : undefined, files: optInt(opts, 'files', 2000), log: (s) => process.stderr.write(`${s}\n`) });
  const text = formatSemanticEval(runs);
  const outDir = path.join(repoRoot(), 'bench-results');
  writeJson(path.join(outDir, 'eval-semantic.json'), { commit: commitInfo(), runs });
  fs.writeFileSync(path.join(outDir, 'eval-semantic.md'), `${text}\n`);
  if (opts.record === true) recordResult('eval-semantic', { commit: commitInfo(), runs }, text);
  process.stdout.write(`\n${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'semantic-eval', main);
