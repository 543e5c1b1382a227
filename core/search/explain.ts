// Explains one hit: its chunk text (bounded), which query terms matched in which fields, each
// channel's score and rank (and what the channel adds: FTS's raw BM25 and column weights), every
// factor applied (the path role with its evidence, the compounds the query was expanded with) and the
// hit's rank. Owns the explanation shape; the ranking comes from the same
// pipeline a search runs (pipeline.ts), so the numbers are the ones a search shows.
import type { Database } from '../sqlite/engine.ts';
import type { RankedResult } from './candidates.ts';
import { round } from './candidates.ts';
import { channelEntry } from './candidates.ts';
import { COLUMN_WEIGHTS } from './channels/fts.ts';
import { ROLE_SETTING } from './roles.ts';
import { declarationTier } from './rerank.ts';
import { clauseExpr, clauseLabel, type ParsedQuery } from './query.ts';
import { weightsShown } from './term-weights.ts';
/** The explanation's shape is part of the contract (core/contract/explain.ts). */
export type { Explanation, ChannelExplanation };
import { sliceLines } from '../index/fts-row.ts';

const MAX_TEXT_LINES = 200;
const FIELDS = ['path', 'symbol', 'header', 'body', 'idents', 'cjk'] as const;

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

export function loadChunk(db: Database, chunkId: number, codec: DeflateCodec): ChunkRow | undefined {
  const row = db.selectObject(
    `SELECT c.id, c.file_id, c.ordinal, f.path, f.lang, f.flags, c.start_line, c.end_line, c.kind, c.symbol_kind, c.symbol_name
     FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?`,
    [chunkId],
  ) as (Omit<ChunkRow, 'header' | 'body' | 'member_key'> & { file_id: number; ordinal: number }) | undefined;
  if (!row) return undefined;
  const stored = readStoredFile(db, row.file_id, codec);
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
      const label = clauseLabel(c);
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

import { pairedFiles } from './pairs.ts';
import type { ChannelExplanation, Explanation } from '../contract/explain.ts';
import { displayHeader, readStoredFile, type DeflateCodec } from '../index/file-data.ts';

export function explainChunk(db: Database, row: ChunkRow, ranked: RankedResult | null, codec: DeflateCodec): Explanation {
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
  const paired = pairedFiles(db, row.path, codec);
  if (paired.length) out.paired_files = paired;
  if (!ranked) return out;
  const idx = ranked.ranked.findIndex((c) => c.chunkId === row.id);
  const cand = idx >= 0 ? ranked.ranked[idx] : undefined;
  const { matched, unmatched } = matchedTerms(db, row.id, ranked.parsed);
  out.match = ranked.match;
  out.rank = cand ? idx + 1 : null;
  const fts = cand && channelEntry(cand, 'fts');
  if (cand) {
    out.score = round(cand.score);
    if (fts) {
      const d = fts.detail;
      out.fts = d?.neighbours !== undefined
        ? { bm25: round(Number(d.bm25)), score: round(fts.score), column_weights: COLUMN_WEIGHTS, neighbour_bm25: round(Number(d.neighbour_bm25)), neighbours: String(d.neighbours) }
        : { bm25: round(-fts.score), score: round(fts.score), column_weights: COLUMN_WEIGHTS };
    }
    out.factors = cand.factors;
    if (cand.role) out.role = { ...cand.role, factor: cand.factors.find((f) => f.name === ROLE_SETTING[cand.role!.role as keyof typeof ROLE_SETTING])?.factor ?? 1 };
  }
  if (ranked.parsed.neighbours) out[ranked.parsed.neighbours.source === 'repository' ? 'learned_terms' : 'neighbour_terms'] = ranked.parsed.neighbours.terms.map((t) => `${t.token}←${t.from} (${t.cosine})`);
  if (ranked.parsed.compounds?.length) out.compounds = ranked.parsed.compounds.map((c) => c.token);
  if (ranked.queryType) out.query_type = ranked.queryType;
  if (ranked.poolFileCap) out.pool_file_cap = ranked.poolFileCap;
  const d = cand?.declaration;
  if (d) out.declaration = { query: d.query, name: d.name, kind: d.kind, line: d.line, affix: d.affix, stem: d.stem, tier: round(declarationTier(d)) };
  out.matched_terms = matched;
  out.unmatched_terms = unmatched;
  if (ranked.parsed.dropped.length) out.dropped_stop_words = ranked.parsed.dropped;
  const weights = weightsShown(ranked.parsed);
  if (weights) out.term_weights = weights;
  if (cand?.fusion && ranked.fusion) {
    const f = ranked.fusion;
    out.fusion = {
      mode: 'hybrid', route: f.route, route_reason: f.route_reason, weights: f.weights, guard: f.guard, guarded: cand.fusion.guarded,
      keyword: { normalized: round(cand.fusion.keyword), from: cand.fusion.keywordFrom },
      vector: { normalized: round(cand.fusion.vector), from: cand.fusion.vectorFrom, ...(cand.fusion.vectorCosine !== undefined ? { cosine: round(cand.fusion.vectorCosine) } : {}) },
      min_vector_score: f.min_vector_score, keyword_cosines: f.keyword_cosines, ...(f.vector_roles ? { vector_roles: true } : {}), ...(f.vector_agreement ? { vector_agreement: f.vector_agreement } : {}), ...fusionBlend(f),
      ...(cand.fusion.lifted ? { lifted: true } : {}),
    };
  } else if (ranked.fusion) {
    const f = ranked.fusion;
    out.fusion = {
      mode: 'hybrid', route: f.route, route_reason: f.route_reason, weights: f.weights, guard: f.guard, guarded: false,
      keyword: { normalized: 0, from: 'none' }, vector: { normalized: 0, from: 'none' }, min_vector_score: f.min_vector_score, keyword_cosines: f.keyword_cosines, ...(f.vector_roles ? { vector_roles: true } : {}), ...(f.vector_agreement ? { vector_agreement: f.vector_agreement } : {}), ...fusionBlend(f),
    };
  }
  if (cand) {
    out.channels = Object.fromEntries(cand.channels.map((e) => {
      const section: ChannelExplanation = { hit_kind: e.channel.hitKind, score: round(e.score), rank: e.rank, ...e.channel.explain?.(e) };
      return [e.channel.name, section];
    }));
  }
  return out;
}

/** The fusion type, calibration and gate reading a hybrid answer used, when settings chose them (fusion_by_type, fusion_calibration, fusion_gate). */
function fusionBlend(f: NonNullable<RankedResult['fusion']>): Pick<NonNullable<RankedResult['fusion']>, 'fusion_type' | 'calibration' | 'gate'> {
  return { ...(f.fusion_type ? { fusion_type: f.fusion_type } : {}), ...(f.calibration ? { calibration: f.calibration } : {}), ...(f.gate ? { gate: { ...f.gate, vector_gap: round(f.gate.vector_gap), keyword_lead: f.gate.keyword_lead === null ? null : round(f.gate.keyword_lead) } } : {}) };
}
