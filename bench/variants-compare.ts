// `node --experimental-transform-types bench/variants-compare.ts`: two checkouts' rank-variants runs
// side by side (a code change, not a setting, A/B'd over the same indexes: each checkout's
// bench/rank-variants.ts --out, e.g. through the probe sets' variants.sh). Takes one set-up of each
// file and prints rank-variants' report over both (per set, by type, sets up/down, identifier
// queries that lost rank 1, the queries that moved).
//
//   node --experimental-transform-types bench/variants-compare.ts --a NAME=runA.json[:variant] --b NAME=runB.json[:variant] [--md out.md]
import * as fs from 'node:fs';
import { report } from './rank-variants.ts';
import { optString, parseArgs, runMain } from './lib/util.ts';

type Row = Parameters<typeof report>[0][number];

function load(spec: string): { name: string; rows: Row[]; variant: string } {
  const m = /^([^=]+)=(.+?)(?::([\w-]+))?$/.exec(spec);
  if (!m) throw new Error(`NAME=run.json[:variant], got ${spec}`);
  const data = JSON.parse(fs.readFileSync(m[2], 'utf8')) as { variants: Record<string, unknown>; rows: Row[] };
  return { name: m[1], rows: data.rows, variant: m[3] ?? Object.keys(data.variants)[0] };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const a = load(optString(opts, 'a') ?? '');
  const b = load(optString(opts, 'b') ?? '');
  const other = new Map(b.rows.map((r) => [`${r.set}\u0000${r.id}`, r]));
  const rows: Row[] = [];
  for (const r of a.rows) {
    const o = other.get(`${r.set}\u0000${r.id}`);
    if (!o) continue;
    rows.push({ ...r, by: { [a.name]: r.by[a.variant], [b.name]: o.by[b.variant] } });
  }
  if (rows.length !== a.rows.length || rows.length !== b.rows.length) process.stderr.write(`note: ${a.rows.length} and ${b.rows.length} rows, ${rows.length} in both\n`);
  const md = report(rows, [a.name, b.name]);
  process.stdout.write(md);
  const mdFile = optString(opts, 'md');
  if (mdFile) fs.writeFileSync(mdFile, md);
  return 0;
}

await runMain(import.meta.url, 'variants-compare', main);
