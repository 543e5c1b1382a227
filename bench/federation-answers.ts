// The merged answers of a search over several repositories, whole (every field of every hit, the
// answer's time left out), one JSON line per query, for checking two checkouts answer byte for byte
// alike (issue 36: the merge renders only its page's hits). Imports core/service of the checkout
// named by --checkout (default this one), so an older checkout without this file can be compared.
//   node --experimental-transform-types bench/federation-answers.ts --work DIR --repos A,B,… [--every 4] [--limit 10] [--checkout DIR] [--workers N] --out answers.jsonl
// (DIR: a bench/federation.ts --work folder, DIR/apart/<repo>.) Owns this comparison only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBroadSet } from './lib/golden-set.ts';
import { optInt, optList, optString, parseArgs, repoRoot, runMain } from './lib/util.ts';

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const repos = optList(opts, 'repos');
  const work = optString(opts, 'work')!;
  const every = optInt(opts, 'every', 4);
  const limit = optInt(opts, 'limit', 10);
  const workers = optInt(opts, 'workers', 0);
  const checkout = path.resolve(optString(opts, 'checkout') ?? repoRoot());
  const { Federation, HciService } = await import(pathToFileURL(path.join(checkout, 'core/service/index.ts')).href);
  const { nodeServiceHost } = await import(pathToFileURL(path.join(checkout, 'runtimes/node/service-host.ts')).href);
  const { createNodeRepoSearchPool } = await import(pathToFileURL(path.join(checkout, 'runtimes/node/repo-search-pool.ts')).href);
  const roots = repos.map((r) => path.join(work, 'apart', r));
  const parts = workers > 0 ? createNodeRepoSearchPool({ workers })(roots) : null;
  const fed = new Federation(repos.map((repo, i) => ({ repo, service: new HciService({ root: roots[i], host: nodeServiceHost(), surface: 'cli', watch: 'off' }), ...(parts ? { search: parts[i] } : {}) })));
  const queries = repos.flatMap((r) => readBroadSet(path.join(repoRoot(), 'bench', 'golden', `${r}.jsonl`)).map((g) => g.query)).filter((_, i) => i % every === 0);
  const lines: string[] = [];
  try {
    for (const query of queries) {
      const a = await fed.call('search', { query, limit });
      lines.push(JSON.stringify({ ...a, took_ms: 0 }));
    }
  } finally {
    await fed.close();
  }
  fs.writeFileSync(optString(opts, 'out')!, lines.join('\n') + '\n');
  console.log(`${queries.length} answers, ${lines.reduce((n, l) => n + (JSON.parse(l).hits.length as number), 0)} hits → ${optString(opts, 'out')}`);
  return 0;
}

await runMain(import.meta.url, 'federation-answers', main);
