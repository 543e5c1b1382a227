// Measures the MCP server the way a host sees it (run `npm run build` first, then
// `node test/helpers/mcp-measure.mjs [runs]`): server start to first answer, search round-trip over
// stdio, and watcher edit-to-visible latency, as medians (and p90) over N runs on a copy of the sample
// workspace. Prints one JSON object. Not a test: timings depend on the machine and its load.
import { cpSync, mkdtempSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(REPO, 'bin', 'hci.js');
const RUNS = Number(process.argv[2] ?? 20);

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const med = s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { runs: s.length, median_ms: Math.round(med * 10) / 10, p90_ms: Math.round(q(0.9) * 10) / 10, min_ms: Math.round(s[0] * 10) / 10 };
};
const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function connect(root, args = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', root, ...args], stderr: 'ignore', cwd: REPO });
  const client = new Client({ name: 'measure', version: '1' });
  await client.connect(transport);
  return client;
}

const root = mkdtempSync(path.join(tmpdir(), 'hci-measure-'));
cpSync(path.join(REPO, 'test', 'sample-workspace'), root, { recursive: true, filter: (s) => path.basename(s) !== '.hci' });
try {
  spawnSync(process.execPath, [BIN, 'index', root, '-q'], { stdio: 'ignore' });

  // 1. Server start (spawn) to the first search answer, and to the initialize answer.
  const toInit = [];
  const toFirst = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = now();
    const client = await connect(root, ['--watch', 'off']);
    toInit.push(now() - t0);
    const r = await client.callTool({ name: 'search', arguments: { query: 'GetCatalogItemsAsync' } });
    if (r.structuredContent.status !== 'ok') throw new Error(`first search: ${r.structuredContent.status}`);
    toFirst.push(now() - t0);
    await client.close();
  }

  // 2. Search round-trip over stdio (warm server; a mix of queries).
  const queries = ['GetCatalogItemsAsync', 'catalog items', 'discount applied', 'MaxItemsPerOrder ext:json', 'checkout page', 'connection string', 'ShoppingCart', 'order total'];
  const client = await connect(root);
  for (const q of queries) await client.callTool({ name: 'search', arguments: { query: q } });
  const rtt = [];
  for (let i = 0; i < Math.max(RUNS, 50); i++) {
    const t0 = now();
    await client.callTool({ name: 'search', arguments: { query: queries[i % queries.length] } });
    rtt.push(now() - t0);
  }

  // 3. Watcher: append a unique token to a file, poll search until it shows.
  for (let i = 0; i < 50; i++) {
    const w = (await client.callTool({ name: 'status', arguments: {} })).structuredContent.watcher;
    if (w.state === 'on' && w.pending === 0) break;
    await sleep(100);
  }
  const file = path.join(root, 'src', 'Contoso.Shop.Application', 'Catalog', 'CatalogService.cs');
  const visible = [];
  for (let i = 0; i < RUNS; i++) {
    const token = `MeasureToken${i}x${Date.now().toString(36)}`;
    const t0 = now();
    appendFileSync(file, `\n// ${token}\n`);
    for (;;) {
      const r = await client.callTool({ name: 'search', arguments: { query: token } });
      if (r.structuredContent.hits.length > 0) break;
      if (now() - t0 > 10_000) throw new Error('edit not visible within 10 s');
      await sleep(10);
    }
    visible.push(now() - t0);
    await sleep(400); // let the watcher go idle, so runs do not overlap
  }
  await client.close();

  console.log(JSON.stringify({
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version, loadavg: (await import('node:os')).loadavg().map((x) => x.toFixed(2)) },
    server_start_to_initialize: stats(toInit),
    server_start_to_first_search_answer: stats(toFirst),
    search_round_trip_stdio: stats(rtt),
    watcher_edit_to_visible: stats(visible),
  }, null, 2));
} finally {
  rmSync(root, { recursive: true, force: true });
}
