// `node --experimental-transform-types bench/learned-terms-cost.ts`: what learning the repository's
// doc-word → name-part association (core/search/learned-terms.ts, setting learned_terms) costs an
// indexing pass that records it: process CPU time of learnTerms over an index already built (every
// stored source file decoded and its documented symbols paired), median of --runs, and the record's
// size (JSON text, as an indexing pass writes it). Opens the index read-only; nothing is written.
//
//   node --experimental-transform-types bench/learned-terms-cost.ts --root <indexed root> [--root …] [--runs 3] [--md out.md]
import * as fs from 'node:fs';
import { openWorkspace, zlibCodec } from '../runtimes/node/index.ts';
import { learnTerms } from '../core/search/learned-terms.ts';
import { markdownTable, median, optInt, optList, optString, parseArgs, runMain } from './lib/util.ts';

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const runs = optInt(opts, 'runs', 3);
  const rows: string[][] = [];
  for (const root of optList(opts, 'root')) {
    const ws = await openWorkspace(root);
    try {
      const { value: files } = await ws.read((db) => Number(db.selectValue('SELECT count(*) FROM files')));
      const cpu: number[] = [];
      let words = 0;
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        const t0 = process.cpuUsage();
        const { value } = await ws.read((db) => learnTerms(db, zlibCodec));
        const t = process.cpuUsage(t0);
        cpu.push((t.user + t.system) / 1000);
        words = value.size;
        bytes = Buffer.byteLength(JSON.stringify([...value]));
      }
      rows.push([root, String(files), median(cpu).toFixed(0), cpu.map((c) => c.toFixed(0)).join(' '), String(words), (bytes / 1024).toFixed(1)]);
      console.log(rows.at(-1)!.join(' | '));
    } finally {
      ws.close();
    }
  }
  const md = markdownTable(['index', 'files', 'CPU ms (median)', 'CPU ms (runs)', 'linked words', 'record KB'], rows);
  const out = optString(opts, 'md');
  if (out) fs.writeFileSync(out, `${md}\n`);
  else console.log(md);
  return 0;
}

await runMain(import.meta.url, 'learned-terms-cost', main);
