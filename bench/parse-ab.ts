// A/B of C# parsing (parseCSharp: the first parse, then whatever a build does after an error) between
// two builds, alternated file by file in one process: each round parses every selected file once with
// each build, the order flipping from file to file and round to round, and sums each build's CPU time
// (process.cpuUsage) per tree. Under a loaded machine this pairs the builds far closer than two
// whole index passes would: both see the same moment's load, file by file. Reports each round's sums,
// their medians and B / A, and how many files' kept tree parsed another text (outcome, not time).
// `--trees T.tsv` (repair-cost.ts's per-file output) limits the files to those whose first parse met an
// error there: every other file costs both builds one clean first parse. `--extract` times extractCSharp
// instead (the parse and the outline walk, as the parse worker runs them) and compares the builds'
// outlines: files whose outline differs, files whose outline differs only in its count of parse errors,
// files with parse errors per build. Measuring only; the parse is each build's core (loaded from its dist/).
//
//   node --experimental-transform-types bench/parse-ab.ts --build A=/path/distA --build B=/path/distB
//     --root DIR [--root DIR …] [--trees T.tsv] [--rounds 3] [--extract] [--out FILE.md]
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
  extract: (input: { path: string; lang: string; lines: string[]; text: string }, ts: unknown) => Promise<{ parseErrors?: number } | null>;
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
  const { extractCSharp } = await mod('core/chunk/lang/csharp.js');
  const ts = new TreeSitterHost(createNodeGrammarSource());
  (await ts.parse('c_sharp', 'class A { }')).delete(); // the grammar's first compile is no file's cost
  return { name, dist, ts, parse: parseCSharp, extract: extractCSharp };
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
  const { opts } = parseArgs(argv, ['extract']);
  const specs = optList(opts, 'build');
  const roots = optList(opts, 'root').map((r) => path.resolve(r));
  if (specs.length !== 2 || !roots.length) throw new Error('usage: --build A=DIST --build B=DIST --root DIR [--root DIR …] [--trees T.tsv] [--rounds 3] [--out FILE.md]');
  const rounds = optInt(opts, 'rounds', 3);
  const treesFile = optString(opts, 'trees');
  const errored = treesFile ? erroredIn(treesFile) : null;
  const extract = opts.extract === true;
  const builds = [await loadBuild(specs[0]), await loadBuild(specs[1])];
  const rows: string[][] = [];
  const loads: string[] = [os.loadavg()[0].toFixed(1)];
  for (const root of roots) {
    const tree = path.basename(root);
    const files = await texts(root, errored ? errored.get(tree) ?? new Set() : null);
    const sums = builds.map(() => [] as number[]);
    const hashes = builds.map(() => new Map<string, string>());
    /** --extract: each build's outline without its parse-error count, and the files that have one. */
    const outlines = builds.map(() => new Map<string, string>());
    const withErrors = builds.map(() => 0);
    let bytes = 0;
    for (const f of files) bytes += f.text.length;
    const inputs = extract ? files.map((f) => ({ path: f.path, lang: 'csharp', lines: splitLines(f.text), text: f.text })) : [];
    for (let r = 0; r < rounds; r++) {
      const round = [0, 0];
      for (let i = 0; i < files.length; i++) {
        const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
        for (const b of order) {
          if (extract) {
            const t = cpuNow();
            const outline = await builds[b].extract(inputs[i], builds[b].ts);
            round[b] += cpuNow() - t;
            if (r === 0) {
              const { parseErrors, ...rest } = outline ?? {};
              if (parseErrors) withErrors[b]++;
              hashes[b].set(files[i].path, JSON.stringify(outline));
              outlines[b].set(files[i].path, JSON.stringify(rest));
            }
            continue;
          }
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
      sums[0].map((x, k) => (sums[1][k] / x).toFixed(3)).join(' '),
      ...(extract
        ? [String(files.filter((f) => outlines[0].get(f.path) !== outlines[1].get(f.path)).length), String(differ), `${withErrors[0]} / ${withErrors[1]}`]
        : [String(differ)]),
    ]);
  }
  const [A, B] = builds.map((b) => b.name);
  const md = [
    `# C# ${extract ? 'extraction' : 'parsing'} A/B, alternated file by file: ${A} vs ${B}`,
    '',
    `${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load ${loads.join(' → ')} (1 min, at the start and after each tree); ${rounds} rounds; CPU time of this process per ${extract ? 'extractCSharp' : 'parseCSharp'} call, summed per round.` +
      ` Builds: ${builds.map((b) => `${b.name} = ${b.dist}`).join(', ')}.${treesFile ? ` Files: those whose first parse met an error in ${treesFile}.` : ''}`,
    '',
    markdownTable(
      [
        'tree', 'files', 'text', `${A}: rounds (ms)`, `${B}: rounds (ms)`, `${A} median`, `${B} median`, `${B} / ${A}`, `${B} / ${A} per round`,
        ...(extract ? ['files whose outline differs', 'files whose outline or parse-error count differs', `files with parse errors (${A} / ${B})`] : ['files whose kept tree parsed another text']),
      ],
      rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', ...(extract ? ['r', 'r'] as const : [])],
    ),
    '',
  ].join('\n');
  const out = optString(opts, 'out');
  if (out) fs.writeFileSync(out, md);
  console.log(md);
  return 0;
}

await runMain(import.meta.url, 'parse-ab', main);
