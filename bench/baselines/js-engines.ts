// What a browser repo explorer might pick instead of SQLite: Orama and MiniSearch, in-memory JS
// search libraries, indexing the very same chunks with the same FTS column values (path, symbol,
// header, body, split identifiers). Queries get hci's own analysis (parseQuery: stop words dropped,
// identifiers whole and split); scoring and term combination are each library's defaults (any term,
// BM25, no field boosts; Orama also matches prefixes). Of the set-ups tried on the sample workspace
// (hci's column boosts, all-terms-first like hci, exact terms) the defaults scored best for both, so
// the comparison is the libraries at their best, not at hci's settings.
import MiniSearch, { type Query } from 'minisearch';
import { create, insert, search as oramaSearch, type AnyOrama } from '@orama/orama';
import { parseQuery, type Clause } from '../../core/search/query.ts';
import type { ChunkDoc } from '../lib/chunks.ts';

export interface JsEngine {
  readonly name: string;
  add(doc: ChunkDoc): void | Promise<void>;
  /** Chunk paths in rank order (at most `limit`). */
  search(query: string, limit: number): Promise<string[]>;
}

/** A clause as a MiniSearch query tree: a word is (whole OR all its parts), a phrase all its tokens. */
function clauseQuery(c: Clause): Query {
  if (c.kind === 'phrase') return { combineWith: 'AND', queries: c.tokens };
  const whole = c.prefix ? { queries: [c.token], prefix: true } : c.token;
  if (c.parts.length < 2) return typeof whole === 'string' ? whole : { combineWith: 'OR', ...whole };
  return { combineWith: 'OR', queries: [whole, { combineWith: 'AND', queries: c.parts }] };
}

export function createMiniSearch(columns: readonly string[]): JsEngine {
  const paths = new Map<number, string>();
  const ms = new MiniSearch<ChunkDoc>({
    fields: [...columns],
    idField: 'id',
    storeFields: [],
    extractField: (doc, field) => (field === 'id' ? String(doc.id) : doc.fields[field]),
  });
  return {
    name: 'MiniSearch',
    add(doc) {
      ms.add(doc);
      paths.set(doc.id, doc.path);
    },
    async search(query, limit) {
      const parsed = parseQuery(query);
      if (parsed.clauses.length === 0) return [];
      const res = ms.search({ combineWith: 'OR', queries: parsed.clauses.map(clauseQuery) });
      return res.slice(0, limit).map((r) => paths.get(Number(r.id)) ?? '');
    },
  };
}

/** Query text for Orama: every token hci would look for (whole identifiers and their parts). */
function oramaTerm(clauses: readonly Clause[]): string {
  const out: string[] = [];
  for (const c of clauses) {
    if (c.kind === 'phrase') out.push(...c.tokens);
    else out.push(c.token, ...c.parts);
  }
  return [...new Set(out)].join(' ');
}

export async function createOrama(columns: readonly string[]): Promise<JsEngine> {
  const schema = Object.fromEntries(columns.map((c) => [c, 'string'])) as Record<string, 'string'>;
  const db: AnyOrama = create({ schema });
  const files = new Map<string, string>();
  return {
    name: 'Orama',
    async add(doc) {
      const r = insert(db, { id: String(doc.id), ...doc.fields } as never);
      if (r instanceof Promise) await r;
      files.set(String(doc.id), doc.path);
    },
    async search(query, limit) {
      const parsed = parseQuery(query);
      if (parsed.clauses.length === 0) return [];
      const res = await oramaSearch(db, { term: oramaTerm(parsed.clauses), properties: [...columns], limit } as never);
      return (res as { hits: Array<{ id: string }> }).hits.map((h) => files.get(h.id) ?? '');
    },
  };
}
