// The pieces every answer of the contract shares: its version, how current the index is, files left
// out by reason, the error object and the hint. Owns those shapes and their meaning; the answers that
// use them are declared beside their calls (search.ts, status.ts, …), the code that fills them is in
// core/workspace.ts and core/service/. A field's meaning never changes silently: bump CONTRACT_VERSION.
import { z } from 'zod';

export { CONTRACT_VERSION } from './version.ts';

export const errorInfo = z.object({
  code: z.string().describe('stable error code, e.g. invalid_arguments, path_outside_workspace, no_index, index_busy, not_available'),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('what was wrong with each argument'),
});

export const hint = z.string().optional().describe('what to do next, when useful');

export const indexFreshness = z
  .object({
    location: z.string(),
    generation: z.number().describe('bumped by every committed indexing batch'),
    indexed_at: z.string().nullable().describe('when the last indexing run finished (ISO 8601)'),
    build_state: z.string().describe('complete | partial | empty'),
    files: z.number(),
    chunks: z.number(),
    parse_errors: z.number().describe('indexed files whose syntax the grammar did not fully know (e.g. C# 14): members are recovered around the errors; the text is indexed whole'),
    pending_changes: z.number().nullable().describe('files changed on disk and not indexed yet (null: unknown, e.g. the watcher is off)'),
    indexer_running: z.boolean(),
    git: z
      .object({
        commit: z.string().nullable().describe('the HEAD commit of the checkout when the index was last built'),
        branch: z.string().nullable().describe('its branch (null: a detached HEAD)'),
        head: z.string().nullable().describe('the checkout\'s HEAD commit now (null: unknown, e.g. an index read over HTTP)'),
        head_branch: z.string().nullable(),
        note: z.string().optional().describe('"built at <commit>; HEAD is <commit>": present when HEAD moved since the index was built (the next incremental run re-indexes what differs)'),
      })
      .optional()
      .describe('the git commit the index was built at, and the checkout\'s HEAD now (absent: not a git checkout)'),
    read_only: z.boolean().optional().describe('true for a published index read over HTTP: nothing indexes it here'),
  })
  .describe('how current the index is');

/** Every answer carries it; null only when there is no index or it cannot be read. */
export const freshness = indexFreshness.nullable().describe('how current the index is (null: no index, or it cannot be read)');

/** Files left out of the index, by reason (ignored, too_large, binary, secret_content, limit, …). */
export const skipCounts = z.record(z.string(), z.number()).describe('files left out of the index, by reason');

/** What every answer ends with: how fresh the index is, what to do next, and the error when status is error. */
export const answerFields = { index: freshness, hint, error: errorInfo.optional() };

/** What a path looks like beyond its language (core/scan/languages.ts heuristics). */
export const fileKind = z
  .enum(['test', 'generated'])
  .describe('test: a test project, folder or file; generated: tool output or vendored code (*.g.cs, *.designer.cs, wwwroot/lib, EF migrations)');

export const symbolRef = z.object({ kind: z.string(), name: z.string(), member_key: z.string().optional() });

/** A failure that is not any call's answer (the CLI's bad usage, a workspace that cannot be opened). */
export const failureAnswer = z.object({ status: z.literal('error'), error: errorInfo, hint });

export type ErrorInfo = z.infer<typeof errorInfo>;
export type FailureAnswer = z.infer<typeof failureAnswer>;
export type IndexFreshness = z.infer<typeof indexFreshness>;
export type HitSymbol = z.infer<typeof symbolRef>;
export type FileKind = z.infer<typeof fileKind>;
