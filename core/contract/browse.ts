// Browsing the index without a query: the files it holds (a quick file finder), one file's indexed
// text (a viewer, an agent expanding a hit), and how a query's matches spread over extensions and
// languages (filter chips with counts). Owns these requests and answers; the reads are core/browse/,
// the calls core/service/. Every surface takes them from here (the browser Worker, the web-demo).
import { z } from 'zod';
import { answerFields, fileKind } from './common.ts';
import { pairedFile } from './explain.ts';
import { matchKind } from './search.ts';
import { FILES_LIMIT, QUERY_MAX_CHARS } from './limits.ts';

export { FILES_LIMIT };

export const filesRequest = z.strictObject({
  prefix: z.string().optional().describe('only files under this workspace-relative folder, e.g. "src/Web/"'),
  limit: z.number().int().min(1).max(FILES_LIMIT.max).optional().describe(`at most this many files, in path order (default ${FILES_LIMIT.default})`),
});

export const fileEntry = z.object({
  path: z.string().describe('workspace-relative, forward slashes'),
  lang: z.string(),
  size: z.number().describe('bytes on disk when indexed'),
  lines: z.number(),
  kinds: z.array(fileKind).optional(),
});

export const filesResponse = z.object({
  status: z.enum(['ok', 'empty', 'error']),
  files: z.array(fileEntry),
  total: z.number().describe('indexed files under the prefix'),
  truncated: z.boolean().describe('true when limit cut the list'),
  ...answerFields,
});

export const fileRequest = z.strictObject({
  path: z.string().min(1).describe('one indexed file, workspace-relative (src/Web/Program.cs)'),
  start_line: z.number().int().min(1).optional().describe('first line to return (1-based; default 1)'),
  end_line: z.number().int().min(1).optional().describe('last line to return (inclusive; default the last line)'),
});

export const fileResponse = z.object({
  status: z.enum(['ok', 'error']),
  path: z.string(),
  lang: z.string().optional(),
  size: z.number().optional(),
  line_count: z.number().optional().describe('lines in the whole file'),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  text: z.string().optional().describe('the indexed text of the lines asked for, as the hits\' line numbers count them; lines of chunks left out as secrets are empty'),
  secret_chunks: z.number().optional().describe('chunks of this file left out because they hold a secret (their lines are empty in text)'),
  kinds: z.array(fileKind).optional(),
  paired_files: z.array(pairedFile).optional().describe('files that belong with this one: code-behind, scoped CSS, the markup of a code-behind'),
  ...answerFields,
});

export const facetsRequest = z.strictObject({
  query: z.string().max(QUERY_MAX_CHARS).describe('the search query (its inline path:/-path: filters apply; ext: filters do not, so every extension is counted)'),
  paths: z.array(z.string()).optional(),
  exclude_paths: z.array(z.string()).optional(),
  exclude_kinds: z.array(fileKind).optional(),
});

const facetCount = { files: z.number().describe('files with a matching chunk'), chunks: z.number().describe('matching chunks') };

export const facetsResponse = z.object({
  status: z.enum(['ok', 'empty', 'error']),
  query: z.string(),
  match: matchKind.describe('all: the counts are of chunks holding every term; any: none holds all, these hold some'),
  files: z.number(),
  chunks: z.number(),
  exts: z.array(z.object({ ext: z.string().describe('lower-case with the dot; "" for names without one'), lang: z.string(), ...facetCount })).describe('by extension, most files first'),
  langs: z.array(z.object({ lang: z.string(), exts: z.array(z.string()), ...facetCount })).describe('by language, most files first'),
  ...answerFields,
});

export type FilesRequest = z.infer<typeof filesRequest>;
export type FileEntry = z.infer<typeof fileEntry>;
export type FilesResponse = z.infer<typeof filesResponse>;
export type FileRequest = z.infer<typeof fileRequest>;
export type FileResponse = z.infer<typeof fileResponse>;
export type FacetsRequest = z.infer<typeof facetsRequest>;
export type FacetsResponse = z.infer<typeof facetsResponse>;
