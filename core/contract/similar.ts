// "More like this": the request (a hit id, a file and line, or a code snippet, plus the search
// filters) and the answer (the search answer's shape: hits are `text_vector`, best first, with their
// cosine as vec_score; `source` says which chunk or text they are near). Owns these shapes; the call
// is core/search/similar.ts.
import { z } from 'zod';
import { searchRequest, searchResponse } from './search.ts';
import { taskView } from './tasks.ts';

export const similarRequest = z.strictObject({
  hit_id: z.string().min(1).optional().describe('a hit_id from search: chunks like that hit\'s chunk'),
  path: z.string().min(1).optional().describe('with line: chunks like the innermost chunk holding that line'),
  line: z.number().int().min(1).optional().describe('1-based line in path'),
  snippet: z.string().min(1).max(20_000).optional().describe('a piece of code or text: chunks like it'),
  limit: searchRequest.shape.limit,
  cursor: searchRequest.shape.cursor,
  paths: searchRequest.shape.paths,
  exts: searchRequest.shape.exts,
  exclude_paths: searchRequest.shape.exclude_paths,
});

export const similarSource = z.object({
  kind: z.enum(['hit', 'line', 'snippet']),
  chunk_id: z.number().optional(),
  path: z.string().optional(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
});

export const similarResponse = searchResponse.extend({
  source: similarSource.nullable().describe('the chunk (or snippet) the hits are similar to'),
});

/** A long-lived host's answer: plus the indexing run in progress, if any. */
export const similarAnswer = similarResponse.extend({ task: taskView.optional() });

export type SimilarRequest = z.infer<typeof similarRequest>;
export type SimilarResponse = z.infer<typeof similarResponse>;
export type SimilarAnswer = z.infer<typeof similarAnswer>;
