// A/B of C# parsing (parseCSharp: the first parse, then whatever a build does after an error) between
// two builds, alternated file by file in one process: each round parses every selected file once with
// each build, the order flipping from file to file and round to round, and sums each build's CPU time
// (process.cpuUsage) per tree. Under a loaded machine this pairs the builds far closer than two
// whole index passes would: both see the same moment's load, file by file. Reports each round's sums,
// their medians and B / A, and how many files' kept tree parsed another text (outcome, not time).
// `--trees T.tsv` (repair-cost.ts's per-file output) limits the files to those whose first parse met an
// error there: every other file costs both builds one clean first parse. Measuring only; the parse is
// each build's core (loaded from its dist/).
//
//   node --experimental-transform-types bench/parse-ab.ts --build A=/path/distA --build B=/path/distB
//     --root DIR [--root DIR …] [--trees T.tsv] [--rounds 3] [--out FILE.md]
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { defaultSettings } from '../core/settings.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { classifyContent, splitLines } from '../core/scan/content.ts';
import { joinedLines } from '../core/index/prepare.ts';
import { markdownTable, median, optInt, optList, optString, parseArgs, runMain } from './lib/util.ts';

interface Build {
  name: string;
  dist: string;
  ts: unknown;
  parse: (ts: unknown, text: string) => Promise<{ tree: { delete(): void }; parsed: string }>;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function loadBuild(spec: string): Promise<Build> {
  const [name, dir] = spec.split('=');
  const dist = path.resolve(dir);
  const mod = async (rel: string) => import(pathToFileURL(path.join(dist, rel)).href);
  const { TreeSitterHost } = await mod('core/chunk/treesitter.js');
  const { createNodeGrammarSource } = await mod('runtimes/node/grammars.js');
  const { parseCSharp } = await mod('core/chunk/lang/csharp-repair.js');
  const ts = new TreeSitterHost(createNodeGrammarSource());
  (await ts.parse('c_sharp', 'class A { }')).delete(); // the grammar's first compile is no file's cost
  return { name, dist, ts, parse: parseCSharp };
}

/** The .cs texts of a tree as the indexer reads them; only `keep`'s paths when given. */
async function texts(root: string, keep: Set<string> | null): Promise<Array<{ path: string; text: string }>> {
  const settings = defaultSettings();
  const scan = await scanWorkspace(createNodeWorkspaceFs(root), settings);
  const out: Array<{ path: string; text: string }> = [];
  for (const f of scan.files) {
    if (f.lang !== 'csharp' || f.size > settings.max_indexed_file_bytes || (keep && !keep.has(f.path))) continue;
    const c = classifyContent(new Uint8Array(fs.readFileSync(path.join(root, f.path))), settings.binary_probe_bytes);
    if (c.kind !== 'binary') out.push({ path: f.path, text: joinedLines(c.text, splitLines(c.text)) });
  }
  return out;
}

/** Paths per tree whose first parse met an error in a repair-cost --trees file. */
function erroredIn(tsv: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of fs.readFileSync(tsv, 'utf8').trim().split('\n').slice(1)) {
    const t = line.split('\t');
    if (Number(t[7]) > 0) (out.get(t[0]) ?? out.set(t[0], new Set()).get(t[0])!).add(t[1]);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const specs = optList(opts, 'build');
  const roots = optList(opts, 'root').map((r) => path.resolve(r));
  if (specs.length !== 2 || !roots.length) throw new Error('usage: --build A=DIST --build B=DIST --root DIR [--root DIR …] [--trees T.tsv] [--rounds 3] [--out FILE.md]');
  const rounds = optInt(opts, 'rounds', 3);
  const treesFile = optString(opts, 'trees');
  const errored = treesFile ? erroredIn(treesFile) : null;
  const builds = [await loadBuild(specs[0]), await loadBuild(specs[1])];
  const rows: string[][] = [];
  const loads: string[] = [os.loadavg()[0].toFixed(1)];
  for (const root of roots) {
    const tree = path.basename(root);
    const files = await texts(root, errored ? errored.get(tree) ?? new Set() : null);
    const sums = builds.map(() => [] as number[]);
    const hashes = builds.map(() => new Map<string, string>());
    let bytes = 0;
    for (const f of files) bytes += f.text.length;
    for (let r = 0; r < rounds; r++) {
      const round = [0, 0];
      for (let i = 0; i < files.length; i++) {
        const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
        for (const b of order) {
          const t = cpuNow();
          const res = await builds[b].parse(builds[b].ts, files[i].text);
          round[b] += cpuNow() - t;
          if (r === 0) hashes[b].set(files[i].path, createHash('sha256').update(res.parsed).digest('hex'));
          res.tree.delete();
        }
      }
      sums[0].push(round[0]);
      sums[1].push(round[1]);
    }
    loads.push(os.loadavg()[0].toFixed(1));
    const differ = files.filter((f) => hashes[0].get(f.path) !== hashes[1].get(f.path)).length;
    const [a, b] = sums.map(median);
    rows.push([
      tree, files.length.toLocaleString('en-US'), `${(bytes / 1048576).toFixed(1)} M chars`,
      sums[0].map((x) => Math.round(x)).join(' '), sums[1].map((x) => Math.round(x)).join(' '),
      `${Math.round(a).toLocaleString('en-US')} ms`, `${Math.round(b).toLocaleString('en-US')} ms`, (b / a).toFixed(3),
      sums[0].map((x, k) => (sums[1][k] / x).toFixed(3)).join(' '), String(differ),
    ]);
  }
  const [A, B] = builds.map((b) => b.name);
  const md = [
    `# C# parsing A/B, alternated file by file: ${A} vs ${B}`,
    '',
    `${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load ${loads.join(' → ')} (1 min, at the start and after each tree); ${rounds} rounds; CPU time of this process per parseCSharp call, summed per round.` +
      ` Builds: ${builds.map((b) => `${b.name} = ${b.dist}`).join(', ')}.${treesFile ? ` Files: those whose first parse met an error in ${treesFile}.` : ''}`,
    '',
    markdownTable(
      ['tree', 'files', 'text', `${A}: rounds (ms)`, `${B}: rounds (ms)`, `${A} median`, `${B} median`, `${B} / ${A}`, `${B} / ${A} per round`, 'files whose kept tree parsed another text'],
      rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n');
  const out = optString(opts, 'out');
  if (out) fs.writeFileSync(out, md);
  console.log(md);
  return 0;
}

await runMain(import.meta.url, 'parse-ab', main);
