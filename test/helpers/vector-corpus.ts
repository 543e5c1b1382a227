// A small, fixed corpus for the learned-embedding tests: the sample workspace's text files cut into
// 20-line chunks (path + body, as the indexer composes them), a few questions, and "later" chunks
// for the incremental path. Node-only (reads files); the parity tests hand the result to Deno and
// Chromium as JSON, so every runtime trains on exactly the same texts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chunkEmbeddingText } from '../../core/vector/provider.ts';
import type { VectorCorpus } from './vector-fingerprint.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../sample-workspace');
const TEXT = /\.(cs|razor|cshtml|axaml|json|md|css|js|csproj|html|toml|yml|yaml)$/;

function files(dir: string, root = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.hci' ? [] : files(p, root);
    return TEXT.test(e.name) ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

export function sampleCorpus(): VectorCorpus & { paths: string[] } {
  const texts: string[] = [];
  const paths: string[] = [];
  for (const rel of files(SAMPLE)) {
    const lines = fs.readFileSync(path.join(SAMPLE, rel), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 20) {
      texts.push(chunkEmbeddingText({ path: rel, body: lines.slice(i, i + 20).join('\n') }));
      paths.push(rel);
    }
  }
  return {
    texts,
    paths,
    queries: ['where is the discount applied to an order', 'shopping cart quantity', 'payment gateway charge card', 'inventory reservation expires', 'zzzunknownzzz'],
    later: [
      'src/New/Feature.cs\npublic sealed class OrderDiscountPolicy { decimal ApplyDiscount(Order order) => order.Total * 0.9m; }',
      'docs/notes.md\nquantum flux capacitor hyperdrive nebula',
    ],
  };
}
