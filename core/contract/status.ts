// The state of an index: where it is, its format, how current it is, what it holds by language, what
// was skipped and why, the last run, changes on disk since then. Owns the status answer of the core
// and the long-lived host's additions (its watcher and indexing tasks); the report is filled by
// core/workspace.ts and core/service/.
import { z } from 'zod';
import { answerFields, skipCounts } from './common.ts';
import { maxWait, taskView } from './tasks.ts';
import { watcherView } from './watch.ts';

export const statusReport = z.object({
  status: z.enum(['ok', 'no_index', 'indexing', 'damaged', 'error']).describe('damaged: the index file fails a check (error says what; `hci index --full` moves it aside and rebuilds)'),
  format_version: z.number().nullable(),
  engine: z.string(),
  files_by_lang: z.record(z.string(), z.number()),
  skipped: skipCounts,
  skipped_samples: z.array(z.object({ path: z.string(), reason: z.string() })),
  large_files: z.object({
    windowed: z.number().describe('files over over_bytes indexed as line windows, without their structure'),
    over_bytes: z.number().describe('max_indexed_file_bytes: files up to this size are parsed'),
    max_bytes: z.number().describe('large_file_max_bytes: the hard cap; larger files are skipped (too_large)'),
    langs: z.array(z.string()).describe('large_file_langs: the languages windowed over over_bytes; others are skipped'),
  }).optional().describe('how files too large to parse are indexed (settings large_file_max_bytes, large_file_langs)'),
  last_run: z.unknown().describe('the summary of the last indexing run, as stored with the index'),
  pending: z.object({ added: z.number(), modified: z.number(), deleted: z.number() }).nullable().describe('files changed on disk since the last run (null: not checked)'),
  size: z.object({ index_bytes: z.number(), source_bytes: z.number() }).optional().describe('the index file and the indexed source it was built from'),
  vectors: z.object({
    state: z.enum(['off', 'not_built', 'partial', 'ready', 'failed']).describe('off: semantic search is off; not_built: no vectors yet (run the indexer); partial: some chunks lack vectors; failed: the last vector phase failed (last_error)'),
    provider: z.string().nullable(),
    model: z.string().nullable().describe('the model key: provider/model/dims/quantization'),
    chunks: z.number(),
    with_vectors: z.number(),
    coverage: z.number().describe('share of chunks with a vector'),
    last_error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional(), at: z.string() }).nullable(),
    last_run: z.unknown().nullable(),
  }).optional().describe('the semantic channel: which model, how many chunks have vectors, the last failure'),
  ...answerFields,
});

/** A long-lived host's status: the report plus its watcher and recent indexing tasks. */
export const hostStatus = statusReport.extend({
  watcher: watcherView,
  tasks: z.array(taskView).describe('recent indexing runs, newest first'),
  task: taskView.optional().describe('the task asked about (task_id)'),
});

/** The status verb's answer on every surface: the report, plus the host's fields where its surface shows them (MCP: hostStatus). */
export const statusAnswer = hostStatus.partial({ watcher: true, tasks: true });

export const statusRequest = z.strictObject({
  task_id: z.string().optional().describe('a task_id from reindex (or from a search that started the first build): report that task'),
  wait_ms: maxWait.optional().describe('with task_id: wait up to this long (max 50000) for the task to finish; progress notifications are sent meanwhile'),
  check_pending: z.boolean().optional().describe('scan the disk for files changed since the last run (default: only when the watcher is off)'),
});

export type StatusRequest = z.infer<typeof statusRequest>;
export type StatusReport = z.infer<typeof statusReport>;
export type HostStatus = z.infer<typeof hostStatus>;
export type StatusAnswer = z.infer<typeof statusAnswer>;
