// Alternated A/B of the explorer's search as you type (bench/web-demo-bench.ts): two app builds
// (copies of web-demo's dist, e.g. main's and a branch's) measured one after the other, A B A B …, in
// one session, so both see the same load; then per run and pooled over the runs of each: keystroke →
// painted p50/p95, the first ten queries' p95, the answer in the page, the Worker's search and the
// page's part (answer → painted). Under load the absolute figures are many times the quiet ones: the
// ratio B/A of the pooled figures is the result. Owns running the pairs and this summary; what one
// run measures is web-demo-bench.ts's.
//
//   npm run build && node dist/bench/web-demo-ab.js --a DIR --b DIR [--pairs 3] [--corpus DIR]
//     [--work DIR] [--md out.md] [--title '…'] [--from 'A1.json,B1.json,…'] (summarize runs made before)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isMain, optInt, optString, parseArgs, percentile, repoRoot } from './lib/util.ts';

interface Keystroke { query: string; ms: number; answered_ms: number; worker_ms: number }
interface Run { label: string; file: string; load: number[]; commit?: { sha: string | null }; keys: Keystroke[]; firstSamples: number }

function readRun(label: string, file: string): Run {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { label, file: path.basename(file), load: r.load, commit: r.commit, keys: r.typing_ms.keystrokes, firstSamples: r.typing_ms.first_queries?.samples ?? r.typing_ms.keystrokes.length };
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');

function figures(keys: Keystroke[], first: Keystroke[]) {
  const ms = keys.map((k) => k.ms);
  return {
    n: keys.length,
    p50: percentile(ms, 50), p95: percentile(ms, 95),
    first_p95: percentile(first.map((k) => k.ms), 95),
    answer_p95: percentile(keys.map((k) => k.answered_ms), 95),
    worker_p50: percentile(keys.map((k) => k.worker_ms), 50), worker_p95: percentile(keys.map((k) => k.worker_ms), 95),
    page_p50: percentile(keys.map((k) => k.ms - k.answered_ms), 50), page_p95: percentile(keys.map((k) => k.ms - k.answered_ms), 95),
  };
}

type Figures = ReturnType<typeof figures>;
const row = (name: string, load: string, f: Figures, firstKeys = '') =>
  `| ${name} | ${load} | ${f.n} | ${f1(f.p50)} / ${f1(f.p95)} | ${f1(f.first_p95)} | ${f1(f.answer_p95)} | ${f1(f.worker_p50)} / ${f1(f.worker_p95)} | ${f1(f.page_p50)} / ${f1(f.page_p95)} | ${firstKeys} |`;
/** A run's first three keystrokes (the first after the reopen): painted ms (Worker ms). */
const firstKeys = (keys: Keystroke[]) => keys.slice(0, 3).map((k) => `${k.query} ${Math.round(k.ms)} (${k.worker_ms})`).join(', ');

export function summarize(runs: Run[], title: string): string {
  const head = '| run | load (1 min) | keystrokes | keystroke→painted p50 / p95 | first 10 queries p95 | answer in page p95 | Worker search p50 / p95 | page part (answer→painted) p50 / p95 | first 3 keys after the reopen, painted (Worker) ms |\n|---|---|---|---|---|---|---|---|---|';
  const per = runs.map((r) => row(r.label, String(r.load[0]), figures(r.keys, r.keys.slice(0, r.firstSamples)), firstKeys(r.keys)));
  const pooled = (side: string) => {
    const rs = runs.filter((r) => r.label.startsWith(side));
    return figures(rs.flatMap((r) => r.keys), rs.flatMap((r) => r.keys.slice(0, r.firstSamples)));
  };
  const a = pooled('A');
  const b = pooled('B');
  const ratio = (k: keyof Figures) => (a[k] ? (b[k] / a[k]).toFixed(2) : '–');
  const perRun = (side: string) => runs.filter((r) => r.label.startsWith(side)).map((r) => f1(figures(r.keys, []).p95)).join(', ');
  return [
    `# ${title}`,
    '',
    `Runs (JSON beside this file): ${runs.map((r) => `${r.label} ${r.file}${r.commit?.sha ? ` (bench at ${r.commit.sha.slice(0, 7)})` : ''}`).join('; ')}.`,
    '',
    head,
    ...per,
    row('**pooled A**', '', a),
    row('**pooled B**', '', b),
    '',
    `B/A, pooled: keystroke→painted p50 ${ratio('p50')}, p95 ${ratio('p95')}; first 10 queries p95 ${ratio('first_p95')}; Worker search p50 ${ratio('worker_p50')}, p95 ${ratio('worker_p95')}; page part p50 ${ratio('page_p50')}, p95 ${ratio('page_p95')}.`,
    `Per-run p95: A ${perRun('A')}; B ${perRun('B')}.`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { opts } = parseArgs(process.argv.slice(2));
  const title = optString(opts, 'title') ?? 'Explorer typing, alternated A/B';
  const from = optString(opts, 'from');
  let runs: Run[];
  if (from) {
    runs = from.split(',').map((f) => readRun(path.basename(f).match(/([AB]\d+)\.json$/)?.[1] ?? path.basename(f), f));
  } else {
    const a = optString(opts, 'a');
    const b = optString(opts, 'b');
    if (!a || !b) throw new Error('--a DIR and --b DIR (app builds), or --from A1.json,B1.json,…');
    const work = optString(opts, 'work') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hci-web-ab-'));
    const corpus = optString(opts, 'corpus');
    runs = [];
    for (let i = 1; i <= optInt(opts, 'pairs', 3); i++) {
      for (const [side, app] of [['A', a], ['B', b]] as const) {
        const json = path.join(work, `${side}${i}.json`);
        const args = [path.join(repoRoot(), 'dist/bench/web-demo-bench.js'), '--runs', '1', '--more', '--no-bare', '--app', app, '--json', json, ...(corpus ? ['--corpus', corpus] : [])];
        console.log(`${side}${i}: ${app} (load ${os.loadavg()[0].toFixed(1)})`);
        const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
        if (r.status !== 0 || !fs.existsSync(json)) throw new Error(`${side}${i} failed (exit ${r.status})`);
        runs.push(readRun(`${side}${i}`, json));
      }
    }
  }
  const md = summarize(runs, title);
  console.log(md);
  const out = optString(opts, 'md');
  if (out) fs.writeFileSync(out, md);
}

if (isMain(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
