// The file watcher as callers see it: its state (events or polling, pending changes, runs) and the
// watch request and answer. Owns these shapes; watching is the runtime's (runtimes/node/watcher.ts),
// the pending-change bookkeeping core/freshness.ts, turning it on and off core/service/watching.ts.
import { z } from 'zod';
import { answerFields } from './common.ts';

/** What a runtime's watcher reports about itself. */
export const watcherStatus = z.object({
  state: z.enum(['off', 'starting', 'on', 'error']),
  mode: z.enum(['events', 'polling']).nullable().describe('events: OS file events; polling: periodic scans (fallback when the OS watch limit is hit)'),
  reason: z.string().optional().describe('why polling, why off, or the error'),
  since: z.string().nullable(),
  poll_interval_ms: z.number().optional(),
});

export const watcherView = watcherStatus.extend({
  pending: z.number().nullable().describe('relevant changes seen on disk and not in the index yet (null: unknown, the watcher is off)'),
  pending_sample: z.array(z.string()).optional(),
  debounce_ms: z.number(),
  runs: z.number(),
  last_change_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const watchRequest = z.strictObject({
  enabled: z.boolean().describe('true: watch the workspace and re-index changed files automatically; false: stop watching'),
});

export const watchAnswer = z.object({
  status: z.enum(['ok', 'error']),
  watcher: watcherView,
  ...answerFields,
});

export type WatcherStatus = z.infer<typeof watcherStatus>;
export type WatcherView = z.infer<typeof watcherView>;
export type WatchRequest = z.infer<typeof watchRequest>;
export type WatchAnswer = z.infer<typeof watchAnswer>;
