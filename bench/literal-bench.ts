// Literal and regex search at scale, beside ripgrep: a generated .NET solution (or --corpus DIR),
// indexed with the literal index off, then on (filled from the stored text); the trigram index's size
// against the source bytes and its fill time; search latency for literals and regexes with a trigram
// prefilter (a first page, 10 hits, in a warm process), the same queries without the index (a scan of
// the stored text) on a slice, and ripgrep for each query (one rg process per query, over the same
// tree) in the same run — ratios of medians, since the machine is shared; the hci rows share one
// session's text cache of inflated files, as a long-running host does, and a slice runs again with
// that cache empty (a new workspace per query); and the correctness oracle:
// hci's file:line pairs against ripgrep's for every query, both ignoring case (hci's case_sensitive
// false, rg -i; the contract's default is smart case) (equal when hci checked every candidate;
// when it stopped at its hit cap, its pairs must be a subset). Also the CJK fixture's figure:
// every 2–6-character substring of its CJK runs at rank ≤ 3, and the cjk column's cost on the corpus
// (bench/lib/cjk-cost.ts: index growth against format 5's keyword table). `npm run bench` runs it as its literal
// section (bench.ts) on a 2,000-file solution; the 50k-chunk target:
//   node dist/bench/literal-bench.js --files 13000 [--corpus DIR] [--queries 40] [--scan-queries 8] [--cold-queries 10] [--record]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import type { SearchRequest } from '../core/contract/search.ts';
import { cjkCoverage } from './lib/cjk-coverage.ts';
import { cjkColumnCost } from './lib/cjk-cost.ts';
import { generateCorpus, mulberry32 } from './corpus-gen.ts';
import { findRipgrep, rgFileArgs, ripgrepVersion } from './baselines/grep-and-windows.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { copyTree, fmtMB, fmtMs, fmtRatio, isMain, latencyStats, markdownTable, median, optInt, optString, parseArgs, repoRoot, writeJson } from './lib/util.ts';

interface Query {
  kind: 'literal' | 'regex';
  pattern: string;
}

const REGEXES = [
  'Get\\w+Async\\(', 'class \\w+Validator\\b', 'I\\w+Repository\\b', 'public (async )?Task<\\w+>', 'throw new \\w+Exception\\(',
  'private readonly I\\w+ _\\w+;', '(Create|Update|Cancel)\\w+Command\\b', 'x:Name="\\w+"', '@page "/\\w+', '"\\w+Connection\\w*"\\s*:',
  'await _\\w+\\.\\w+Async\\(', 'HasMaxLength\\(\\d+\\)', 'Mark\\d+x\\d+', 'services\\.Add\\w+<', 'Assert\\.\\w+\\(',
];

/** How the query sample is drawn (the report says it; SEED is the --seed). */
const SAMPLE_HOW =
  'literals: mulberry32(SEED) picks a file of the indexed files (sorted by path), a line of it with 8+ non-blank characters, a length of 6–20 and a start — ' +
  'every substring with a letter, no duplicates, no filtering by speed or hit count; regexes: a fixed list of 15, then identifier-shaped ones ' +
  '(5-letter prefix, \\w*, 3-letter suffix) from identifiers of files picked by mulberry32(SEED + 1)';

/** A short digest of the queries (FNV-1a over kind and pattern): equal digests, equal samples. */
function sampleDigest(queries: readonly Query[]): string {
  let h = 0x811c9dc5;
  for (const q of queries) {
    for (const ch of `${q.kind}\u0000${q.pattern}\u0001`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** Seeded literal queries: substrings (6–20 characters, with a letter) of random lines of random files. */
function literalQueries(files: readonly string[], root: string, n: number, seed: number): Query[] {
  const rand = mulberry32(seed);
  const out: Query[] = [];
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const file = files[Math.floor(rand() * files.length)];
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n').filter((l) => l.trim().length >= 8);
    if (!lines.length) continue;
    const line = lines[Math.floor(rand() * lines.length)].trim();
    const len = 6 + Math.floor(rand() * 15);
    const start = Math.floor(rand() * Math.max(1, line.length - len));
    const lit = line.slice(start, start + len).trim();
    if (lit.length >= 6 && /\p{L}/u.test(lit) && !out.some((q) => q.pattern === lit)) out.push({ kind: 'literal', pattern: lit });
  }
  return out;
}

/** Regex queries: the fixed list, plus identifier-shaped ones from the corpus (a prefix, \w*, a suffix). */
function regexQueries(files: readonly string[], root: string, n: number, seed: number): Query[] {
  const rand = mulberry32(seed + 1);
  const out: Query[] = REGEXES.map((pattern) => ({ kind: 'regex', pattern }));
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const text = fs.readFileSync(path.join(root, files[Math.floor(rand() * files.length)]), 'utf8');
    const idents = text.match(/\b[A-Z][A-Za-z]{9,}\b/g) ?? [];
    if (!idents.length) continue;
    const id = idents[Math.floor(rand() * idents.length)];
    const pattern = `${id.slice(0, 5)}\\w*${id.slice(-3)}\\b`;
    if (!out.some((q) => q.pattern === pattern)) out.push({ kind: 'regex', pattern });
  }
  return out.slice(0, n);
}

function ripgrep(rg: string, root: string, q: Query): { ms: number; lines: Set<string> } {
  const t = performance.now();
  const r = spawnSync(rg, ['-n', '-i', '--no-heading', '--with-filename', '--crlf', ...(q.kind === 'literal' ? ['-F'] : []), '-e', q.pattern, ...rgFileArgs(), '.'], {
    cwd: root, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024,
  });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed for ${q.pattern}: ${r.stderr}`);
  const lines = new Set<string>();
  for (const l of r.stdout.split('\n')) {
    const m = /^(?:\.\/)?(.+?):(\d+):/.exec(l);
    if (m) lines.add(`${m[1]}:${m[2]}`);
  }
  return { ms, lines };
}

async function timed(w: HciWorkspace, req: SearchRequest): Promise<number> {
  const t = performance.now();
  const r = await w.search(req);
  if (r.status === 'error') throw new Error(`hci ${req.mode} ${req.query}: ${r.error?.code} ${r.error?.message}`);
  return performance.now() - t;
}

/** Every page of a search: its file:line pairs, and whether the literal channel checked every candidate. */
async function allPairs(w: HciWorkspace, q: Query): Promise<{ lines: Set<string>; complete: boolean }> {
  const lines = new Set<string>();
  let cursor: string | undefined;
  let complete = true;
  for (let page = 0; page < 100; page++) {
    const r = await w.search({ query: q.pattern, mode: q.kind, case_sensitive: false, limit: 50, cursor });
    if (/more places than one search collects/.test(r.hint ?? '')) complete = false;
    for (const h of r.hits) for (const l of h.match_lines ?? []) lines.add(`${h.path}:${l}`);
    if (!r.next_cursor) break;
    cursor = r.next_cursor;
  }
  return { lines, complete };
}

/** One query's timings and what its literal search did (read after the timed runs, from explain). */
interface PerQuery extends Query {
  firstMs: number;
  repeatMs: number;
  candidateFiles?: number;
  checkedFiles?: number;
  matchedFiles?: number;
  complete?: boolean;
}

/** The literal channel's counts for a query, from explain of its first hit (none when it has no hit). */
async function literalRun(w: HciWorkspace, req: SearchRequest): Promise<Partial<PerQuery>> {
  const r = await w.search(req);
  const hit = r.hits[0];
  if (!hit) return {};
  // The request recalled from the hit id (the search just made): its case_sensitive too.
  const e = await w.explain(hit.hit_id);
  const lit = (e.explanation?.channels as Record<string, Record<string, unknown>> | undefined)?.literal;
  if (!lit) return {};
  return { candidateFiles: Number(lit.candidate_files), checkedFiles: Number(lit.checked_files), matchedFiles: Number(lit.matched_files), complete: lit.complete === true };
}

/** The n slowest first-time queries of a kind, for the report: pattern, ms, files checked / matched. */
function slowest(rows: readonly PerQuery[], kind: Query['kind'], n: number): string {
  return [...rows].filter((r) => r.kind === kind).sort((a, b) => b.firstMs - a.firstMs).slice(0, n)
    .map((r) => `\`${r.pattern}\` ${fmtMs(r.firstMs)} (repeated ${fmtMs(r.repeatMs)}; ${r.checkedFiles ?? 0} files checked, ${r.matchedFiles ?? 0} matched${r.complete === false ? ', stopped at the hit cap' : ''})`)
    .join('; ');
}

/** The CJK fixture (test/fixtures/cjk): how many of its 2–6-character CJK substrings pass (bench/lib/cjk-coverage.ts). */
async function cjkFigure(): Promise<{ substrings: number; passed: number; tookMs: number }> {
  const fixture = path.join(repoRoot(), 'test', 'fixtures', 'cjk');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-cjk-bench-'));
  copyTree(fixture, dir);
  const t0 = performance.now();
  const w = await openWorkspace(dir);
  try {
    await w.index();
    const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.name === '.hci' ? [] : e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    const { substrings, failures } = await cjkCoverage(w, walk(dir).map((f) => fs.readFileSync(f, 'utf8')));
    return { substrings, passed: substrings - failures.length, tookMs: performance.now() - t0 };
  } finally {
    w.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runLiteralBench(argv: string[]): Promise<{ result: Record<string, unknown>; markdown: string }> {
  const { opts } = parseArgs(argv, ['record', 'keep']);
  const files = optInt(opts, 'files', 2000);
  const nQueries = optInt(opts, 'queries', 30);
  const nScan = optInt(opts, 'scan-queries', 6);
  const nCold = optInt(opts, 'cold-queries', 10);
  const seed = optInt(opts, 'seed', 18);
  const corpusArg = optString(opts, 'corpus');
  const outDir = path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results'));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const commit = commitInfo();
  const loadAvgStart = os.loadavg();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-literal-bench-'));
  try {
    const root = path.join(work, 'corpus');
    if (corpusArg) copyTree(path.resolve(corpusArg), root);
    else generateCorpus(root, { files, seed: optInt(opts, "corpus-seed", 1) });
    log(`literal bench: corpus ${corpusArg ?? `generated ${files} files`} in ${root}`);

    // 1. Literal index off: the index as it is by default, and the scan that answers without it.
    const off = await openWorkspace(root, { settings: { literal_index: false, literal_budget_ms: 600_000 } });
    const tIndex = performance.now();
    const summary = await off.index();
    const indexMs = performance.now() - tIndex;
    const statusOff = await off.status();
    const sourceBytes = statusOff.size?.source_bytes ?? 0;
    const bytesOff = statusOff.size?.index_bytes ?? 0;
    const fileList = listIndexed(root);
    const literals = literalQueries(fileList, root, nQueries, seed);
    const regexes = regexQueries(fileList, root, nQueries, seed);
    const queries = [...literals, ...regexes];
    const sample = sampleDigest(queries);
    log(`  ${summary.files_indexed} files, ${statusOff.index?.chunks} chunks, ${fmtMB(sourceBytes)} source; ${literals.length} literals, ${regexes.length} regexes (sample ${sample})`);
    const scanSlice = [...literals.slice(0, Math.ceil(nScan / 2)), ...regexes.slice(0, Math.floor(nScan / 2))];
    const scanMs: number[] = [];
    for (const q of scanSlice) scanMs.push(await timed(off, { query: q.pattern, mode: q.kind, case_sensitive: false, limit: 10 }));
    off.close();
    log('  CJK column cost…');
    const cjkCost = await cjkColumnCost(root);

    // 2. Literal index on: filled from the stored text by the next pass.
    const on = await openWorkspace(root, { settings: { literal_index: true, literal_budget_ms: 600_000 } });
    const tFill = performance.now();
    await on.index();
    const fillMs = performance.now() - tFill;
    const bytesOn = (await on.status()).size?.index_bytes ?? 0;

    // 3. Latency (a first page of 10, each query new to the process, then repeated), ripgrep interleaved.
    const rg = findRipgrep(optString(opts, 'rg'));
    const rows: Record<'literal' | 'regex', { first: number[]; repeat: number[]; rg: number[] }> = { literal: { first: [], repeat: [], rg: [] }, regex: { first: [], repeat: [], rg: [] } };
    const oracle = { equal: 0, subset: 0, differ: [] as string[], checked: 0 };
    const perQuery: PerQuery[] = [];
    for (const q of queries) {
      const req: SearchRequest = { query: q.pattern, mode: q.kind, case_sensitive: false, limit: 10 };
      const firstMs = await timed(on, req);
      const repeatMs = await timed(on, req);
      rows[q.kind].first.push(firstMs);
      rows[q.kind].repeat.push(repeatMs);
      perQuery.push({ ...q, firstMs, repeatMs, ...(await literalRun(on, req)) });
      if (rg) {
        const ans = ripgrep(rg, root, q);
        rows[q.kind].rg.push(ans.ms);
        const mine = await allPairs(on, q);
        const theirs = new Set([...ans.lines].filter((l) => fileSet(fileList).has(l.slice(0, l.lastIndexOf(':')))));
        oracle.checked++;
        const sub = [...mine.lines].every((l) => theirs.has(l));
        if (mine.complete && sub && mine.lines.size === theirs.size) oracle.equal++;
        else if (!mine.complete && sub) oracle.subset++;
        else oracle.differ.push(`${q.kind} ${q.pattern}: hci ${mine.lines.size}, rg ${theirs.size}${mine.complete ? '' : ' (hci stopped early)'}`);
      }
    }
    on.close();

    // 4. Cold text cache: the searches above share the session's cache of inflated texts
    // (core/search/literal/text-cache.ts), as a long-running host's do; here a slice of the queries,
    // each in a new workspace whose first search (a pattern of the same kind that no file holds) has
    // prepared the session and, for a regex, loaded the engine (a literal needs none: matcher.ts),
    // so every candidate's blob is read and inflated.
    const coldSlice = [...spread(literals, Math.ceil(nCold / 2)), ...spread(regexes, Math.floor(nCold / 2))];
    const coldMs: Record<'literal' | 'regex', number[]> = { literal: [], regex: [] };
    for (const q of coldSlice) {
      const fresh = await openWorkspace(root, { settings: { literal_index: true, literal_budget_ms: 600_000 } });
      try {
        await timed(fresh, { query: 'qzxjvkqzxjvk', mode: q.kind, case_sensitive: false, limit: 10 });
        coldMs[q.kind].push(await timed(fresh, { query: q.pattern, mode: q.kind, case_sensitive: false, limit: 10 }));
      } finally {
        fresh.close();
      }
    }
    log('  CJK fixture…');
    const cjk = await cjkFigure();

    const stat = (xs: number[]) => latencyStats(xs);
    const result = {
      commit, machine: { node: process.version, cpus: os.cpus().length, loadAvgStart, loadAvgEnd: os.loadavg() },
      corpus: { files: summary.files_indexed, chunks: statusOff.index?.chunks, sourceBytes }, indexMs,
      size: { withoutLiteralIndex: bytesOff, withLiteralIndex: bytesOn, trigramBytes: bytesOn - bytesOff, trigramVsSource: (bytesOn - bytesOff) / sourceBytes, fillMs },
      literal: { first: stat(rows.literal.first), repeat: stat(rows.literal.repeat), rg: stat(rows.literal.rg) },
      regex: { first: stat(rows.regex.first), repeat: stat(rows.regex.repeat), rg: stat(rows.regex.rg) },
      scan: { queries: scanSlice.length, ...stat(scanMs) },
      coldCache: { literal: stat(coldMs.literal), regex: stat(coldMs.regex) },
      oracle, cjk, cjkCost, rg: rg ? ripgrepVersion(rg) : null, sample: { seed, digest: sample, how: SAMPLE_HOW }, queries: perQuery,
    };
    const line = (what: string, s: { first: number[]; repeat: number[]; rg: number[] }) => {
      const f = stat(s.first);
      const r = stat(s.rg);
      return [what, `${s.first.length}`, `${fmtMs(f.p50)} / ${fmtMs(f.p95)}`, `${fmtMs(stat(s.repeat).p50)} / ${fmtMs(stat(s.repeat).p95)}`, rg ? `${fmtMs(r.p50)} / ${fmtMs(r.p95)}` : '–', rg ? fmtRatio(median(s.first) / median(s.rg)) : '–'];
    };
    const markdown = [
      `### Literal and regex search (${summary.files_indexed} files, ${statusOff.index?.chunks} chunks, ${fmtMB(sourceBytes)} source; commit ${commit.sha?.slice(0, 7)}${commit.dirty ? '+' : ''}, load ${loadAvgStart[0].toFixed(1)}–${os.loadavg()[0].toFixed(1)})`,
      '',
      markdownTable(['query (first page of 10)', 'n', 'hci p50 / p95', 'hci repeated p50 / p95', `${rg ? ripgrepVersion(rg) : 'ripgrep'} p50 / p95`, 'hci ÷ rg (medians)'], [
        line('literal, trigram index', rows.literal),
        line('regex, trigram prefilter', rows.regex),
        ...(['literal', 'regex'] as const).map((k) => [
          `${k}, cold text cache (a new workspace per query)`, `${coldMs[k].length}`, `${fmtMs(stat(coldMs[k]).p50)} / ${fmtMs(stat(coldMs[k]).p95)}`, '–', '–',
          rg && coldMs[k].length ? fmtRatio(median(coldMs[k]) / median(rows[k].rg)) : '–',
        ]),
        ['literal or regex, no index (scan of the stored text)', `${scanSlice.length}`, `${fmtMs(stat(scanMs).p50)} / ${fmtMs(stat(scanMs).p95)}`, '–', '–', '–'],
      ], ['l', 'r', 'r', 'r', 'r', 'r']),
      '',
      `Sample (the same in every run and branch for the same --files, --corpus-seed, --seed and --queries): ${SAMPLE_HOW.replace('SEED', String(seed))}; digest ${sample}.`,
      `Literal index (files_tri: FTS5 trigram, detail=none, one row per file; files_grams: a gram filter per file): ${fmtMB(bytesOn - bytesOff)} = **${(((bytesOn - bytesOff) / sourceBytes)).toFixed(2)}x the source bytes** ` +
        `(index ${fmtMB(bytesOff)} → ${fmtMB(bytesOn)}, ${(bytesOff / sourceBytes).toFixed(2)}x → ${(bytesOn / sourceBytes).toFixed(2)}x source), filled from the stored text in ${fmtMs(fillMs)}.`,
      `Slowest first-time literals: ${slowest(perQuery, 'literal', 3)}. Slowest regexes: ${slowest(perQuery, 'regex', 3)}.`,
      rg ? `Oracle (ripgrep, same tree, -i, --crlf): ${oracle.equal} of ${oracle.checked} queries give the same file:line pairs; ${oracle.subset} stopped at the hit cap with a subset of ripgrep's pairs; ${oracle.differ.length} differ${oracle.differ.length ? `: ${oracle.differ.join('; ')}` : ''}.` : 'Oracle skipped: `rg` not found.',
      `CJK column on this corpus (${cjkCost.cjkChunks} of ${cjkCost.chunks} chunks with CJK text): index ${fmtMB(cjkCost.withoutCjkBytes)} with format 5's five-column keyword table → ${fmtMB(cjkCost.withCjkBytes)} with the cjk column = **${(cjkCost.growth * 100).toFixed(2)}% growth** (both rebuilt from the stored text and vacuumed).`,
      `CJK fixture: ${cjk.passed} of ${cjk.substrings} 2–6-character substrings of its CJK runs found at rank ≤ 3 (top 3 all hold it; all its places in the top 3 when it sits in ≤ 3 chunks).`,
    ].join('\n');
    fs.mkdirSync(outDir, { recursive: true });
    writeJson(path.join(outDir, `bench-literal-${summary.files_indexed}.json`), result);
    fs.writeFileSync(path.join(outDir, `bench-literal-${summary.files_indexed}.md`), `${markdown}\n`);
    if (opts.record === true) recordResult(`bench-literal-${corpusArg ? path.basename(corpusArg) : files}`, result, markdown);
    return { result, markdown };
  } finally {
    if (opts.keep !== true) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The indexed files without secret chunks (their secret lines are not stored), as ripgrep sees them: relative paths. */
function listIndexed(root: string): string[] {
  const r = spawnSync('sqlite3', [path.join(root, '.hci', 'index.sqlite'), 'SELECT path FROM files WHERE secret_chunks = 0 ORDER BY path'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status === 0) return r.stdout.split('\n').filter(Boolean);
  throw new Error(`the literal bench reads the file list with sqlite3: ${r.stderr}`);
}

/** n items of xs, evenly spaced (all of them when n ≥ their number). */
function spread<T>(xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);
}

const fileSets = new WeakMap<readonly string[], Set<string>>();
function fileSet(files: readonly string[]): Set<string> {
  let s = fileSets.get(files);
  if (!s) fileSets.set(files, (s = new Set(files)));
  return s;
}

if (isMain(import.meta.url)) {
  runLiteralBench(process.argv.slice(2)).then(
    ({ markdown }) => process.stdout.write(`${markdown}\n`),
    (e) => {
      process.stderr.write(`literal bench: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
