// What retiring a parse worker costs (issue 34; runtimes/node/parse-pool.ts retires one whose memory grew):
// the process CPU for a fresh pool's worker to answer a file (thread start, grammar compile, the parse)
// against the same worker answering it again, over a few fresh pools; the difference is a retire's cost.
//   node --experimental-transform-types bench/retire-cost.ts --file SOME.cs [--runs 5]
import * as fs from 'node:fs';
import { createNodeParsePool } from '../runtimes/node/parse-pool.ts';
import { parseArgs } from './lib/util.ts';

const { opts } = parseArgs(process.argv.slice(2), []);
const file = String(opts.file);
const runs = Number(opts.runs ?? 5);
const bytes = new Uint8Array(fs.readFileSync(file));
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const fresh: number[] = [];
const warm: number[] = [];
for (let r = 0; r < runs; r++) {
  const pool = createNodeParsePool({ binaryProbeBytes: 8192, workers: 1 });
  let c0 = cpuMs();
  await pool.extract({ path: 'A.cs', lang: 'csharp' }, bytes);
  fresh.push(cpuMs() - c0);
  c0 = cpuMs();
  await pool.extract({ path: 'B.cs', lang: 'csharp' }, bytes);
  warm.push(cpuMs() - c0);
  await pool.close();
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`${file} (${bytes.length} bytes), ${runs} fresh pools, Node ${process.version}, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(`fresh worker: ${fresh.map(Math.round).join(' ')} ms CPU; the same worker again: ${warm.map(Math.round).join(' ')} ms CPU; a retire costs ~${Math.round(median(fresh) - median(warm))} ms of CPU (medians' difference)`);
