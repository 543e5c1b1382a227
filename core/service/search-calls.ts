// The handlers of the search verbs (rows of verbs.ts): search (with the first build a surface may
// start for it), similar and explain, as the service answers them — paths checked against the
// root, the surface's token reserve and explanation bound, the running task, hints worded for the
// surface. Each throws on failure: the table's caller answers with the verb's failure answer. The
// search itself is the workspace's (core/workspace.ts, core/search/).
import { HciError } from '../platform.ts';
import { CONTRACT_VERSION } from '../contract/version.ts';
import type { SearchAnswer, SearchRequest } from '../contract/search.ts';
import type { ExplainRequest, ExplainResponse } from '../contract/explain.ts';
import type { SimilarAnswer, SimilarRequest } from '../contract/similar.ts';
import type { TaskSnapshot } from '../tasks.ts';
import type { CallContext } from './host.ts';
import type { ServiceContext } from './context.ts';
import { tidyHint, viewTask } from './views.ts';

/** Path filters relative to the root (a filter naming the root itself matches everything). */
function filters<R extends { paths?: string[]; exclude_paths?: string[] }>(cx: ServiceContext, r: R): Pick<R, 'paths' | 'exclude_paths'> {
  return {
    paths: r.paths?.map((p) => cx.paths.toRelative(p, 'paths filter')).map((p) => (p === '' ? '**' : p)),
    exclude_paths: r.exclude_paths?.map((p) => cx.paths.toRelative(p, 'exclude_paths filter')),
  };
}

export async function search(cx: ServiceContext, args: SearchRequest, ctx: CallContext): Promise<SearchAnswer> {
  const t0 = Date.now();
  const base: SearchAnswer = {
    contract_version: CONTRACT_VERSION, status: 'error', query: args.query, mode: args.mode ?? 'keyword',
    match: 'none', hits: [], took_ms: 0, index: null, skipped: {}, truncated: false,
  };
  // One workspace: `repos` filters a search over several (core/service/federation.ts).
  if (args.repos?.length) throw new HciError('invalid_request', 'repos filters a search over several repositories; this one searches a single workspace', 'leave repos out, or search several: hci search <query> --root A --root B, hci mcp A B');
  const reserve = cx.policy.tokenReserve;
  const req: SearchRequest = {
    ...args,
    ...filters(cx, args),
    // The core budgets the contract answer; a host that adds to it (task, longer hints) keeps room.
    max_tokens: args.max_tokens === undefined || reserve === 0 ? args.max_tokens : Math.max(100, args.max_tokens - reserve),
  };
  const ws = await cx.gate.workspace();
  const opts = { ...(ctx.keywordStats ? { keywordStats: ctx.keywordStats } : {}), ...(ctx.deferRender ? { deferRender: ctx.deferRender } : {}) };
  let res: SearchAnswer = await cx.gate.serialized(() => ws.search(req, opts));
  let builtNow: TaskSnapshot | null = null;
  if (res.status === 'no_index' && cx.policy.buildOnSearch) {
    const { task } = cx.runs.start(false, 'search', true);
    const t = await cx.runs.follow(task.task_id, cx.firstIndexWaitMs, ctx);
    if (t?.state === 'failed') {
      const err = t.error!;
      return { ...base, took_ms: Date.now() - t0, error: { code: err.code, message: err.message }, hint: cx.hint(err.hint), task: viewTask(t, cx.surface)! };
    }
    if (t?.state === 'done') builtNow = t;
    res = await cx.gate.serialized(() => ws.search(req, opts));
    if (res.status === 'no_index') {
      const cur = viewTask(cx.tasks.get(task.task_id), cx.surface)!;
      const p = cur.progress;
      return {
        ...base, status: 'indexing', took_ms: Date.now() - t0, index: cx.watching.withPending(res.index), task: cur,
        hint: `building the index for the first time (${p ? `${p.files_done}/${p.files_total || '?'} files` : 'starting'}); ` +
          `search again in a few seconds, or call status with task_id "${cur.task_id}" to follow it`,
      };
    }
  }
  res.index = cx.watching.withPending(res.index);
  res.hint = cx.hint(res.hint);
  const active = cx.tasks.current();
  if (active) res.task = viewTask(active, cx.surface)!;
  else if (builtNow) {
    res.task = viewTask(builtNow, cx.surface)!;
    res.hint = [`the index was just built (${builtNow.took_ms ?? '?'} ms)`, res.hint].filter(Boolean).join('; ');
  }
  if (res.status === 'ok' && res.index?.pending_changes && cx.watching.active) {
    const n = res.index.pending_changes;
    res.hint = [res.hint, `${n} changed file${n === 1 ? '' : 's'} not indexed yet (the watcher re-indexes within a second)`].filter(Boolean).join('; ');
  }
  return tidyHint(res);
}

/** "More like this": chunks near a hit, a file's line or a snippet (semantic search on). */
export async function similar(cx: ServiceContext, args: SimilarRequest): Promise<SimilarAnswer> {
  const req: SimilarRequest = { ...args, path: args.path === undefined ? undefined : cx.paths.toRelative(args.path), ...filters(cx, args) };
  const ws = await cx.gate.workspace();
  const res: SimilarAnswer = cx.current(await cx.gate.serialized(() => ws.similar(req)));
  const active = cx.tasks.current();
  if (active) res.task = viewTask(active, cx.surface)!;
  return tidyHint(res);
}

/** One hit explained, its text cut to the request's (or the surface's) line bound. */
export async function explain(cx: ServiceContext, args: ExplainRequest): Promise<ExplainResponse> {
  const ws = await cx.gate.workspace();
  const r = cx.current(await cx.gate.serialized(() => ws.explain(args.hit_id, args.query === undefined ? {} : { query: args.query })));
  const e = r.explanation;
  const max = args.max_lines ?? cx.policy.explainLines;
  if (e && max !== undefined) {
    const lines = e.text.split('\n');
    if (lines.length > max) {
      e.text = lines.slice(0, max).join('\n');
      e.text_truncated = true;
    }
  }
  return tidyHint(r);
}
