// Two checks of hci's answers beyond file-level recall, from the hits themselves: declaration@1 (a
// type-name query's first hit is the declaration: its file, and its line range holds the declaring
// line) and short pages (a page at the default limit with fewer hits than the limit, or without a
// cursor, while the index holds more matching chunks). Pure functions over what bench/eval.ts
// collected; owns the definitions, not the searching.
import type { GoldenQuery } from './queries.ts';

export interface HitSpan { path: string; start_line: number; end_line: number }

export interface DeclarationCheck {
  /** Type-name queries (declaration.of = type). */
  total: number;
  /** First hit in the declaring file, its range holding the declaration line. */
  hit: number;
  /** First hit's file is the declaring file (any range). */
  fileHit: number;
  /** Member-name queries, counted the same way (reported apart: the target is about type names). */
  members: { total: number; hit: number };
  misses: Array<{ id: string; query: string; want: string; got: string }>;
}

export function declarationAt1(golden: readonly GoldenQuery[], firstHit: ReadonlyMap<string, HitSpan | undefined>): DeclarationCheck | null {
  const rows = golden.filter((g) => g.declaration);
  if (!rows.length) return null;
  const out: DeclarationCheck = { total: 0, hit: 0, fileHit: 0, members: { total: 0, hit: 0 }, misses: [] };
  for (const g of rows) {
    const d = g.declaration!;
    const h = firstHit.get(g.query);
    const inFile = !!h && h.path === d.path;
    const ok = inFile && h!.start_line <= d.line && d.line <= h!.end_line;
    if (d.of === 'member') {
      out.members.total++;
      if (ok) out.members.hit++;
      continue;
    }
    out.total++;
    if (inFile) out.fileHit++;
    if (ok) out.hit++;
    else out.misses.push({ id: g.id ?? '', query: g.query, want: `${d.path}:${d.line}`, got: h ? `${h.path}:${h.start_line}-${h.end_line}` : '(no hit)' });
  }
  return out;
}

export interface PageObservation {
  /** Hits on the first page at the default limit. */
  hits: number;
  limit: number;
  hasCursor: boolean;
  /** Chunks the index matches for the query (hci's BM25 candidates, all terms then any; capped by the pool). */
  candidates: number;
}

export interface ShortPageCheck {
  total: number;
  /** Fewer hits than the limit while the index matches more chunks than the page shows. */
  short: number;
  /** No next_cursor while the index matches more chunks than the page shows. */
  noCursor: number;
  list: Array<{ id: string; query: string; hits: number; candidates: number; cursor: boolean }>;
}

export function shortPages(golden: readonly GoldenQuery[], pages: ReadonlyMap<string, PageObservation>): ShortPageCheck {
  const out: ShortPageCheck = { total: 0, short: 0, noCursor: 0, list: [] };
  for (const g of golden) {
    const p = pages.get(g.query);
    if (!p) continue;
    out.total++;
    const more = p.candidates > p.hits;
    const short = more && p.hits < p.limit;
    const noCursor = more && !p.hasCursor;
    if (short) out.short++;
    if (noCursor) out.noCursor++;
    if (short || noCursor) out.list.push({ id: g.id ?? '', query: g.query, hits: p.hits, candidates: p.candidates, cursor: p.hasCursor });
  }
  return out;
}
