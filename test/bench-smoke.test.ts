// A tiny in-process run of `npm run bench` and `npm run eval` (bench/), so the scripts never rot:
// they must produce well-formed reports. Timings are never asserted.
// @lane slow
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runBench, formatBench } from '../bench/bench.ts';
import { judgeTargets, scaleAgainst, type BenchReport } from '../bench/lib/report.ts';
import { runEval, formatEval } from '../bench/eval.ts';
import { scoreQuery } from '../bench/lib/metrics.ts';
import { generateCorpus } from '../bench/corpus-gen.ts';
import { readGolden } from '../bench/lib/queries.ts';
import { sliceQueries } from '../bench/lib/plan.ts';
import { runIntercomBench } from '../bench/intercom-bench.ts';
import { runMcpStartBench } from '../bench/mcp-start.ts';
import { sampleFiles } from '../bench/web-demo-bench.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const repo = path.resolve(import.meta.dirname, '..');
const golden = path.join(repo, 'bench', 'golden', 'sample-workspace.jsonl');
const sample = path.join(repo, 'test', 'sample-workspace');

const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

describe('bench and eval scripts (smoke)', () => {
  it('the golden set has at least 60 checked queries whose relevant files exist', () => {
    const set = readGolden(golden);
    expect(set.length).toBeGreaterThanOrEqual(60);
    for (const kind of ['identifier', 'natural-language', 'config', 'razor', 'axaml', 'docs']) {
      expect(set.some((g) => g.kind === kind), kind).toBe(true);
    }
    expect(new Set(set.map((g) => g.id)).size).toBe(set.length);
    for (const g of set) for (const r of g.relevant) expect(fs.existsSync(path.join(sample, r)), `${g.query} → ${r}`).toBe(true);
  });

  it('generates the same corpus for the same seed', () => {
    const a = tmpDir('hci-gen-a-');
    const b = tmpDir('hci-gen-b-');
    try {
      const ga = generateCorpus(a, { files: 60, seed: 3 });
      const gb = generateCorpus(b, { files: 60, seed: 3 });
      expect(ga.files).toBe(60);
      expect(ga.golden).toEqual(gb.golden);
      const list = (d: string) => fs.readdirSync(d, { recursive: true, withFileTypes: false }).map(String).sort();
      expect(list(a)).toEqual(list(b));
      for (const f of list(a).filter((p) => p.endsWith('.cs')).slice(0, 5)) expect(fs.readFileSync(path.join(a, f), 'utf8')).toBe(fs.readFileSync(path.join(b, f), 'utf8'));
      for (const ext of ['.cs', '.razor', '.axaml', '.json', '.md']) expect(list(a).some((p) => p.endsWith(ext)), ext).toBe(true);
    } finally {
      fs.rmSync(a, { recursive: true, force: true });
      fs.rmSync(b, { recursive: true, force: true });
    }
  });

  it('splits a query set into disjoint latency slices (cold per run, after reopen, warm-up, measured)', () => {
    const qs = Array.from({ length: 100 }, (_, i) => `q${i}`);
    const s = sliceQueries(qs, { repeat: 3, coldQueries: 5, reopenQueries: 10, queryRepeat: 2, limit: 10 });
    expect(s.disjoint).toBe(true);
    const lists = [...s.coldByRun, s.plan.reopen, s.plan.warmup, s.plan.measured];
    expect(lists.map((l) => l.length)).toEqual([5, 5, 5, 10, 37, 38]);
    expect(new Set(lists.flat()).size).toBe(100);
    expect(sliceQueries(qs.slice(0, 8), { repeat: 1, coldQueries: 1, reopenQueries: 2, queryRepeat: 1, limit: 10 }).disjoint).toBe(false);
  });

  it('web bench --files: N files evenly spaced over the sorted paths, dotfiles always in', () => {
    const list = [...Array.from({ length: 100 }, (_, i) => `src/F${String(i).padStart(3, '0')}.cs`), '.gitignore', 'docs/.gitignore'].reverse();
    const kept = sampleFiles(list, 52);
    expect(kept).toHaveLength(52);
    expect(kept).toEqual([...kept].sort());
    expect(kept).toContain('.gitignore');
    expect(kept).toContain('docs/.gitignore');
    // Every other source file: the spread of the whole, not its first half.
    expect(kept.filter((f) => f.startsWith('src/'))).toEqual(Array.from({ length: 50 }, (_, i) => `src/F${String(i * 2).padStart(3, '0')}.cs`));
    expect(sampleFiles(list, 500)).toHaveLength(102);
  });

  it('scores rankings at file level', () => {
    const s = scoreQuery(['a', 'a', 'x', 'b'], ['b', 'a']);
    expect(s.ranks).toEqual([3, 1]);
    expect(s.recall1).toBe(1);
    expect(s.recall5).toBe(1);
    expect(s.mrr10).toBe(1);
    expect(scoreQuery(['x'], ['a']).mrr10).toBe(0);
  });

  it('nDCG@10 as returned: a file\'s second chunk takes a slot and earns nothing (distinct-file nDCG does not see it)', () => {
    const idcg2 = 1 + 1 / Math.log2(3);
    // Distinct files a, x, b: b at rank 3. As returned a, a, x, b: b at rank 4, a's second chunk earns nothing.
    const s = scoreQuery(['a', 'a', 'x', 'b'], ['b', 'a']);
    expect(s.ndcg10).toBeCloseTo((1 + 1 / Math.log2(4)) / idcg2, 9);
    expect(s.ndcg10Returned).toBeCloseTo((1 + 1 / Math.log2(5)) / idcg2, 9);
    // Another file's chunk in the second slot pushes the answer down: as returned scores lower than distinct.
    const pushed = scoreQuery(['x', 'x', 'a'], ['a']);
    expect(pushed.ndcg10).toBeCloseTo(1 / Math.log2(3), 9);
    expect(pushed.ndcg10Returned).toBeCloseTo(1 / Math.log2(4), 9);
    expect(scoreQuery(['a', 'a'], ['a']).ndcg10Returned).toBe(1);
    // Only the first ten hits count.
    expect(scoreQuery([...Array(10).fill('x'), 'a'], ['a']).ndcg10Returned).toBe(0);
  });

  it('growth against a corpus measured in the same run: ratios of the hci rows, the base\'s own figures kept, each growth target judged', () => {
    const row = (peakRss: number, ms: number, p95: number) => ({ engine: 'hci', label: 'hci', memory: { peakRss, overBaseline: peakRss - 50 }, index: { ms, cpuMs: ms * 2 }, latency: { warmFirst: { p95 }, afterOpen: { p95: p95 * 2 } } });
    const report = (label: string, files: number, hci: ReturnType<typeof row>) => ({ corpus: { label, kind: 'real', files, chunks: files * 9, sourceBytes: files * 5000, queries: 60, path: '' }, engines: [hci], commit: { sha: 'a'.repeat(40) } }) as unknown as BenchReport;
    const base = report('avalonia', 4800, row(230e6, 100_000, 40));
    const big = report('dotnet-8', 48_000, row(260e6, 1_200_000, 60));
    const sc = scaleAgainst(big, base, true);
    expect([sc.files, sc.sameRun, sc.baseFigures]).toEqual([10, true, { peakRss: 230e6, indexMs: 100_000, indexCpuMs: 200_000, warmNewP95: 40 }]);
    expect(sc.peakRss).toBeCloseTo(260 / 230, 9);
    const growth = judgeTargets({ ...big, ratios: {}, scale: sc } as unknown as BenchReport).filter((t) => t.target.startsWith('growth'));
    expect(growth.map((t) => [t.target, t.status])).toEqual([
      ["growth: peak RSS ≤ 1.2x avalonia's", 'met'],
      ["growth: cold index time ≤ 11x avalonia's", 'NOT met'],
      ["growth: warm new query p95 ≤ 2x avalonia's", 'met'],
    ]);
    expect(growth[0].measured).toContain('measured in this run');
    expect(scaleAgainst(big, base).sameRun).toBe(false);
  });

  it('bench: a tiny generated corpus yields a complete report', async () => {
    const r = await runBench({
      corpus: 'generated', files: 40, repeat: 1, queryRepeat: 1, coldQueries: 1, cliQueries: 0, edits: 1, maxQueries: 8,
      engines: ['hci', 'native', 'wasm', 'orama', 'minisearch'], inProcess: true, outDir: null,
    });
    expect(r.corpus.files).toBeGreaterThan(30);
    expect(r.corpus.chunks).toBeGreaterThan(0);
    expect(r.corpus.queries).toBe(8);
    expect(r.engines.map((e) => e.engine)).toEqual(['hci', 'wasm-store', 'native', 'orama', 'minisearch', 'hci-fts-sql']);
    for (const e of r.engines) {
      expect(e.queries && finite(e.queries.p50) && finite(e.queries.p95) && finite(e.queries.p99), e.engine).toBe(true);
      if (e.engine !== 'hci-fts-sql') {
        expect(finite(e.index?.ms) && finite(e.index?.cpuMs) && e.index!.chunks === r.corpus.chunks, e.engine).toBe(true);
        expect(e.memory!.peakRss).toBeGreaterThan(0);
      }
    }
    const hci = r.engines[0];
    expect(hci.index!.diskBytes).toBeGreaterThan(0);
    expect(r.incremental!.filesIndexed).toEqual([1]);
    expect(r.incremental!.pathFilesIndexed).toEqual([1]);
    expect(r.incremental!.pathFilesScanned).toEqual([1]);
    expect(finite(r.incremental!.pathEditMs)).toBe(true);
    expect(finite(r.ratios.index_time_vs_native)).toBe(true);
    expect(r.targets.length).toBeGreaterThanOrEqual(7);
    // A target stated at 50k chunks is not judged on a smaller corpus.
    const scaled = r.targets.filter((t) => t.scaleChunks);
    expect(scaled.map((t) => t.target)).toEqual(['query p95 < 20 ms in-process at 50k chunks', 'peak RSS < 300 MB at 50k chunks']);
    for (const t of scaled) expect([t.status, t.met, t.note]).toEqual(['not measured', null, expect.stringContaining('--files 13000')]);
    // Every engine's memory over the same floor; the latency kinds beside each other; the commit.
    expect(r.baselineRss).toBeGreaterThan(0);
    for (const e of r.engines.filter((x) => x.memory)) expect(e.memory!.overBaseline, e.engine).toBeGreaterThanOrEqual(0);
    for (const e of ['hci', 'native']) {
      const l = r.engines.find((x) => x.engine === e)!.latency!;
      for (const k of ['cold', 'afterOpen', 'warmFirst', 'warmRepeat'] as const) expect(finite(l[k]?.p95), `${e} ${k}`).toBe(true);
    }
    expect(r.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    const text = formatBench(r);
    expect(text).toMatch(/\|\s*engine \(indexing\)\s*\|\s*index\s*\|\s*CPU\s*\|.*over bare worker/);
    expect(text).toMatch(/\|\s*engine \(search, top 10\)\s*\|\s*new process.*first after open.*warm, new query.*warm, repeated/);
    expect(text).toMatch(/native SQLite \(node:sqlite/);
    expect(text).toMatch(/not measured/);
  });

  it('intercom: a small thread through the traceability bench (what `npm run bench` runs at 10,000 messages)', async () => {
    const out = tmpDir('hci-intercom-smoke-');
    try {
      const { result, markdown } = await runIntercomBench(['--messages', '200', '--attachments', '400', '--files', '4', '--runs', '2', '--queries', '20', '--relates', '10', '--out', out]);
      const r = result as { log: { messages: number; attachments: number }; rebuild: { median_ms: number }; find: { queries: number; all: { p95: number } }; rebuild_over_parse: number; find_over_outline_p50: number };
      expect(r.log).toMatchObject({ messages: 200, attachments: 400 });
      expect(r.find.queries).toBe(20);
      for (const x of [r.rebuild.median_ms, r.find.all.p95, r.rebuild_over_parse, r.find_over_outline_p50]) expect(finite(x)).toBe(true);
      expect(markdown).toMatch(/\|\s*sidecar rebuild\s*\|.*read \+ JSON\.parse the log.*≤ 2 s/);
      expect(markdown).toMatch(/\|\s*find \(all\)\s*\|.*outline of the same file.*p95 ≤ 5 ms/);
      expect(JSON.parse(fs.readFileSync(path.join(out, 'bench-intercom.json'), 'utf8')).log.messages).toBe(200);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('mcp-start: the server `hci setup` writes, started on a fresh copy with a cold compile cache, answers listTools (what `npm run bench` times)', async () => {
    const out = tmpDir('hci-mcp-start-smoke-');
    try {
      const { report, markdown } = await runMcpStartBench(['--runs', '2', '--out', out]);
      // Exactly the entry `hci setup` writes: this Node, the real path of bin/hci.js, `mcp <root>`.
      expect(report.server.command).toBe(process.execPath);
      expect(report.server.args).toEqual([fs.realpathSync(path.join(repo, 'bin', 'hci.js')), 'mcp', '<copy>/sample-workspace']);
      expect(report.tools).toBeGreaterThanOrEqual(10);
      expect(report.firstStart.n).toBe(2);
      expect(report.nodeStart.n).toBe(2);
      for (const x of [...report.firstStart.samples, ...report.nodeStart.samples, report.ratio]) expect(finite(x) && x > 0).toBe(true);
      expect(markdown).toMatch(/\|\s*first MCP start: spawn → initialize → listTools answered\s*\|/);
      expect(markdown).toMatch(/\|\s*`node -e 0`/);
      expect(JSON.parse(fs.readFileSync(path.join(out, 'bench-mcp-start.json'), 'utf8')).firstStart.n).toBe(2);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('eval: the sample workspace golden set through hci and two comparisons', async () => {
    const r = await runEval({ golden, root: sample, label: 'sample-workspace', engines: ['hci', 'plain', 'minisearch'], outDir: null });
    expect(r.engines.map((e) => e.engine)).toEqual(['hci', 'plain', 'minisearch']);
    for (const e of r.engines) {
      expect(e.overall.n).toBe(r.corpus.queries);
      for (const m of [e.overall.recall1, e.overall.recall5, e.overall.recall10, e.overall.mrr10, e.overall.ndcg10]) {
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(1);
      }
      expect(Object.keys(e.byKind).sort()).toEqual(Object.keys(r.corpus.kinds).sort());
    }
    expect(r.identifierAtRank1!.total).toBeGreaterThan(10);
    expect(formatEval(r)).toMatch(/\|\s*engine\s*\|\s*Recall@1\s*\|.*nDCG@10/);
  });
});

describe('eval entry', () => {
  // eval.ts runs as the main module under a top-level await and imports semantic-eval.ts when it runs: a
  // module on that path importing eval.ts back waits for the main module forever (Node exits 13,
  // "unsettled top-level await", and the semantic eval never runs). The shared metrics live in lib/metrics.ts.
  it('no module eval.ts imports when it runs imports eval.ts back', () => {
    const bench = path.resolve(__dirname, '..', 'bench');
    const importsOf = (file: string) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/(?:^import[^'\n]*from |import\()'(\.{1,2}\/[^']+\.ts)'/gm)].map((m) => path.resolve(path.dirname(file), m[1]));
    const evalTs = path.join(bench, 'eval.ts');
    const lazy = importsOf(evalTs).filter((f) => f.endsWith('semantic-eval.ts'));
    expect(lazy.length).toBe(1);
    const seen = new Set<string>();
    const walk = (f: string) => {
      if (seen.has(f) || !f.startsWith(bench)) return;
      seen.add(f);
      importsOf(f).forEach(walk);
    };
    lazy.forEach(walk);
    expect([...seen].filter((f) => importsOf(f).includes(evalTs)).map((f) => path.relative(bench, f))).toEqual([]);
  });
});
