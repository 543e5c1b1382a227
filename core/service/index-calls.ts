// The handlers of the verbs about the index itself (rows of verbs.ts): status (with the host's
// watcher and tasks where the surface shows them, and a task followed by id), reindex (a background
// run, or cancelling one) and watch (the watcher on or off). Each throws on failure: the table's
// caller answers with the verb's failure answer. The runs are indexing.ts's, the watcher
// watching.ts's, the report core/workspace.ts's.
import { HciError } from '../platform.ts';
import type { StatusAnswer, StatusRequest } from '../contract/status.ts';
import type { ReindexAnswer, ReindexRequest, TaskView } from '../contract/tasks.ts';
import type { WatchAnswer, WatchRequest } from '../contract/watch.ts';
import { isFinal } from '../tasks.ts';
import type { CallContext } from './host.ts';
import type { ServiceContext } from './context.ts';
import { tidyHint, viewTask } from './views.ts';

export async function status(cx: ServiceContext, args: StatusRequest, ctx: CallContext): Promise<StatusAnswer> {
  let task: TaskView | undefined;
  if (args.task_id !== undefined) {
    const t = await cx.runs.follow(args.task_id, args.wait_ms ?? 0, ctx);
    if (!t) throw new HciError('unknown_task', `no task "${args.task_id}" on this server`, 'task ids live as long as the server process; call reindex to start a new run');
    task = viewTask(t, cx.surface)!;
  }
  const ws = await cx.gate.workspace();
  // Without the workspace's files every indexed file would count as deleted.
  const checkPending = (args.check_pending ?? !cx.watching.active) && cx.hasSource();
  const r = await cx.gate.serialized(() => ws.status({ checkPending, checkPages: true }));
  const out: StatusAnswer = { ...r, index: cx.watching.withPending(r.index), hint: cx.hint(r.hint), ...hostFields(cx) };
  if (task && cx.policy.hostFields) out.task = task;
  if (!out.error) delete out.error;
  if (r.status === 'no_index' && cx.policy.buildOnSearch) out.hint = 'no index yet: call reindex (or just search, which starts it)';
  if (cx.policy.skippedSamples !== undefined) out.skipped_samples = out.skipped_samples.slice(0, cx.policy.skippedSamples);
  return tidyHint(out);
}

/** What a status answer adds where the surface shows the host (policy hostFields): its watcher and recent tasks. */
export function hostFields(cx: ServiceContext): Pick<StatusAnswer, 'watcher' | 'tasks'> {
  return cx.policy.hostFields ? { watcher: cx.watching.view(), tasks: cx.tasks.list().slice(0, 5).map((t) => viewTask(t, cx.surface)!) } : {};
}

export async function reindex(cx: ServiceContext, args: ReindexRequest, ctx: CallContext): Promise<ReindexAnswer> {
  if (args.cancel) {
    const id = args.task_id ?? cx.runs.active()?.task_id;
    if (!id) throw new HciError('no_task', 'no indexing run to cancel', 'status lists the recent tasks');
    const t = cx.tasks.cancel(id);
    if (!t) throw new HciError('unknown_task', `no task "${id}" on this server`, 'status lists the recent tasks');
    const final = await cx.tasks.waitFor(id, 5000, ctx.signal);
    const v = viewTask(final, cx.surface)!;
    return {
      status: 'ok', task: v, index: await cx.freshness(),
      hint: v.state === 'cancelled' ? 'cancelled; the index keeps every file committed so far (a later reindex finishes the job)'
        : isFinal(v.state) ? `the task had already ended (${v.state})` : 'cancellation requested; the run stops after the current batch',
    };
  }
  if (args.task_id !== undefined) {
    throw new HciError('invalid_arguments', 'task_id is only used with cancel: true', 'to follow a task, call status with task_id');
  }
  let paths: string[] | undefined;
  if (args.paths !== undefined) {
    if (args.full) throw new HciError('invalid_arguments', 'full and paths do not go together', 'full: true rebuilds every file; paths updates only the files or folders given');
    paths = cx.relativePaths(args.paths);
  }
  await cx.gate.workspace();
  const { task, coalesced } = cx.runs.start(!!args.full, 'tool', false, paths);
  const t = (await cx.runs.follow(task.task_id, args.wait_ms ?? 0, ctx)) ?? task;
  const v = viewTask(t, cx.surface)!;
  if (v.state === 'failed' && v.error) {
    return { status: 'error', task: v, index: await cx.freshness(), error: { code: v.error.code, message: v.error.message }, ...(v.error.hint ? { hint: v.error.hint } : {}) };
  }
  return {
    status: 'ok', task: v, coalesced, index: await cx.freshness(),
    hint: isFinal(v.state) ? `indexing ${v.state}` : `indexing in the background; call status with task_id "${v.task_id}" (and wait_ms) to follow it`,
  };
}

export async function watch(cx: ServiceContext, args: WatchRequest): Promise<WatchAnswer> {
  await cx.watching.enable(args.enabled, 3000);
  const v = cx.watching.view();
  return {
    status: 'ok', watcher: v, index: await cx.freshness(),
    hint: args.enabled
      ? `watching ${v.mode === 'polling' ? `by polling every ${v.poll_interval_ms} ms` : 'with OS file events'}; changes are indexed about ${v.debounce_ms} ms after they stop`
      : 'not watching: answers cannot know about changes on disk; call reindex after editing files, or status with check_pending: true',
  };
}
