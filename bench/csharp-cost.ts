// Where a parse worker's C# time goes: over every .cs file of a tree (as the indexer reads it: same
// extensions and size cap), in one process, rounds of
//   first   — tree-sitter's parse of each text, once
//   parse   — parseCSharp (tree-sitter's parse, and the repair's re-parses where the grammar met an error)
//   extract — extractCSharp: the same parse, then the outline walk (csharp.ts) over the tree
//   cursor  — the same parse, then a TreeCursor visit of every node reading its type and start row
//             (what any walk of the whole tree costs at least)
//   named   — the same parse, then a visit of every node through Node.namedChildren (node objects)
// each round's CPU time (process.cpuUsage) — so walk = extract − parse. Also the share of files the
// repair re-parsed, and the outline's node count. Rounds alternate the passes (parse, extract, cursor,
// named, parse, …), medians reported. Owns only this measurement; the parse and the walk are core's.
//
//   node dist/bench/csharp-cost.js --root DIR [--rounds 5] [--out FILE.md]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Node, TreeCursor } from 'web-tree-sitter';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { defaultSettings } from '../core/settings.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { classifyContent, splitLines } from '../core/scan/content.ts';
import { joinedLines } from '../core/index/prepare.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { parseCSharp } from '../core/chunk/lang/csharp-repair.ts';
import { extractCSharp } from '../core/chunk/lang/csharp.ts';
import type { OutlineNode } from '../core/chunk/outline.ts';
import { markdownTable, runMain } from './lib/util.ts';

const cpuMs = async (fn: () => Promise<void>): Promise<number> => {
  const c = process.cpuUsage();
  await fn();
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function visitCursor(c: TreeCursor): number {
  let n = 0;
  let rows = 0;
  for (;;) {
    n++;
    rows += c.nodeType.length + c.startPosition.row;
    if (c.gotoFirstChild()) continue;
    while (!c.gotoNextSibling()) if (!c.gotoParent()) return n + (rows & 0);
  }
}

function visitNamed(node: Node): number {
  let n = 1;
  for (const ch of node.namedChildren) if (ch) n += visitNamed(ch) + (ch.type.length & 0) + (ch.startPosition.row & 0);
  return n;
}

const countNodes = (nodes: readonly OutlineNode[]): number => nodes.reduce((n, x) => n + 1 + countNodes(x.children), 0);

export async function main(argv: string[]): Promise<number> {
  let root = '';
  let rounds = 5;
  let out = '';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') root = path.resolve(argv[++i]);
    else if (a === '--rounds') rounds = Number(argv[++i]);
    else if (a === '--out') out = argv[++i];
  }
  if (!root) throw new Error('usage: --root DIR [--rounds N] [--out FILE.md]');
  const settings = defaultSettings();
  const scan = await scanWorkspace(createNodeWorkspaceFs(root), settings);
  const texts: string[] = [];
  let bytes = 0;
  for (const f of scan.files) {
    if (f.lang !== 'csharp' || f.size > settings.max_indexed_file_bytes) continue;
    const b = new Uint8Array(fs.readFileSync(path.join(root, f.path)));
    const c = classifyContent(b, settings.binary_probe_bytes);
    if (c.kind === 'binary') continue;
    bytes += b.length;
    texts.push(joinedLines(c.text, splitLines(c.text)));
  }
  const ts = new TreeSitterHost(createNodeGrammarSource());
  await ts.preload(['c_sharp']);
  // Facts of the corpus (once): files the repair re-parsed, outline nodes, tree nodes.
  let repairedFiles = 0;
  let outlineNodes = 0;
  let treeNodes = 0;
  let namedNodes = 0;
  for (const text of texts) {
    const p = await parseCSharp(ts, text);
    if (p.errors) repairedFiles++;
    const cur = p.tree.walk();
    treeNodes += visitCursor(cur);
    cur.delete();
    namedNodes += visitNamed(p.tree.rootNode);
    p.tree.delete();
    const o = await extractCSharp({ path: 'x.cs', lang: 'csharp', lines: splitLines(text), text }, ts);
    outlineNodes += o ? countNodes(o.nodes) : 0;
  }
  const inputs = texts.map((text) => ({ path: 'x.cs', lang: 'csharp', lines: splitLines(text), text }));
  const passes: Record<string, () => Promise<void>> = {
    first: async () => {
      for (const t of texts) (await ts.parse('c_sharp', t)).delete();
    },
    parse: async () => {
      for (const t of texts) (await parseCSharp(ts, t)).tree.delete();
    },
    extract: async () => {
      for (const i of inputs) await extractCSharp(i, ts);
    },
    cursor: async () => {
      for (const t of texts) {
        const p = await parseCSharp(ts, t);
        const c = p.tree.walk();
        visitCursor(c);
        c.delete();
        p.tree.delete();
      }
    },
    named: async () => {
      for (const t of texts) {
        const p = await parseCSharp(ts, t);
        visitNamed(p.tree.rootNode);
        p.tree.delete();
      }
    },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(passes).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [k, fn] of Object.entries(passes)) times[k].push(await cpuMs(fn));
  const m = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
  const row = (name: string, what: string, ms: number, xs?: number[]) => [name, what, `${ms.toFixed(0)} ms`, `${((100 * ms) / m.extract).toFixed(0)}%`, xs ? fmt(xs) : '(difference of medians)'];
  const md = [
    `# C# in a parse worker: tree-sitter's parse vs the outline walk`,
    '',
    `${root}: ${texts.length} .cs files, ${(bytes / 1e6).toFixed(1)} MB; ${repairedFiles} of them met a grammar error (the repair re-parsed them); ${treeNodes.toLocaleString('en')} tree nodes (${namedNodes.toLocaleString('en')} named), ${outlineNodes.toLocaleString('en')} outline nodes. ${rounds} rounds, passes alternated, CPU time of this process; ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)} at the end. \`node dist/bench/csharp-cost.js --root DIR --rounds ${rounds}\`.`,
    '',
    markdownTable(
      ['pass', 'what', 'CPU, median', 'of extract', 'rounds'],
      [
        row('extract', 'extractCSharp: parse + repair + outline walk (what the worker runs)', m.extract, times.extract),
        row('parse', 'parseCSharp alone (parse + repair re-parses)', m.parse, times.parse),
        row('first', 'tree-sitter parse of each text once (no repair)', m.first, times.first),
        row('repair', 'parse − first: the repair of files that met an error', m.parse - m.first),
        row('walk', 'extract − parse: the outline walk (csharp.ts)', m.extract - m.parse),
        row('cursor', 'parse + a TreeCursor visit of every node', m.cursor, times.cursor),
        row('cursor visit', 'cursor − parse', m.cursor - m.parse),
        row('named', 'parse + a namedChildren visit of every node', m.named, times.named),
        row('named visit', 'named − parse', m.named - m.parse),
      ],
      ['l', 'l', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n');
  process.stdout.write(md);
  if (out) fs.writeFileSync(out, md);
  return 0;
}

await runMain(import.meta.url, 'csharp-cost', main);
