// Explaining one hit: the chunk text (bounded), which query terms matched in which fields, the BM25
// score with every factor, the rank, and the files paired with it. Owns the request and answer
// shapes; the explanation is computed by core/search/explain.ts.
import { z } from 'zod';
import { answerFields, symbolRef } from './common.ts';
import { hitKind, matchKind } from './search.ts';
import { QUERY_FORMS, QUERY_MAX_CHARS } from './limits.ts';

export const explainRequest = z.strictObject({
  hit_id: z.string().min(1).describe('a hit_id exactly as search returned it, e.g. "83.k4f9a2"'),
  query: z.string().max(QUERY_MAX_CHARS).optional().describe('the query, only if this hit_id did not come from a search on this server'),
  max_lines: z.number().int().min(1).max(200).optional().describe('lines of chunk text to return (default 60)'),
});

export const pairedFile = z.object({
  path: z.string(),
  relation: z.enum(['code_behind', 'scoped_css', 'markup']).describe('code_behind | scoped_css | markup (the view or component a code-behind belongs to)'),
});

export const explanation = z.object({
  path: z.string(),
  start_line: z.number(),
  end_line: z.number(),
  lang: z.string(),
  chunk_kind: z.string(),
  symbol: symbolRef.optional(),
  header: z.string(),
  text: z.string(),
  text_truncated: z.boolean(),
  query: z.string().nullable(),
  match: matchKind.optional(),
  rank: z.number().nullable().optional(),
  score: z.number().optional(),
  fts: z.object({
    bm25: z.number(), score: z.number(), column_weights: z.record(z.string(), z.number()),
    neighbour_bm25: z.number().optional().describe('a question expanded through the code model (setting neighbour_terms): the BM25 of the neighbour terms this chunk holds (bm25 is then its own words\')'),
    neighbours: z.string().optional().describe('the neighbour terms this chunk holds, each as neighbour←query word'),
  }).optional(),
  factors: z.array(z.object({ name: z.string(), factor: z.number(), weight: z.number().optional().describe('the exponent setting factor_weights raised this factor to (the factor shown is after it)') })).optional(),
  role: z.object({
    role: z.enum(['source', 'test', 'demo', 'docs', 'generated', 'build']),
    because: z.string(),
    factor: z.number(),
  }).optional().describe("the file's path role (from its path, content markers and project file), why, and the factor it weighs with"),
  neighbour_terms: z.array(z.string()).optional().describe('the code model\'s neighbours a question was expanded with (setting neighbour_terms), each as neighbour←query word, with its cosine; those the index holds joined the any-term pass at a low weight'),
  learned_terms: z.array(z.string()).optional().describe('the name parts this repository\'s doc comments link a question\'s words to (setting learned_terms), each as part←query word, with its normalised PMI; those the index holds joined the any-term pass at a low weight'),
  compounds: z.array(z.string()).optional().describe('neighbouring query words the index also holds as one identifier, matched against file and symbol names'),
  query_type: z.enum(['symbol', 'question', 'mixed']).optional().describe('symbol: names code; question: words only; mixed: identifiers among words (decides how much a declaration of a query name weighs)'),
  pool_file_cap: z.number().int().optional().describe('setting pool_file_cap, when on: each pass\'s candidate pool took at most this many chunks of one file, from channel lists 4x as deep'),
  declaration: z.object({
    query: z.string().describe('the query identifier'),
    name: z.string().describe('the name declared (the query name, or it with one of the repository\'s affixes)'),
    kind: z.string(),
    line: z.number().describe('the line of the name'),
    affix: z.string().nullable().describe('the affix the repository uses often that makes the declared name out of the query name (FA, Mud, I, Async …)'),
    stem: z.boolean().describe('the file is named after the declared name'),
    tier: z.number().describe('share of the raise (type over member, own file over other, exact over affix)'),
  }).optional().describe('this chunk declares a name the query gives: definition-first (factor `declaration`)'),
  matched_terms: z.array(z.object({ term: z.string(), fields: z.array(z.string()) })).optional(),
  unmatched_terms: z.array(z.string()).optional(),
  dropped_stop_words: z.array(z.string()).optional(),
  term_weights: z.record(z.string(), z.number()).optional().describe('query words weighing less than 1 in the keyword score (settings weak_term_weight, unnamed_term_weight): a verb of change, or a word no name, path or identifier of this repository holds (or few of its chunks name, with unnamed_term_share)'),
  paired_files: z.array(pairedFile).optional().describe('files that belong with this one'),
  channels: z.record(z.string(), z.looseObject({ hit_kind: hitKind, score: z.number(), rank: z.number() }))
    .optional().describe('every retrieval channel that found the chunk: its hit kind, its own score and rank, and what it adds (FTS: bm25, pass, column weights; vector: cosine, model)'),
  fusion: z.looseObject({
    mode: z.string(),
    route: z.string().describe('hybrid: both channels asked; keyword: routed to keyword only (route_reason says why)'),
    route_reason: z.string().nullable(),
    weights: z.object({ keyword: z.number(), vector: z.number() }),
    guard: z.number().describe('keyword\'s first N files keep their places'),
    guarded: z.boolean().describe('this hit is one of them'),
    keyword: z.object({ normalized: z.number(), from: z.enum(['chunk', 'file', 'none']) }),
    vector: z.object({
      normalized: z.number(),
      from: z.enum(['chunk', 'file', 'none', 'scored']).describe('scored: the chunk\'s own cosine, computed because the vector list did not reach it (setting keyword_cosines)'),
      cosine: z.number().optional().describe('with from = scored: that cosine'),
    }),
    min_vector_score: z.number(),
    keyword_cosines: z.boolean().optional().describe('keyword\'s candidates outside the vector list were fused with their own cosine'),
    vector_roles: z.boolean().optional().describe('the vector values were weighed by the hits\' path role factors (setting vector_roles)'),
    vector_agreement: z.number().optional().describe('a file only the vector channel found needed this share of the best cosine of keyword\'s first files (setting vector_agreement)'),
    fusion_type: z.enum(QUERY_FORMS).optional().describe('the query\'s fusion type, which chose the weights and guard (setting fusion_by_type)'),
    calibration: z.enum(['zscore']).optional().describe('each channel\'s scores as standard scores, not min-max (setting fusion_calibration)'),
    gate: z.object({
      vector_gap: z.number().describe('the cosine lead of the vector channel\'s first file over its second'),
      keyword_lead: z.number().nullable().describe('keyword\'s first file\'s score over its second\'s (null: fewer than two files)'),
      opened: z.boolean().describe('the gate opened: the vector channel\'s first file entered keyword\'s top files'),
      file: z.string().optional().describe('that file'),
    }).optional().describe('the confidence gate\'s reading for this query (setting fusion_gate)'),
    lifted: z.boolean().optional().describe('the gate opened and moved this hit up'),
  }).optional().describe('hybrid: how the two channels were fused for this hit (fused score = weights · normalised values)'),
});

export const explainResponse = z.object({
  status: z.enum(['ok', 'error']),
  hit_id: z.string(),
  explanation: explanation.optional(),
  ...answerFields,
});

export type ExplainRequest = z.infer<typeof explainRequest>;
export type PairedFileInfo = z.infer<typeof pairedFile>;
export type Explanation = z.infer<typeof explanation>;
export type ChannelExplanation = NonNullable<Explanation['channels']>[string];
export type ExplainResponse = z.infer<typeof explainResponse>;
