// Query sets: the golden files (JSONL) and, for a corpus without one, a fixed query set derived
// deterministically from its own chunks (identifiers of mid frequency, their split words, pairs).
import { readJsonl, hash32 } from './util.ts';
import { streamDumpLines, type DumpFile } from './chunks.ts';

export interface GoldenQuery {
  id?: string;
  query: string;
  /** Workspace-relative paths (forward slashes) of the files that answer the query. */
  relevant: string[];
  kind: string;
  note?: string;
  /** Symbol queries of the broad set: where the name is declared (bench/lib/golden-set.ts; declaration@1 in the eval). */
  declaration?: { path: string; line: number; symbol: string; of: 'type' | 'member'; text?: string };
}

export function readGolden(file: string): GoldenQuery[] {
  const rows = readJsonl<GoldenQuery>(file);
  rows.forEach((r, i) => {
    if (typeof r.query !== 'string' || !r.query.trim()) throw new Error(`${file}: entry ${i + 1} has no query`);
    if (!Array.isArray(r.relevant) || r.relevant.length === 0) throw new Error(`${file}: entry ${i + 1} ("${r.query}") lists no relevant files`);
    if (typeof r.kind !== 'string' || !r.kind) throw new Error(`${file}: entry ${i + 1} ("${r.query}") has no kind`);
    r.id ??= `q${i + 1}`;
  });
  return rows;
}

const PASCAL = /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g;

/** A fixed, deterministic query set for any corpus, from the chunks hci stored. */
export function deriveQueries(dumpFile: string, n = 60): string[] {
  // Line by line: the dump of the dotnet-8 corpus (37,592 files) is longer than V8's longest string.
  const { meta, lines } = streamDumpLines(dumpFile);
  const bodyColumn = meta.ftsColumns.indexOf('body');
  const df = new Map<string, number>();
  const coFile = new Map<string, string[]>();
  for (const line of lines) {
    const f = JSON.parse(line) as DumpFile;
    const seen = new Set<string>();
    for (const values of f.fts) for (const m of String(values[bodyColumn] ?? '').matchAll(PASCAL)) seen.add(m[0]);
    for (const id of seen) df.set(id, (df.get(id) ?? 0) + 1);
    const ids = [...seen].filter((s) => s.length >= 8).sort((a, b) => hash32(a) - hash32(b)).slice(0, 2);
    if (ids.length === 2) coFile.set(String(f.file.path), ids);
  }
  const mid = [...df.entries()].filter(([id, d]) => d >= 1 && d <= 20 && id.length >= 8).map(([id]) => id).sort((a, b) => hash32(a) - hash32(b) || (a < b ? -1 : 1));
  const out: string[] = [];
  const ids = mid.slice(0, Math.ceil(n * 0.6));
  out.push(...ids);
  for (const id of mid.slice(ids.length, ids.length + Math.ceil(n * 0.2))) {
    out.push(id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());
  }
  const pairs = [...coFile.entries()].sort((a, b) => hash32(a[0]) - hash32(b[0])).slice(0, Math.ceil(n * 0.2));
  for (const [, [a, b]] of pairs) out.push(`${a} ${b}`);
  return out.slice(0, n);
}
