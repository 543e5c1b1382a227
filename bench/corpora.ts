// `npm run corpora`: materializes every pinned repository of one or more corpus manifests (default
// bench/golden/repos.json, the broad tuning set) from bare git mirrors into a folder, one tree per
// repository, so `npm run eval -- --set broad --corpora <dir>` can run them. Third-party source is
// written only there, never into this checkout.
//
//   npm run corpora -- --out /work/corpora/broad                 # MIRROR_ROOT=/work/.mirror by default
//   npm run corpora -- --out DIR --manifest other.json --repo Polly --force
//   options: --mirror-root DIR (or $MIRROR_ROOT) · --manifest FILE (repeatable) · --repo NAME (repeatable)
//            --force (rewrite trees already written at the pinned commit) · --list (print the entries only)
//
// Mirrors are laid out as <mirror root>/<owner>+<name>/repo (or the entry's "gitdir"). A tree already
// written at the pinned commit is kept (its marker <out>/<name>.corpus.json says so); a tree at another
// commit is replaced. Blobs the mirror lacks are skipped and listed in the marker.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { materialize, readManifest } from './lib/corpora.ts';
import { isMain, optList, optString, parseArgs, repoRoot } from './lib/util.ts';

export const DEFAULT_MANIFEST = () => path.join(repoRoot(), 'bench', 'golden', 'repos.json');

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['force', 'list', 'help']);
  if (opts.help) {
    process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
    return 0;
  }
  const manifests = optList(opts, 'manifest');
  const entries = (manifests.length ? manifests : [DEFAULT_MANIFEST()]).flatMap((m) => readManifest(path.resolve(m)));
  const only = optList(opts, 'repo');
  const unknown = only.filter((n) => !entries.some((e) => e.name === n));
  if (unknown.length) throw new Error(`--repo ${unknown.join(', ')}: not in the manifest (${entries.map((e) => e.name).join(', ')})`);
  const chosen = entries.filter((e) => !only.length || only.includes(e.name));
  if (opts.list) {
    for (const e of chosen) process.stdout.write(`${e.name}\t${e.github}\t${e.commit}\t${e.kind ?? ''}\n`);
    return 0;
  }
  const out = optString(opts, 'out');
  if (!out) throw new Error('--out DIR is needed (the folder that gets one tree per repository)');
  const outDir = path.resolve(out);
  const rel = path.relative(repoRoot(), outDir);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) throw new Error(`refusing to write third-party source inside this checkout (${outDir})`);
  const mirrorRoot = path.resolve(optString(opts, 'mirror-root') ?? process.env.MIRROR_ROOT ?? '/work/.mirror');
  let failed = 0;
  for (const e of chosen) {
    try {
      const m = await materialize(e, mirrorRoot, outDir, { force: opts.force === true, log: (s) => process.stderr.write(`${s}\n`) });
      if (m.skipped) process.stderr.write(`${e.name}: already at ${e.commit.slice(0, 12)} in ${path.join(outDir, e.name)} (--force rewrites it)\n`);
    } catch (err) {
      failed++;
      process.stderr.write(`${(err as Error).message}\n`);
    }
  }
  return failed ? 1 : 0;
}

if (isMain(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`corpora: ${(e as Error).message}\n`);
    process.exitCode = 2;
  }
}
