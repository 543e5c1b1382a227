// `npm run golden`: builds and checks the broad tuning set (bench/golden/repos.json + <Repo>.jsonl).
//
//   npm run golden -- check [--repo NAME] [--corpora DIR]     # every row against its pinned commit (exit 1 on any error)
//   npm run golden -- mine --repo NAME [--max N] [--min-survival 0.5] > candidates.jsonl
//   npm run golden -- counts                                  # queries per repository and kind
//   options: --mirror-root DIR (or $MIRROR_ROOT, default /work/.mirror) · --manifest FILE (default bench/golden/repos.json)
//
// check: ids, kinds and fields (bench/lib/golden-set.ts); every relevant path in the pinned tree (and
// under --corpora DIR/<Repo> when given); every hand-written row's evidence substring in its file at the
// pin; every declaration's text on its line; every commit row's source commit an ancestor of the pin
// that changed each relevant file. mine: candidates for commit rows (bench/lib/mine.ts), newest first,
// with the share of their added lines that survive at the pin; a person picks and curates them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mirrorOf, readManifest } from './lib/corpora.ts';
import { countSet, pinnedErrors, readBroadSet, shapeErrors } from './lib/golden-set.ts';
import { mineCommits } from './lib/mine.ts';
import { isMain, markdownTable, optList, optString, parseArgs, repoRoot } from './lib/util.ts';

export const goldenDir = () => path.join(repoRoot(), 'bench', 'golden');

export async function main(argv: string[]): Promise<number> {
  const { opts, positional } = parseArgs(argv, ['help']);
  const verb = positional[0];
  if (opts.help || !verb) {
    process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
    return verb || opts.help ? 0 : 2;
  }
  const manifest = path.resolve(optString(opts, 'manifest') ?? path.join(goldenDir(), 'repos.json'));
  const dir = path.dirname(manifest);
  const mirrorRoot = path.resolve(optString(opts, 'mirror-root') ?? process.env.MIRROR_ROOT ?? '/work/.mirror');
  const only = optList(opts, 'repo');
  const entries = readManifest(manifest).filter((e) => !only.length || only.includes(e.name));
  if (only.length && !entries.length) throw new Error(`--repo ${only.join(', ')}: not in ${manifest}`);
  if (verb === 'mine') {
    if (entries.length !== 1) throw new Error('mine needs one --repo NAME');
    const e = entries[0];
    const min = Number(optString(opts, 'min-survival') ?? 0);
    const max = Number(optString(opts, 'max') ?? 0) || undefined;
    const rows = mineCommits(mirrorOf(e, mirrorRoot), e.commit, e.name, { max }).filter((c) => c.survival >= min);
    for (const c of rows) process.stdout.write(`${JSON.stringify(c)}\n`);
    process.stderr.write(`${e.name}: ${rows.length} candidates\n`);
    return 0;
  }
  if (verb === 'counts') {
    const rows = entries.map((e) => {
      const f = path.join(dir, `${e.name}.jsonl`);
      const c = fs.existsSync(f) ? countSet(readBroadSet(f)) : null;
      return [e.name, e.kind ?? '', ...(['commit', 'architecture', 'behaviour', 'symbol', 'paraphrase'] as const).map((k) => String(c?.byKind[k] ?? 0)), String(c?.typeNames ?? 0), String(c?.total ?? 0)];
    });
    process.stdout.write(`${markdownTable(['repo', 'kind', 'commit', 'architecture', 'behaviour', 'symbol', 'paraphrase', 'type names', 'total'], rows)}\n`);
    return 0;
  }
  if (verb !== 'check') throw new Error(`unknown verb "${verb}" (check, mine, counts)`);
  const corpora = optString(opts, 'corpora');
  let errors = 0;
  for (const e of entries) {
    const f = path.join(dir, `${e.name}.jsonl`);
    if (!fs.existsSync(f)) {
      process.stderr.write(`${e.name}: no ${f} yet\n`);
      continue;
    }
    const rows = readBroadSet(f);
    const errs = [...shapeErrors(rows, e.name), ...pinnedErrors(rows, e, mirrorOf(e, mirrorRoot), corpora ? path.join(path.resolve(corpora), e.name) : undefined)];
    for (const m of errs) process.stderr.write(`ERROR ${m}\n`);
    errors += errs.length;
    const c = countSet(rows);
    process.stdout.write(`${e.name}: ${c.total} queries (${Object.entries(c.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}; ${c.typeNames} type names)${errs.length ? `, ${errs.length} error(s)` : ', all checks pass'}\n`);
  }
  return errors ? 1 : 0;
}

if (isMain(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`golden: ${(e as Error).message}\n`);
    process.exitCode = 2;
  }
}
