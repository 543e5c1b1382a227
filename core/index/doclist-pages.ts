// Where the doclists of an FTS5 expression's terms lie in the keyword index's %_data table: for a
// remote index (read over HTTP), which fetches those rows ahead in one request instead of letting
// FTS5 read a term's leaves one after another (a request per page, then runs that grow as the
// reads stay in order: ~10-15 requests of a first query on Avalonia). Owns turning an expression's
// phrases into index terms (FTS5's own tokenizer, in a private in-memory table) and the terms into
// %_data rowids (fts5_index.c: the %_idx table maps the first term of each leaf to its page; a
// term's doclist runs from the leaf where it starts to the next leaf that starts a later term).
// Fetching the rows is the storage's (IndexStorage.prefetchRows); the session calls it.
import type { Database } from '../sqlite/engine.ts';
import { ftsStructure } from './fts-structure.ts';

/** rowid of a leaf page of a segment (fts5_index.c FTS5_SEGMENT_ROWID: the segment id above 37 bits of page, height and doclist-index flag). */
const leafRowid = (segment: number, page: number) => segment * 2 ** 37 + page;
/** rowid of a doclist-index page (FTS5_DLIDX_ROWID): height 0 first, for the doclist that starts on `leaf`. */
const dlidxRowid = (segment: number, height: number, leaf: number) => segment * 2 ** 37 + 2 ** 36 + height * 2 ** 31 + leaf;

/** The most leaves read ahead for one term (a common word's doclist: `public` is ~55 leaves of ~4 KB on Avalonia). */
const MAX_LEAVES = 256;

/** The quoted phrases of an FTS5 expression that FTS5 looks up whole (not a prefix `"ab"*`), unquoted. */
export function exactPhrases(expr: string): string[] {
  const out: string[] = [];
  for (const m of expr.matchAll(/"((?:[^"]|"")*)"(\*?)/g)) if (!m[2]) out.push(m[1].replace(/""/g, '"'));
  return out;
}

/**
 * Index terms of texts as a table with `tokenizer` stores them (FTS5's own tokenizer in a table of
 * `scratch`, an in-memory database: the porter stemmer's output, case and diacritics folded), sorted.
 */
export function ftsTerms(scratch: Database, tokenizer: string, texts: readonly string[]): string[] {
  if (!texts.length) return [];
  scratch.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.hci_terms USING fts5(x, tokenize='${tokenizer.replace(/'/g, "''")}')`);
  scratch.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.hci_terms_vocab USING fts5vocab(temp, hci_terms, row)');
  scratch.exec('DELETE FROM temp.hci_terms');
  for (const t of texts) scratch.exec('INSERT INTO temp.hci_terms(x) VALUES (?)', { bind: [t] });
  return (scratch.selectValues('SELECT term FROM temp.hci_terms_vocab ORDER BY term') as string[]).map(String);
}

/**
 * The %_data rowids of `table`'s (an FTS5 table's name) doclists for `terms`: per segment, the
 * leaves from the one a term starts on to the next leaf that starts a later term (inclusive: it may
 * hold the doclist's tail), at most MAX_LEAVES, and the doclist-index pages of a doclist that has
 * one (FTS5 reads them to skip). Empty when the structure record does not decode.
 */
export function doclistRowids(db: Database, table: string, terms: readonly string[]): number[] {
  const segments = ftsStructure(db, table)?.list ?? [];
  if (!segments.length || !terms.length) return [];
  const enc = new TextEncoder();
  const before = db.prepare(`SELECT pgno FROM ${table}_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1`);
  const after = db.prepare(`SELECT pgno FROM ${table}_idx WHERE segid = ? AND term > ? ORDER BY term LIMIT 1`);
  const pgno = (st: typeof before, segment: number, key: Uint8Array): number | null => {
    try {
      st.bind([segment, key]);
      return st.step() ? Number(st.get(0)) : null;
    } finally {
      st.reset(true);
    }
  };
  const out: number[] = [];
  try {
    for (const term of terms) {
      // A term of the main index is stored after the byte '0' (FTS5_MAIN_PREFIX; prefix indexes use others).
      const key = enc.encode(`0${term}`);
      for (const s of segments) {
        const start = pgno(before, s.id, key);
        const end = pgno(after, s.id, key);
        const first = start === null ? s.first : start >> 1;
        const last = Math.min(end === null ? s.last : end >> 1, first + MAX_LEAVES - 1);
        for (let p = first; p <= last; p++) out.push(leafRowid(s.id, p));
        // pgno's low bit: the doclist that starts on that leaf has a doclist index.
        if (start !== null && start & 1) for (let h = 0; h < 3; h++) out.push(dlidxRowid(s.id, h, first));
      }
    }
  } finally {
    before.finalize();
    after.finalize();
  }
  return out;
}
