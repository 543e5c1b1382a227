// Vector-only retrieval quality of the `learned` embeddings, and an offline fusion prototype with
// keyword search, at file level on golden sets. For each corpus: read every chunk from its existing
// hci index, train the learned model (timed), embed chunks and queries, rank files by exact KNN
// (int8, as stored), and fuse with hci's keyword ranking (in-process search, 30 hits) by min-max
// 0.65/0.35 with keyword's top 3 files kept in place. Also: int8-vs-f32 recall@20 of the queries'
// neighbours, and the learned build time against the keyword index time when --keyword-time runs a
// full keyword index first.
//
//   node dist/bench/vector-eval.js                          # dev set (MudBlazor, FluentAvalonia) + sample workspace
//   node dist/bench/vector-eval.js --corpus mud --dims 128,192,256     # default: the model's (192)
//   node dist/bench/vector-eval.js --corpus /tmp/g13 --golden g.jsonl --keyword-time
//   options: --corpus mud|fluent|sample|dev|all|PATH · --golden FILE · --dims LIST · --params JSON ·
//            --vec-k 30 · --kw-k 30 · --keyword-time · --out DIR
//
// A corpus without an index is indexed in place first (`node bin/hci.js index <corpus>` does the
// same), except the sample workspace, which is copied to a temp folder and indexed there. The dev
// set: golden files from $EVAL_DEV_DIR or ../shared/eval-dev, corpora from $EVAL_DEV_CORPUS,
// ../devset-corpus or <tmp>/devset-corpus. Metrics as in `npm run eval` (bench/eval.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { KnnIndex } from '../core/vector/knn.ts';
import { quantizeInt8 } from '../core/vector/quantize.ts';
import { LearnedProvider } from '../core/vector/learned/provider.ts';
import { DEFAULT_LEARNED_PARAMS, type LearnedParams } from '../core/vector/learned/model.ts';
import { readIndexChunks, type IndexChunk } from './lib/index-chunks.ts';
import { filesOf, fuse, SEED_FUSION, type ScoredFile } from './lib/fusion-proto.ts';
import { readGolden, type GoldenQuery } from './lib/queries.ts';
import { copyTree, fmtNum, markdownTable, mean, optInt, optList, optString, parseArgs, repoRoot, sampleWorkspaceDir, writeJson, runMain } from './lib/util.ts';
import { scoreQuery } from './lib/metrics.ts';

/** The first that exists of an environment override and the usual places (the dev set lives beside the checkout). */
function firstDir(env: string | undefined, candidates: string[]): string {
  return [env, ...candidates].find((d): d is string => !!d && fs.existsSync(d)) ?? candidates[0];
}
const DEV_GOLDEN = path.join(firstDir(process.env.EVAL_DEV_DIR, [path.resolve(repoRoot(), '../shared/eval-dev'), path.resolve(repoRoot(), '../../shared/eval-dev')]), 'golden');
const DEV_CORPUS = firstDir(process.env.EVAL_DEV_CORPUS, [path.resolve(repoRoot(), '../devset-corpus'), path.resolve(repoRoot(), '../../devset-corpus'), path.join(os.tmpdir(), 'devset-corpus')]);

interface CorpusSpec {
  label: string;
  root: string;
  golden: string;
  /** Index a temp copy first (the sample workspace lives in the repository). */
  copy?: boolean;
}

function corpora(name: string, golden?: string): CorpusSpec[] {
  const dev = (repo: string): CorpusSpec => ({ label: repo, root: path.join(DEV_CORPUS, repo), golden: path.join(DEV_GOLDEN, `${repo}.jsonl`) });
  const sample: CorpusSpec = { label: 'sample-workspace', root: sampleWorkspaceDir(), golden: path.join(repoRoot(), 'bench/golden/sample-workspace.jsonl'), copy: true };
  switch (name) {
    case 'mud': return [dev('MudBlazor')];
    case 'fluent': return [dev('FluentAvalonia')];
    case 'dev': return [dev('MudBlazor'), dev('FluentAvalonia')];
    case 'sample': return [sample];
    case 'all': return [dev('MudBlazor'), dev('FluentAvalonia'), sample];
    default:
      if (!golden) throw new Error(`--corpus ${name}: a folder needs --golden`);
      return [{ label: path.basename(path.resolve(name)), root: path.resolve(name), golden }];
  }
}

interface Metrics { n: number; r5: number; mrr: number }
type Outcome = { id: string; kind: string; r5: number; mrr: number; rank1: boolean };

function metrics(outs: readonly Outcome[]): Metrics {
  return { n: outs.length, r5: mean(outs.map((o) => o.r5)), mrr: mean(outs.map((o) => o.mrr)) };
}

function outcome(g: GoldenQuery, ranked: readonly string[]): Outcome {
  const s = scoreQuery(ranked, g.relevant);
  return { id: g.id ?? g.query, kind: g.kind, r5: s.recall5, mrr: s.mrr10, rank1: s.recall1 > 0 };
}

export interface CorpusRun {
  label: string;
  chunks: number;
  queries: number;
  kinds: string[];
  keywordIndexMs: { wall: number; cpu: number } | null;
  keyword: Record<string, Metrics>;
  runs: Array<{
    dims: number;
    build: { wall: number; cpu: number; phases: Record<string, number>; vocab: number; ppmiEntries: number; modelBytes: number };
    embedChunksPerS: number;
    vector: Record<string, Metrics>;
    fused: Record<string, Metrics>;
    rank1Lost: number;
    int8RecallAt20: number;
  }>;
}

function byKind(outs: readonly Outcome[], kinds: readonly string[]): Record<string, Metrics> {
  const r: Record<string, Metrics> = { all: metrics(outs) };
  for (const k of kinds) r[k] = metrics(outs.filter((o) => o.kind === k));
  return r;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function runCorpus(spec: CorpusSpec, o: { dims: number[]; params: Partial<LearnedParams>; vecK: number; kwK: number; keywordTime: boolean; log: (s: string) => void }): Promise<CorpusRun> {
  const golden = readGolden(spec.golden);
  const kinds = [...new Set(golden.map((g) => g.kind))].sort();
  let root = spec.root;
  let tmp: string | null = null;
  if (spec.copy) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-veval-'));
    root = path.join(tmp, 'corpus');
    copyTree(spec.root, root);
  }
  try {
    const ws = await openWorkspace(root);
    let keywordIndexMs: CorpusRun['keywordIndexMs'] = null;
    const indexed = fs.existsSync(path.join(root, '.hci', 'index.sqlite'));
    try {
      if (!indexed || o.keywordTime) {
        o.log(`${spec.label}: keyword index (full)…`);
        const w0 = performance.now();
        const c0 = cpuMs();
        await ws.index({ full: true });
        keywordIndexMs = { wall: performance.now() - w0, cpu: cpuMs() - c0 };
      }
      o.log(`${spec.label}: keyword search…`);
      const keywordFiles = new Map<string, ScoredFile[]>();
      for (const g of golden) {
        const r = await ws.search({ query: g.query, limit: o.kwK });
        if (r.status === 'error') throw new Error(`search "${g.query}": ${r.error?.message}`);
        keywordFiles.set(g.query, filesOf(r.hits));
      }
      const kwOut = golden.map((g) => outcome(g, keywordFiles.get(g.query)!.map((f) => f.path)));
      const chunks = await readIndexChunks(root);
      o.log(`${spec.label}: ${chunks.length} chunks, ${golden.length} queries`);
      const run: CorpusRun = { label: spec.label, chunks: chunks.length, queries: golden.length, kinds, keywordIndexMs, keyword: byKind(kwOut, kinds), runs: [] };
      for (const dims of o.dims) run.runs.push(await runDims(chunks, golden, kinds, keywordFiles, kwOut, { ...o.params, dims }, o));
      return run;
    } finally {
      ws.close();
    }
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function runDims(
  chunks: readonly IndexChunk[], golden: readonly GoldenQuery[], kinds: readonly string[], keywordFiles: Map<string, ScoredFile[]>, kwOut: readonly Outcome[],
  params: Partial<LearnedParams>, o: { vecK: number; log: (s: string) => void },
): Promise<CorpusRun['runs'][number]> {
  const provider = new LearnedProvider(params);
  const texts = chunks.map((c) => c.text);
  const w0 = performance.now();
  const c0 = cpuMs();
  const trained = provider.train(texts, cpuMs); // phases in CPU ms (steadier than wall time on a loaded machine)
  const build = { wall: performance.now() - w0, cpu: cpuMs() - c0 };
  const model = trained.model;
  // Embedding throughput of new chunks (the incremental path), on a slice of the corpus.
  const sample = texts.slice(0, Math.min(texts.length, 2000));
  const e0 = performance.now();
  const again = model.embed(sample).vectors;
  const embedChunksPerS = sample.length / ((performance.now() - e0) / 1000);
  for (let i = 0; i < again.length; i++) {
    if (again[i] !== trained.vectors[i]) throw new Error(`embed() differs from the training vectors at ${i}: determinism broken`);
  }
  const dims = model.dims;
  const ids = chunks.map((c) => c.id);
  const scale = model.header.vectorScale;
  const int8 = await KnnIndex.create({ dims, quantization: 'int8', data: quantizeInt8(trained.vectors, scale), scale, ids });
  const f32 = await KnnIndex.create({ dims, quantization: 'f32', data: trained.vectors, ids });
  const pathOf = new Map(chunks.map((c) => [c.id, c.path]));
  const queries = model.embed(golden.map((g) => g.query), ).vectors;
  const vecOut: Outcome[] = [];
  const fusedOut: Outcome[] = [];
  const recalls: number[] = [];
  golden.forEach((g, i) => {
    const q = queries.subarray(i * dims, (i + 1) * dims);
    const hits = int8.search(q, { k: Math.max(o.vecK, 20) });
    const exact = f32.search(q, { k: 20 });
    if (exact.length) {
      const got = new Set(hits.slice(0, 20).map((h) => h.id));
      recalls.push(exact.filter((h) => got.has(h.id)).length / exact.length);
    }
    const vecFiles = filesOf(hits.slice(0, o.vecK).map((h) => ({ path: pathOf.get(h.id)!, score: h.score })));
    vecOut.push(outcome(g, vecFiles.map((f) => f.path)));
    fusedOut.push(outcome(g, fuse(keywordFiles.get(g.query)!, vecFiles, SEED_FUSION)));
  });
  const rank1Lost = kwOut.filter((k, i) => k.rank1 && !fusedOut[i].rank1).length;
  o.log(`  dims ${dims}: build ${fmtNum(build.wall / 1000, 2)} s wall / ${fmtNum(build.cpu / 1000, 2)} s CPU, vocab ${trained.report.vocab}, PPMI ${trained.report.ppmiEntries}`);
  return {
    dims,
    build: { ...build, phases: trained.report.phases, vocab: trained.report.vocab, ppmiEntries: trained.report.ppmiEntries, modelBytes: model.toBytes().length },
    embedChunksPerS,
    vector: byKind(vecOut, kinds),
    fused: byKind(fusedOut, kinds),
    rank1Lost,
    int8RecallAt20: mean(recalls),
  };
}

/** Queries of every corpus together (the dev set's overall figures are over both repositories). */
function pooled(runs: readonly CorpusRun[]): string {
  const f = (x: number) => fmtNum(x, 3);
  const dev = runs.filter((r) => r.label !== 'sample-workspace');
  if (dev.length < 2) return '';
  const lines: string[] = ['', `#### Dev set pooled (${dev.map((r) => r.label).join(' + ')}, ${dev.reduce((s, r) => s + r.queries, 0)} queries)`, ''];
  const kinds = [...new Set(dev.flatMap((r) => ['all', ...r.kinds]))];
  const pool = (pick: (r: CorpusRun) => Record<string, Metrics>, k: string): Metrics => {
    const parts = dev.map((r) => pick(r)[k]).filter(Boolean);
    const n = parts.reduce((s, m) => s + m.n, 0);
    return { n, r5: parts.reduce((s, m) => s + m.r5 * m.n, 0) / n, mrr: parts.reduce((s, m) => s + m.mrr * m.n, 0) / n };
  };
  const dimsList = dev[0].runs.map((r) => r.dims);
  const header = ['kind', 'keyword R@5 / MRR', ...dimsList.flatMap((d) => [`vector ${d}d`, `fused ${d}d`])];
  const rows = kinds.map((k) => {
    const kw = pool((r) => r.keyword, k);
    return [`${k} (${kw.n})`, `${f(kw.r5)} / ${f(kw.mrr)}`, ...dimsList.flatMap((d, i) => {
      const v = pool((r) => r.runs[i].vector, k);
      const fu = pool((r) => r.runs[i].fused, k);
      return [`${f(v.r5)} / ${f(v.mrr)}`, `${f(fu.r5)} / ${f(fu.mrr)}`];
    })];
  });
  lines.push(markdownTable(header, rows));
  lines.push('', `rank-1 hits lost by fusion: ${dimsList.map((d, i) => `${d}d ${dev.reduce((s, r) => s + r.runs[i].rank1Lost, 0)}`).join(', ')}`);
  return lines.join('\n');
}

export function formatRuns(runs: readonly CorpusRun[]): string {
  const f = (x: number) => fmtNum(x, 3);
  const out: string[] = [];
  for (const r of runs) {
    out.push(`### ${r.label}: ${r.chunks} chunks, ${r.queries} queries`, '');
    const header = ['kind', 'keyword R@5 / MRR', ...r.runs.flatMap((x) => [`vector ${x.dims}d`, `fused ${x.dims}d`])];
    const rows = ['all', ...r.kinds].map((k) => [
      `${k} (${r.keyword[k].n})`, `${f(r.keyword[k].r5)} / ${f(r.keyword[k].mrr)}`,
      ...r.runs.flatMap((x) => [`${f(x.vector[k].r5)} / ${f(x.vector[k].mrr)}`, `${f(x.fused[k].r5)} / ${f(x.fused[k].mrr)}`]),
    ]);
    out.push(markdownTable(header, rows), '');
    out.push(markdownTable(
      ['dims', 'learned build (wall / CPU)', 'vs keyword index (wall / CPU)', 'vocab', 'PPMI entries', 'model bytes', 'embed (chunks/s)', 'int8 recall@20', 'rank-1 lost'],
      r.runs.map((x) => [
        String(x.dims), `${fmtNum(x.build.wall / 1000, 2)} s / ${fmtNum(x.build.cpu / 1000, 2)} s`,
        r.keywordIndexMs ? `${fmtNum((100 * x.build.wall) / r.keywordIndexMs.wall, 0)}% / ${fmtNum((100 * x.build.cpu) / r.keywordIndexMs.cpu, 0)}%` : 'n/a',
        String(x.build.vocab), String(x.build.ppmiEntries), String(x.build.modelBytes), fmtNum(x.embedChunksPerS, 0), f(x.int8RecallAt20), String(x.rank1Lost),
      ]),
    ), '');
    out.push(`phases (CPU ms): ${r.runs.map((x) => `${x.dims}d ${Object.entries(x.build.phases).map(([k, v]) => `${k} ${fmtNum(v, 0)}`).join(', ')}`).join(' · ')}`, '');
  }
  out.push(pooled(runs));
  return out.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['keyword-time']);
  const dims = optList(opts, 'dims').map(Number);
  const params = optString(opts, 'params') ? (JSON.parse(optString(opts, 'params')!) as Partial<LearnedParams>) : {};
  const specs = corpora(optString(opts, 'corpus') ?? 'all', optString(opts, 'golden'));
  const runs: CorpusRun[] = [];
  for (const spec of specs) {
    runs.push(await runCorpus(spec, {
      dims: dims.length ? dims : [DEFAULT_LEARNED_PARAMS.dims], params, vecK: optInt(opts, 'vec-k', 30), kwK: optInt(opts, 'kw-k', 30), keywordTime: opts['keyword-time'] === true,
      log: (s) => process.stderr.write(`${s}\n`),
    }));
  }
  const text = formatRuns(runs);
  process.stdout.write(`${text}\n`);
  const outDir = optString(opts, 'out');
  if (outDir) {
    writeJson(path.join(outDir, 'vector-eval.json'), runs);
    fs.writeFileSync(path.join(outDir, 'vector-eval.md'), `${text}\n`);
  }
  return 0;
}

await runMain(import.meta.url, 'vector-eval', main);
