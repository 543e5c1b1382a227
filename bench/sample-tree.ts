// A fixed sample of a tree's files, hard-linked into a new folder: what a cold pass costs on 1/16, 1/8,
// 1/4 … of a corpus with the same mix of files (issue 34: does any part of the pass grow faster than the
// corpus?). A file is in the sample of K sixteenths when the first 8 hex digits of the MD5 of its path
// (relative to --from, '/'-separated), taken mod 16, are below K — so each sample holds every smaller
// one, and the mix (languages, sizes, repositories) is the whole tree's. Ignore files (`.gitignore`,
// `.gitattributes`, `.hciignore`) are always kept, so the walker skips what it skips in the whole tree.
// Symbolic links and `.git`/`.hci` folders are left out. Owns only the sampling; indexing a sample is
// index-threads.ts's (or the bench's).
//
//   node --experimental-transform-types bench/sample-tree.ts --from DIR --out DIR --sixteenths K
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { optInt, optString, parseArgs, runMain } from './lib/util.ts';

/** Whether the file at `rel` (relative to the sampled root, '/'-separated) is in the sample of `sixteenths`/16. */
export function inSample(rel: string, sixteenths: number): boolean {
  if (/^\.(git|hci)/.test(path.posix.basename(rel))) return true;
  return parseInt(createHash('md5').update(rel).digest('hex').slice(0, 8), 16) % 16 < sixteenths;
}

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const from = path.resolve(optString(opts, 'from') ?? '');
  const out = path.resolve(optString(opts, 'out') ?? '');
  const k = optInt(opts, 'sixteenths', 1);
  if (!fs.statSync(from).isDirectory() || !optString(opts, 'out') || k < 1 || k > 16) throw new Error('--from DIR --out DIR --sixteenths 1..16');
  let linked = 0;
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(from, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== '.git' && e.name !== '.hci') walk(r);
      } else if (e.isFile() && inSample(r, k)) {
        fs.mkdirSync(path.join(out, rel), { recursive: true });
        fs.linkSync(path.join(from, r), path.join(out, r));
        linked++;
      }
    }
  };
  walk('');
  console.log(`${linked} files of ${from} linked into ${out} (${k}/16)`);
  return 0;
}

await runMain(import.meta.url, 'sample-tree', main);
