// Indexing runs as callers see them: the summary of one run (CLI `index --json`, the library, the
// browser Worker), a background task with its progress (MCP `reindex` and `status`), and the reindex
// request and answer. Owns these shapes; the runs themselves are core/index/indexer.ts, the task
// rules core/tasks.ts and core/service/indexing.ts.
import { z } from 'zod';
import { answerFields, skipCounts } from './common.ts';

export const indexSummary = z.object({
  generation: z.number(),
  files_scanned: z.number().describe('files the scan considered (with paths: one per file path given, plus the files below directory paths)'),
  files_indexed: z.number(),
  files_unchanged: z.number(),
  files_removed: z.number(),
  chunks_written: z.number(),
  bytes_read: z.number(),
  skipped: skipCounts,
  parse_fallback: z.number(),
  parse_errors: z.number().describe('files indexed in this run whose syntax the grammar did not fully know (e.g. C# 14): their outline was recovered around the errors'),
  took_ms: z.number(),
  batches: z.number(),
  max_batch_ms: z.number(),
  prepared_in_worker: z.number().describe("files parsed by the runtime's worker pool rather than in-thread; 0 without a pool or for small passes"),
  vectors: z.lazy(() => vectorRun).optional().describe('the vector phase after the keyword pass (semantic search on)'),
  repaired: z.object({
    reason: z.string().describe('what was wrong with the index file'),
    moved_to: z.string().nullable().describe('where the damaged file was moved (null: removed, or an outdated format)'),
  }).optional().describe('a --full run found the index damaged or of another format and rebuilt it from an empty file'),
  compacted: z.object({
    took_ms: z.number(),
    steps: z.number().describe('merge steps, each one short write transaction'),
    bytes_before: z.number(),
    bytes_after: z.number(),
  }).optional().describe('the keyword index\'s segments were merged and freed pages handed back (after passes that replaced many rows, e.g. --full)'),
});

/** What a run's vector phase did (core/vector/indexing.ts). */
export const vectorRun = z.object({
  provider: z.string(),
  model: z.string().nullable(),
  trained: z.boolean().describe('learned: a model was (re)trained from the index\'s chunks'),
  train_reason: z.string().nullable(),
  embedded: z.number().describe('chunks embedded in this run'),
  reused: z.number().describe('chunks whose vector came from the embedding cache (same text, same model)'),
  chunks: z.number(),
  with_vectors: z.number(),
  took_ms: z.number(),
  phases: z.record(z.string(), z.number()).optional().describe('milliseconds per step of the vector phase (learned: read, tokens, cooccurrence, ppmi, svd, word vectors, chunk vectors, write)'),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }).nullable().describe('the provider failed: keyword search is unaffected; status says what is missing'),
});

/** `hci index --json`: the run's summary. */
export const indexAnswer = indexSummary.extend({ status: z.literal('ok') });

export const taskState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);

export const taskProgress = z.object({
  phase: z.enum(['scan', 'index', 'vectors', 'done']),
  files_done: z.number(),
  files_total: z.number(),
  chunks: z.number(),
  vectors_done: z.number().optional().describe('vector phase: chunks embedded so far'),
  vectors_total: z.number().optional(),
  vectors_per_s: z.number().optional(),
  eta_s: z.number().optional(),
});

export const taskView = z.object({
  task_id: z.string(),
  kind: z.string(),
  state: taskState,
  full: z.boolean(),
  trigger: z.string().describe('who started it: tool, search (first build), watcher'),
  paths: z.array(z.string()).optional().describe('the run covers only these paths'),
  progress: taskProgress.nullable(),
  cancel_requested: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  took_ms: z.number().nullable(),
  result: z
    .object({ generation: z.number(), files_indexed: z.number(), files_unchanged: z.number(), files_removed: z.number(), chunks_written: z.number(), took_ms: z.number() })
    .optional(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});

/** How long a call may wait for a run (ms). */
export const maxWait = z.number().int().min(0).max(50_000);

export const reindexRequest = z.strictObject({
  full: z.boolean().optional().describe('rebuild everything (also repairs an outdated or damaged index); default: incremental, only changed files'),
  paths: z.array(z.string().min(1)).min(1).max(1000).optional()
    .describe('update only these files or folders (workspace-relative or absolute inside the workspace), e.g. ["src/Web/Program.cs"]: no scan of the rest of the tree; a deleted or now-ignored path is removed. Not with full'),
  cancel: z.boolean().optional().describe('cancel a run instead of starting one (task_id, or the current run)'),
  task_id: z.string().optional().describe('with cancel: the task to cancel'),
  wait_ms: maxWait.optional().describe('wait up to this long (max 50000) for the run to finish before answering (default 0: answer at once)'),
});

export const reindexAnswer = z.object({
  status: z.enum(['ok', 'error']),
  task: taskView.nullable(),
  coalesced: z.boolean().optional().describe('an equal request was already waiting: its task is returned'),
  ...answerFields,
});

export type IndexSummary = z.infer<typeof indexSummary>;
export type IndexAnswer = z.infer<typeof indexAnswer>;
export type TaskProgress = z.infer<typeof taskProgress>;
export type VectorRun = z.infer<typeof vectorRun>;
export type TaskView = z.infer<typeof taskView>;
export type ReindexRequest = z.infer<typeof reindexRequest>;
export type ReindexAnswer = z.infer<typeof reindexAnswer>;
