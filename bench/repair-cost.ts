// What C#'s repair (core/chunk/lang/repair.ts, csharp-repair.ts) costs a cold pass, per tree, and how
// much of it ends where it started: over every .cs file of each --root (as the indexer reads it: the
// walker's rules and size cap), in one process, each text is parsed once by tree-sitter alone (the
// first parse) and once by parseCSharp (that parse, then the repair's re-parses where it met an
// error); the difference is the repair. A file whose repair kept its first tree (no attempt accepted,
// or the repaired tree rejected for losing declarations) paid for re-parses that changed nothing. CPU
// time of this process per file (process.cpuUsage), one round: the slowest files are named, so a
// heavy tail shows as such. `--trees FILE`: each file's outcome (the text its kept tree parsed, hashed,
// and the errors met) as TSV, to compare two builds' repairs file by file. Measuring only; the parse
// and the repair are core's.
//
//   node dist/bench/repair-cost.js --root DIR [--root DIR …] [--top 10] [--out FILE.md] [--trees FILE.tsv]
//   node dist/bench/repair-cost.js --compare A.tsv B.tsv [--root NAME=DIR …]   (two builds' --trees of the same roots: CPU and
//     outcomes, per tree; with the roots also the files with conditional blocks: what a one-branch view up front would save and change)
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { defaultSettings } from '../core/settings.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { classifyContent, splitLines } from '../core/scan/content.ts';
import { joinedLines } from '../core/index/prepare.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { parseCSharp } from '../core/chunk/lang/csharp-repair.ts';
import { markdownTable, optInt, optList, optString, parseArgs, runMain } from './lib/util.ts';

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface FileCost {
  path: string;
  bytes: number;
  firstMs: number;
  parseMs: number;
  /** The first parse met an error (the repair ran). */
  errored: boolean;
  /** The repair's tree was kept (else the first one was, whatever the re-parses found). */
  repairedKept: boolean;
  /** The text the kept tree parsed, hashed (sha256, 16 hex), and the errors the repair met. */
  parsedHash: string;
  errors: number;
}

async function measureTree(root: string, ts: TreeSitterHost): Promise<FileCost[]> {
  const settings = defaultSettings();
  const scan = await scanWorkspace(createNodeWorkspaceFs(root), settings);
  const out: FileCost[] = [];
  for (const f of scan.files) {
    if (f.lang !== 'csharp' || f.size > settings.max_indexed_file_bytes) continue;
    const b = new Uint8Array(fs.readFileSync(path.join(root, f.path)));
    const c = classifyContent(b, settings.binary_probe_bytes);
    if (c.kind === 'binary') continue;
    const text = joinedLines(c.text, splitLines(c.text));
    let t = cpuNow();
    const first = await ts.parse('c_sharp', text);
    const firstMs = cpuNow() - t;
    const errored = first.rootNode.hasError;
    first.delete();
    t = cpuNow();
    const r = await parseCSharp(ts, text);
    const parseMs = cpuNow() - t;
    r.tree.delete();
    const parsedHash = createHash('sha256').update(r.parsed).digest('hex').slice(0, 16);
    out.push({ path: f.path, bytes: b.length, firstMs, parseMs, errored, repairedKept: r.parsed !== text, parsedHash, errors: r.errors });
  }
  return out;
}

const sum = (xs: readonly FileCost[], f: (x: FileCost) => number) => xs.reduce((a, x) => a + f(x), 0);
const repairMs = (x: FileCost) => Math.max(0, x.parseMs - x.firstMs);
const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '–');

/** A --trees file's rows by `tree\tpath`. */
const readTrees = (f: string) => new Map(fs.readFileSync(f, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')).map((t) => [`${t[0]}\t${t[1]}`, t]));

/** Two builds' --trees files of the same roots: parseCSharp CPU of each, and the files whose kept text (or which tree was kept) differs. */
function compareTrees(a: string, b: string): string {
  const [ra, rb] = [readTrees(a), readTrees(b)];
  const rows: string[][] = [];
  for (const tree of new Set([...ra.values()].map((t) => t[0]))) {
    const keys = [...ra.keys()].filter((k) => k.startsWith(`${tree}\t`) && rb.has(k));
    const cpu = (r: Map<string, string[]>) => keys.reduce((s, k) => s + Number(r.get(k)![4]), 0);
    const changed = keys.filter((k) => ra.get(k)![6] !== rb.get(k)![6]);
    const flips = keys.filter((k) => ra.get(k)![5] !== rb.get(k)![5]);
    rows.push([tree, String(keys.length), ms(cpu(ra)), ms(cpu(rb)), (cpu(rb) / cpu(ra)).toFixed(3), String(changed.length), String(flips.length)]);
  }
  return markdownTable(['tree', 'files', 'parseCSharp CPU, first file', 'second file', 'second / first', 'files whose kept tree parsed another text', 'of them: the other tree kept (first ↔ repaired)'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

/**
 * With the trees' folders (`--root NAME=DIR`): of the files whose first parse met an error (in A), those
 * holding a conditional block (`#if`) — B's first-parse CPU on them is what parsing B's one-branch view
 * up front would save — and of the clean files, those with an `#else`/`#elif` branch, whose outlines
 * parsing it up front would change (a clean parse keeps both branches).
 */
function conditionalFiles(a: string, b: string, roots: Map<string, string>): string {
  const [ra, rb] = [readTrees(a), readTrees(b)];
  const rows: string[][] = [];
  for (const [tree, dir] of roots) {
    let errIf = 0, errIfFirst = 0, errIfA = 0, errIfB = 0, clean = 0, cleanElse = 0, all = 0;
    for (const [k, ta] of ra) {
      const tb = rb.get(k);
      if (ta[0] !== tree || !tb) continue;
      const text = fs.readFileSync(path.join(dir, ta[1]), 'utf8');
      all += Number(tb[4]);
      if (Number(ta[7]) > 0) {
        if (!/^[ \t]*#[ \t]*if\b/m.test(text)) continue;
        errIf++;
        errIfFirst += Number(tb[3]);
        errIfA += Number(ta[4]);
        errIfB += Number(tb[4]);
      } else {
        clean++;
        if (/^[ \t]*#[ \t]*(?:else|elif)\b/m.test(text)) cleanElse++;
      }
    }
    rows.push([tree, String(errIf), ms(errIfA), ms(errIfB), `${ms(errIfFirst)} (${pct(errIfFirst, all)})`, `${cleanElse} of ${clean}`]);
  }
  return markdownTable(
    ['tree', 'errored files with #if', 'their parseCSharp CPU, first file', 'second file', 'their first parses in the second (saved by a view up front; share of its parseCSharp)', 'clean files with #else/#elif (outline changed by a view up front)'],
    rows, ['l', 'r', 'r', 'r', 'r', 'r'],
  );
}

async function main(argv: string[]): Promise<number> {
  const { opts, positional } = parseArgs(argv, ['compare']);
  if (opts.compare) {
    console.log(compareTrees(positional[0], positional[1]));
    const roots = new Map(optList(opts, 'root').map((r) => r.split('=') as [string, string]));
    if (roots.size) console.log(`\n${conditionalFiles(positional[0], positional[1], roots)}`);
    return 0;
  }
  const roots = optList(opts, 'root').map((r) => path.resolve(r));
  if (!roots.length) throw new Error('usage: --root DIR [--root DIR …] [--top 10] [--out FILE.md]');
  const top = optInt(opts, 'top', 10);
  const ts = new TreeSitterHost(createNodeGrammarSource());
  // The grammar's first compile is not a file's cost.
  (await ts.parse('c_sharp', 'class A { }')).delete();
  const summary: string[][] = [];
  const tails: string[] = [];
  const trees: string[] = ['tree\tpath\tbytes\tfirst_ms\tparse_ms\tkept\tparsed_sha256\terrors'];
  for (const root of roots) {
    const files = await measureTree(root, ts);
    for (const x of files) trees.push([path.basename(root), x.path, x.bytes, x.firstMs.toFixed(1), x.parseMs.toFixed(1), x.repairedKept ? 'repaired' : 'first', x.parsedHash, x.errors].join('\t'));
    const all = sum(files, (x) => x.parseMs);
    const repaired = files.filter((x) => x.errored);
    const wasted = repaired.filter((x) => !x.repairedKept);
    const rep = sum(files, repairMs);
    summary.push([
      path.basename(root), files.length.toLocaleString('en-US'), `${(sum(files, (x) => x.bytes) / 1048576).toFixed(1)} MB`, ms(all), ms(sum(files, (x) => x.firstMs)),
      `${ms(rep)} (${pct(rep, all)})`, `${repaired.length} (${pct(repaired.length, files.length)})`,
      `${wasted.length}: ${ms(sum(wasted, repairMs))} (${pct(sum(wasted, repairMs), all)})`,
    ]);
    const slow = [...files].sort((a, b) => repairMs(b) - repairMs(a)).slice(0, top);
    tails.push(`Slowest repairs in ${path.basename(root)}:\n\n${markdownTable(['file', 'KB', 'first parse', 'with repair', 'tree kept'], slow.map((x) => [x.path, (x.bytes / 1024).toFixed(0), ms(x.firstMs), ms(x.parseMs), x.repairedKept ? 'repaired' : 'first']), ['l', 'r', 'r', 'r', 'l'])}`);
  }
  const load = os.loadavg()[0].toFixed(1);
  const md = [
    `# C#'s parse repair: what it costs and how much of it keeps the first tree`,
    '',
    `${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load ${load} at the end; CPU time of one process, one round, per file. \`node dist/bench/repair-cost.js ${roots.map((r) => `--root ${r}`).join(' ')}\`.`,
    '',
    markdownTable(['tree', '.cs files', 'source', 'parseCSharp CPU', 'first parses', 'repair (re-parses)', 'files that met an error', 'of them kept the first tree: their repair'], summary, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']),
    '',
    ...tails.flatMap((t) => [t, '']),
  ].join('\n');
  const treesOut = optString(opts, 'trees');
  if (treesOut) fs.writeFileSync(treesOut, `${trees.join('\n')}\n`);
  const out = optString(opts, 'out');
  if (out) fs.writeFileSync(out, md);
  console.log(md);
  return 0;
}

await runMain(import.meta.url, 'repair-cost', main);
