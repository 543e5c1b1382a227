// `node --experimental-transform-types bench/probe-build.ts --out DIR`: the probe indexes the ranking
// and model scripts read (bench/lib/probe-sets.sh, rank-variants.ts, rerank-dump.ts, miss-anatomy.ts,
// model/settings-ab.ts): a copy of every tuning repository (the broad set under --broad, the dev set
// under --dev, the sample workspace), each indexed once with semantic search on (the shipped
// `pretrained` model, written to the copy's .hci/settings.toml so later opens keep it), and beside it
// DIR/<name>.done naming its golden file and set. Already-built copies (a .done present) are skipped,
// so an interrupted run resumes. Owns nothing the product uses; the corpora come from
// `npm run corpora` and ../shared/eval-dev/materialize.py.
//
//   node --experimental-transform-types bench/probe-build.ts --out /work/corpora/probe15
//        [--broad /work/corpora/broad] [--dev /work/corpora/dev] [--dev-golden /work/shared/eval-dev/golden] [--only a,b]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { optList, optString, parseArgs, repoRoot, runMain } from './lib/util.ts';

/** The 17 probe sets, in the order bench/lib/probe-sets.sh lists them. */
export const BROAD_SETS = ['RadzenBlazor', 'FluentValidation', 'CleanArchitecture', 'SukiUI', 'Polly', 'Humanizer', 'excalidraw',
  'AvaloniaEdit', 'v2rayN', 'PixiEditor', 'cheerio', 'nodemailer', 'xstate', 'handlebars'] as const;
export const DEV_SETS = ['MudBlazor', 'FluentAvalonia'] as const;

const SETTINGS = '[semantic]\nenabled = true\nprovider = "pretrained"\n';

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const out = path.resolve(optString(opts, 'out') ?? '/work/corpora/probe15');
  const broad = optString(opts, 'broad') ?? '/work/corpora/broad';
  const dev = optString(opts, 'dev') ?? '/work/corpora/dev';
  const devGolden = optString(opts, 'dev-golden') ?? '/work/shared/eval-dev/golden';
  const only = optList(opts, 'only');
  const root = repoRoot();
  const jobs = [
    ...BROAD_SETS.map((n) => ({ name: n, src: path.join(broad, n), golden: path.join(root, 'bench', 'golden', `${n}.jsonl`), set: 'broad' })),
    ...DEV_SETS.map((n) => ({ name: n, src: path.join(dev, n), golden: path.join(devGolden, `${n}.jsonl`), set: 'dev' })),
    { name: 'sample-workspace', src: path.join(root, 'test', 'sample-workspace'), golden: path.join(root, 'bench', 'golden', 'sample-workspace.jsonl'), set: 'sample' },
  ].filter((j) => !only.length || only.includes(j.name));
  fs.mkdirSync(out, { recursive: true });
  for (const j of jobs) {
    const dest = path.join(out, j.name);
    const done = `${dest}.done`;
    if (fs.existsSync(done)) { console.log(`${j.name}: built (${done})`); continue; }
    if (!fs.existsSync(j.src)) throw new Error(`${j.name}: no corpus at ${j.src}`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.cpSync(j.src, dest, { recursive: true, filter: (s) => path.basename(s) !== '.hci' });
    fs.mkdirSync(path.join(dest, '.hci'), { recursive: true });
    fs.writeFileSync(path.join(dest, '.hci', 'settings.toml'), SETTINGS);
    const t0 = Date.now();
    const ws = await openWorkspace(dest);
    try {
      const r = await ws.index({ full: true });
      console.log(`${j.name}: ${JSON.stringify(r).slice(0, 160)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await ws.close();
    }
    fs.writeFileSync(done, JSON.stringify({ golden: j.golden, set: j.set }) + '\n');
  }
  return 0;
}

await runMain(import.meta.url, 'probe-build', main);
