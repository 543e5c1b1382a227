import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
const [set, golden, root, kinds] = process.argv.slice(2);
const base = JSON.parse(fs.readFileSync('/tmp/variants/rank10-base0.json', 'utf8'));
const rows = base.rows.filter((r: any) => r.set === set && r.type === 'question' && r.by.base[1] < 0.5);
const gs = fs.readFileSync(golden, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const ws = await openWorkspace(root, {});
for (const r of rows) {
  const g = gs.find((x: any) => x.id === r.id);
  const res = await ws.search({ query: g.query, limit: 10 });
  console.log(`\n## ${g.kind} MRR ${r.by.base[1].toFixed(2)} :: ${g.query}\n   want: ${g.relevant.join(', ')}`);
  res.hits.slice(0, 5).forEach((h: any) => console.log(`   ${h.rank}. ${h.path}:${h.start_line}-${h.end_line} ${h.symbol ?? ''} ${h.score}`));
}
await ws.close();
