// Query-side expansion with the repository's own identifiers, done once per search after parsing
// (query.ts) and before the channels run: adjacent query words that the index holds written as one
// identifier ("settings page" → `SettingsPage`, "main view" → `MainView`, "content dialog" →
// `ContentDialog`) become compounds, which rerank matches against file and symbol names like any
// query word, so the view, file or type named by the pair ranks above chunks that merely hold both
// words. (Put into the FTS expression instead, a compound's rare token outweighed everything else in
// BM25: tried and dropped.) Only compounds the index holds are kept (asked of FTS5, one bounded
// lookup each). Owns the choice of compounds; matching names is rerank.ts's.
import type { Compound, ParsedQuery } from './query.ts';
import type { SearchSession } from './session.ts';

/** What the lookups read through: the search session's statements, prepared once per connection (each FTS5 statement's preparing cost about as much as its lookup). */
type Lookups = Pick<SearchSession, 'value'>;

/** Pairs looked up per query at most (long questions would otherwise pay for every neighbour). */
const MAX_LOOKUPS = 12;
/** A compound shorter than this is too likely to be an unrelated token (`toon` from "to on"). */
const MIN_COMPOUND = 6;

function held(db: Lookups, token: string): boolean {
  return db.value('SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1', [`"${token}"`]) !== undefined;
}

/**
 * The compounds of adjacent word clauses (as written: filters and dropped stop words do not make
 * words adjacent) that the index holds, left to right, never two sharing a clause.
 */
export function findCompounds(db: Lookups, q: ParsedQuery): Compound[] {
  const out: Compound[] = [];
  let lookups = 0;
  for (let i = 0; i + 1 < q.clauses.length && lookups < MAX_LOOKUPS; i++) {
    const a = q.clauses[i];
    const b = q.clauses[i + 1];
    if (a.kind !== 'word' || b.kind !== 'word' || a.prefix || b.prefix || a.parts.length || b.parts.length) continue;
    if (!q.adjacent?.[i]) continue;
    const token = a.token + b.token;
    if (token.length < MIN_COMPOUND) continue;
    lookups++;
    if (!held(db, token)) continue;
    out.push({ first: i, token });
    i++; // the next pair would share clause i + 1
  }
  return out;
}

/** The parsed query with its compounds (the same object when there are none). */
export function expandQuery(db: Lookups, q: ParsedQuery): ParsedQuery {
  if (q.clauses.length < 2) return q;
  const compounds = findCompounds(db, q);
  return compounds.length ? { ...q, compounds } : q;
}
