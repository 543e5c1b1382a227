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
import { COLUMN_WEIGHTS } from '../../core/search/channels/fts.ts';
import { DEFAULT_VARIANT } from './variants.ts';
import type { ChunkDoc } from '../lib/chunks.ts';

export interface JsEngine {
  readonly name: string;
  add(doc: ChunkDoc): void | Promise<void>;
  /** Chunk paths in rank order (at most `limit`). */
  search(query: string, limit: number): Promise<string[]>;
}

export interface MiniSearchVariant {
  /** Terms combined across clauses: any clause, or every clause first and then any (hci's order). */
  combine: 'or' | 'and-then-or';
  /** Prefix matching on every term (not only on a trailing `*`). */
  prefix: boolean;
  /** Fuzzy matching (MiniSearch's edit distance as a share of term length), 0 for none. */
  fuzzy: number;
  /** Field boosts (hci's column weights, normalized) instead of none. */
  boost: boolean;
}

export const MINISEARCH_VARIANTS: Record<string, MiniSearchVariant> = {
  'or': { combine: 'or', prefix: false, fuzzy: 0, boost: false },
  'or-prefix': { combine: 'or', prefix: true, fuzzy: 0, boost: false },
  'or-fuzzy': { combine: 'or', prefix: false, fuzzy: 0.2, boost: false },
  'or-boost': { combine: 'or', prefix: false, fuzzy: 0, boost: true },
  'and-then-or': { combine: 'and-then-or', prefix: false, fuzzy: 0, boost: false },
};

/** A clause as a MiniSearch query tree: a word is (whole OR all its parts), a phrase all its tokens. */
function clauseQuery(c: Clause): Query {
  if (c.kind === 'phrase') return { combineWith: 'AND', queries: c.tokens };
  if (c.kind === 'cjk') return c.run;
  const whole = c.prefix ? { queries: [c.token], prefix: true } : c.token;
  if (c.parts.length < 2) return typeof whole === 'string' ? whole : { combineWith: 'OR', ...whole };
  return { combineWith: 'OR', queries: [whole, { combineWith: 'AND', queries: c.parts }] };
}

export function createMiniSearch(columns: readonly string[], variantName: string = DEFAULT_VARIANT.minisearch): JsEngine {
  const v = MINISEARCH_VARIANTS[variantName];
  if (!v) throw new Error(`unknown MiniSearch variant ${variantName} (${Object.keys(MINISEARCH_VARIANTS).join(', ')})`);
  const boost = v.boost ? Object.fromEntries(columns.map((c) => [c, (COLUMN_WEIGHTS as Record<string, number>)[c] ?? 1])) : undefined;
  const options = { prefix: v.prefix, fuzzy: v.fuzzy || false, ...(boost ? { boost } : {}) };
  const paths = new Map<number, string>();
  const ms = new MiniSearch<ChunkDoc>({
    fields: [...columns],
    idField: 'id',
    storeFields: [],
    extractField: (doc, field) => (field === 'id' ? String(doc.id) : doc.fields[field]),
  });
  return {
    name: `MiniSearch (${variantName})`,
    add(doc) {
      ms.add(doc);
      paths.set(doc.id, doc.path);
    },
    async search(query, limit) {
      const parsed = parseQuery(query);
      if (parsed.clauses.length === 0) return [];
      const queries = parsed.clauses.map(clauseQuery);
      let res = v.combine === 'and-then-or' ? ms.search({ combineWith: 'AND', queries }, options) : [];
      if (!res.length) res = ms.search({ combineWith: 'OR', queries }, options);
      return res.slice(0, limit).map((r) => paths.get(Number(r.id)) ?? '');
    },
  };
}

export interface OramaVariant {
  /** The query's tokens: whole identifiers and their split parts, or whole tokens only. */
  terms: 'whole+parts' | 'whole';
  /** Orama's default prefix matching of every term, or exact terms only. */
  exact: boolean;
  /** Orama's threshold: 1 (default) returns documents with any term, 0 only those with all. */
  threshold: 0 | 1;
}

export const ORAMA_VARIANTS: Record<string, OramaVariant> = {
  'whole+parts': { terms: 'whole+parts', exact: false, threshold: 1 },
  'whole': { terms: 'whole', exact: false, threshold: 1 },
  'whole-exact': { terms: 'whole', exact: true, threshold: 1 },
  'whole+parts-exact': { terms: 'whole+parts', exact: true, threshold: 1 },
  'whole-all-terms': { terms: 'whole', exact: false, threshold: 0 },
};

/** Query text for Orama: every token hci would look for (whole identifiers, and their parts when asked). */
function oramaTerm(clauses: readonly Clause[], terms: OramaVariant['terms']): string {
  const out: string[] = [];
  for (const c of clauses) {
    if (c.kind === 'phrase') out.push(...c.tokens);
    else if (c.kind === 'cjk') out.push(c.run);
    else out.push(c.token, ...(terms === 'whole+parts' ? c.parts : []));
  }
  return [...new Set(out)].join(' ');
}

export async function createOrama(columns: readonly string[], variantName: string = DEFAULT_VARIANT.orama): Promise<JsEngine> {
  const v = ORAMA_VARIANTS[variantName];
  if (!v) throw new Error(`unknown Orama variant ${variantName} (${Object.keys(ORAMA_VARIANTS).join(', ')})`);
  const schema = Object.fromEntries(columns.map((c) => [c, 'string'])) as Record<string, 'string'>;
  const db: AnyOrama = create({ schema });
  const files = new Map<string, string>();
  return {
    name: `Orama (${variantName})`,
    async add(doc) {
      const r = insert(db, { id: String(doc.id), ...doc.fields } as never);
      if (r instanceof Promise) await r;
      files.set(String(doc.id), doc.path);
    },
    async search(query, limit) {
      const parsed = parseQuery(query);
      if (parsed.clauses.length === 0) return [];
      const res = await oramaSearch(db, { term: oramaTerm(parsed.clauses, v.terms), properties: [...columns], limit, exact: v.exact, threshold: v.threshold } as never);
      return (res as { hits: Array<{ id: string }> }).hits.map((h) => files.get(h.id) ?? '');
    },
  };
}
