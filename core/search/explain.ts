// Explains one hit: its chunk text (bounded), which query terms matched in which fields, the BM25
// score, every factor applied and the hit's rank. Owns the explanation shape; re-ranking uses
// search.ts so the numbers are the same ones a search shows.
import type { Database } from '../sqlite/engine.ts';
import { COLUMN_WEIGHTS, round, type RankedResult } from './search.ts';
import { clauseExpr, type ParsedQuery } from './query.ts';
import { pairedFiles } from './pairs.ts';
import type { Explanation } from '../contract/explain.ts';
import { displayHeader, readStoredFile } from '../index/file-data.ts';
import { sliceLines } from '../index/fts-row.ts';

const MAX_TEXT_LINES = 200;
const FIELDS = ['path', 'symbol', 'header', 'body', 'idents'] as const;

export interface ChunkRow {
  id: number;
  path: string;
  lang: string;
  flags: number;
  start_line: number;
  end_line: number;
  kind: string;
  symbol_kind: string | null;
  symbol_name: string | null;
  member_key: string | null;
  header: string;
  body: string;
}

export function loadChunk(db: Database, chunkId: number): ChunkRow | undefined {
  const row = db.selectObject(
    `SELECT c.id, c.file_id, c.ordinal, f.path, f.lang, f.flags, c.start_line, c.end_line, c.kind, c.symbol_kind, c.symbol_name
     FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?`,
    [chunkId],
  ) as (Omit<ChunkRow, 'header' | 'body' | 'member_key'> & { file_id: number; ordinal: number }) | undefined;
  if (!row) return undefined;
  const stored = readStoredFile(db, row.file_id);
  const { file_id: _file, ordinal, ...rest } = row;
  return {
    ...rest,
    member_key: stored?.keys[ordinal] ?? null,
    header: stored ? displayHeader(stored, ordinal) : '',
    body: stored ? sliceLines(stored.lines, row.start_line, row.end_line) : '',
  };
}

export interface TermMatch {
  term: string;
  fields: string[];
}

/**
 * Which query terms occur in which FTS field of the chunk. Asked of FTS5 itself (column filter plus
 * rowid), so stemming and identifier splitting are judged exactly as the search judged them.
 */
export function matchedTerms(db: Database, chunkId: number, parsed: ParsedQuery): { matched: TermMatch[]; unmatched: string[] } {
  const matched: TermMatch[] = [];
  const unmatched: string[] = [];
  const st = db.prepare('SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
  try {
    for (const c of parsed.clauses) {
      const label = c.kind === 'phrase' ? `"${c.tokens.join(' ')}"` : c.token;
      const fields = FIELDS.filter((field) => {
        st.bind([`{${field}} : (${clauseExpr(c)})`, chunkId]);
        const hit = st.step();
        st.reset();
        return hit;
      });
      if (fields.length) matched.push({ term: label, fields });
      else unmatched.push(label);
    }
  } finally {
    st.finalize();
  }
  return { matched, unmatched };
}

/** The explanation's shape is part of the contract (core/contract/explain.ts). */
export type { Explanation };

export function explainChunk(db: Database, row: ChunkRow, ranked: RankedResult | null): Explanation {
  const lines = row.body.split('\n');
  const end = Math.min(row.end_line, row.start_line + MAX_TEXT_LINES - 1);
  const out: Explanation = {
    path: row.path,
    start_line: row.start_line,
    end_line: row.end_line,
    lang: row.lang,
    chunk_kind: row.kind,
    header: row.header,
    text: lines.slice(0, end - row.start_line + 1).join('\n'),
    text_truncated: end < row.end_line,
    query: ranked ? ranked.parsed.raw : null,
  };
  if (row.symbol_name) out.symbol = { kind: row.symbol_kind ?? 'symbol', name: row.symbol_name, ...(row.member_key ? { member_key: row.member_key } : {}) };
  const paired = pairedFiles(db, row.path);
  if (paired.length) out.paired_files = paired;
  if (!ranked) return out;
  const idx = ranked.ranked.findIndex((c) => c.chunkId === row.id);
  const cand = idx >= 0 ? ranked.ranked[idx] : undefined;
  const { matched, unmatched } = matchedTerms(db, row.id, ranked.parsed);
  out.match = ranked.match;
  out.rank = cand ? idx + 1 : null;
  if (cand) {
    out.score = round(cand.score);
    out.fts = { bm25: round(cand.bm25), score: round(cand.ftsScore), column_weights: COLUMN_WEIGHTS };
    out.factors = cand.factors;
  }
  out.matched_terms = matched;
  out.unmatched_terms = unmatched;
  if (ranked.parsed.dropped.length) out.dropped_stop_words = ranked.parsed.dropped;
  return out;
}
