// Writes the files of pinned public repositories into the benchmark's cache folder (bench/lib/materialize.ts
// says how and where), and prints where each went. With corpus names: those corpora of bench/corpora.json;
// with none: all of them. `--manifest FILE` reads another manifest: one with named `corpora`, or any JSON
// whose objects carry `repo` (owner/name) and `commit` (40 hex), e.g. a golden set's repository list.
//
//   node dist/bench/materialize.js                         # every corpus of bench/corpora.json
//   node dist/bench/materialize.js avalonia
//   node dist/bench/materialize.js --manifest bench/golden/repos.json
//   options: --cache DIR (HCI_BENCH_CORPORA; default ~/.cache/hci-bench/corpora)
//            --mirror DIR (HCI_BENCH_MIRROR: bare mirrors DIR/<owner>+<name>/repo; else a depth-1 fetch from GitHub)
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { materializeCorpus, materializeRepo, readManifest, type PinnedRepo } from './lib/materialize.ts';
import { isMain, optString, parseArgs } from './lib/util.ts';

/** Every {repo, commit} object in a JSON value, in order, without repeats. */
export function pinsIn(value: unknown): PinnedRepo[] {
  const out = new Map<string, PinnedRepo>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.repo === 'string' && typeof o.commit === 'string') out.set(`${o.repo}@${o.commit}`, { repo: o.repo, commit: o.commit });
      else Object.values(o).forEach(walk);
    }
  };
  walk(value);
  return [...out.values()];
}

export async function main(argv: string[]): Promise<number> {
  const { opts, positional } = parseArgs(argv, ['help']);
  if (opts.help) {
    process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
    return 0;
  }
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const o = { cacheDir: optString(opts, 'cache'), mirror: optString(opts, 'mirror'), manifest: optString(opts, 'manifest'), log };
  const json = o.manifest ? (JSON.parse(fs.readFileSync(o.manifest, 'utf8')) as { corpora?: unknown }) : null;
  if (json && !json.corpora) {
    for (const pin of pinsIn(json)) {
      const m = await materializeRepo(pin, o);
      process.stdout.write(`${m.repo}\t${m.commit}\t${m.dir}\t${m.files} files${m.missing.length ? `, ${m.missing.length} absent from the mirror` : ''}\n`);
    }
    return 0;
  }
  const names = positional.length ? positional : Object.keys(readManifest(o.manifest));
  for (const name of names) {
    const c = await materializeCorpus(name, o);
    for (const m of c.repos) process.stdout.write(`${name}\t${m.repo}\t${m.commit}\t${m.dir}\t${m.files} files${m.missing.length ? `, ${m.missing.length} absent from the mirror` : ''}\n`);
  }
  return 0;
}

if (isMain(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`materialize: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
