// Compact text renderings of tool answers, for MCP hosts that show (or hand the model) only text.
// Owns layout: about one line per hit (or intercom match) plus its snippet, one freshness line, a
// hint line; the full structure is in structuredContent. No colour, no padding: every character costs context.
import type {
  ErrorInfo, ExplainResponse, IndexFreshness, IntercomFindAnswer, IntercomRelateAnswer, OutlineResponse, OutlineSymbol, ReindexAnswer,
  ResolveResponse, SearchAnswer, SimilarAnswer, StatusAnswer, TaskView, TreeResponse, WatchAnswer, WatcherView,
} from '../../core/contract/index.ts';
import { ago } from '../shared/time-ago.ts';
import { largeFilesText } from '../shared/large-files-text.ts';
import { rangeText, targetsText } from '../shared/intercom-text.ts';

export function freshnessLine(i: IndexFreshness | null): string {
  if (!i) return 'index: none';
  const parts = [`index gen ${i.generation}`, `${i.files} files`, `built ${ago(i.indexed_at)}`];
  if (i.parse_errors) parts.push(`${i.parse_errors} parsed with syntax errors (outlines recovered around them)`);
  if (i.build_state !== 'complete') parts.push(i.build_state);
  if (i.indexer_running) parts.push('indexing now');
  if (i.git?.note) parts.push(`${i.git.note} (the next reindex takes in what differs)`);
  if (i.read_only) parts.push('a published, read-only index');
  else parts.push(i.pending_changes === null ? 'pending changes unknown' : `${i.pending_changes} pending changes`);
  return parts.join(', ');
}

function errorLines(error: ErrorInfo | undefined, hint: string | undefined, fallback: string): string[] {
  const out = [`error ${error?.code ?? fallback}: ${error?.message ?? fallback}`];
  for (const i of error?.issues ?? []) out.push(`  - ${i.path ? `${i.path}: ` : ''}${i.message}`);
  if (hint) out.push(`hint: ${hint}`);
  return out;
}

function taskLine(t: TaskView): string {
  const p = t.progress;
  const scope = t.paths ? `, ${t.paths.length === 1 ? t.paths[0] : `${t.paths.length} paths`}` : '';
  const what = `task ${t.task_id} (${t.full ? 'full' : 'incremental'}${scope}, by ${t.trigger})`;
  if (t.state === 'done' && t.result) {
    const r = t.result;
    return `${what}: done in ${t.took_ms ?? r.took_ms} ms: ${r.files_indexed} indexed, ${r.files_unchanged} unchanged, ${r.files_removed} removed, gen ${r.generation}`;
  }
  if (t.state === 'failed' || t.state === 'cancelled') return `${what}: ${t.state}${t.error ? ` (${t.error.code}: ${t.error.message})` : ''}`;
  const prog = p ? ` ${p.phase} ${p.files_done}/${p.files_total || '?'} files, ${p.chunks} chunks` : '';
  return `${what}: ${t.state}${t.cancel_requested ? ' (cancelling)' : ''}${prog}${t.took_ms !== null ? `, ${t.took_ms} ms so far` : ''}`;
}

export function renderSearch(r: SearchAnswer): string {
  if (r.status === 'error' || r.status === 'no_index') return errorLines(r.error, r.hint, r.status).join('\n');
  const out: string[] = [];
  const kinds = new Set(r.hits.map((h) => h.hit_kind));
  for (const h of r.hits) {
    const sym = h.symbol ? ` ${h.symbol.kind} ${h.symbol.name}` : '';
    const kind = kinds.size > 1 || h.hit_kind !== 'text_fts' ? ` ${h.hit_kind}` : '';
    const paired = h.paired?.length ? ` +${h.paired.map((p) => p.slice(p.lastIndexOf('/') + 1)).join(',')}` : '';
    out.push(`${h.rank}. ${h.repo ? `${h.repo}/` : ''}${h.path}:${h.start_line}-${h.end_line} ${h.lang}${sym}${kind} ${h.score} [${h.hit_id}]${paired}`);
    for (const line of h.snippet.split('\n')) if (line.trim()) out.push(`   ${line}`);
    const shown = h.snippet.split('\n').filter((l) => l.trim()).length;
    if (h.match_lines && h.match_lines.length > shown) out.push(`   matching lines: ${h.match_lines.join(',')}`);
  }
  const n = r.hits.length;
  const fresh = r.repos ? r.repos.map((x) => `${x.repo}: ${x.error ? `error ${x.error.code}` : freshnessLine(x.index)}`).join('; ') : freshnessLine(r.index);
  let summary = `${n} hit${n === 1 ? '' : 's'} (${r.status}${n ? `, match ${r.match}` : ''}${r.mode !== 'keyword' ? `, ${r.mode}` : ''}), ${r.took_ms} ms; ${fresh}`;
  if (r.next_cursor) summary += `; more: cursor "${r.next_cursor}"${r.truncated ? ' (cut by max_tokens)' : ''}`;
  out.push(summary);
  const skipped = Object.entries(r.skipped).filter(([, v]) => (v ?? 0) > 0).map(([k, v]) => `${k} ${v}`);
  if (skipped.length && (r.status === 'empty' || n === 0)) out.push(`skipped files: ${skipped.join(', ')}`);
  if (r.task && r.status === 'indexing') out.push(taskLine(r.task));
  if (r.hint) out.push(`hint: ${r.hint}`);
  if (kinds.has('text_fts') && r.hits.some((h) => h.note)) out.push('text_fts = keyword match; for C#/Razor confirm symbol facts (usages, overrides, renames) with the compiler');
  if (kinds.has('text_literal')) out.push('text_literal = the exact text or regex is on the listed lines (a text match, not compiler truth)');
  return out.join('\n');
}

/** similar: where the hits are near, then the hits as search renders them. */
export function renderSimilar(r: SimilarAnswer): string {
  const src = r.source;
  const from = !src ? null : src.kind === 'snippet' ? 'chunks like the snippet' : `chunks like ${src.path}:${src.start_line}-${src.end_line}`;
  const body = renderSearch(r);
  return from && r.status !== 'error' ? `${from}\n${body}` : body;
}

export function renderExplain(r: ExplainResponse): string {
  if (r.status !== 'ok' || !r.explanation) return errorLines(r.error, r.hint, 'error').join('\n');
  const e = r.explanation;
  const kind = e.symbol && e.symbol.kind === e.chunk_kind ? '' : ` ${e.chunk_kind}`;
  const out = [`${e.path}:${e.start_line}-${e.end_line} ${e.lang}${kind}${e.symbol ? ` ${e.symbol.kind} ${e.symbol.name}` : ''}`];
  if (e.query !== null) {
    const factors = (e.factors ?? []).map((f) => ` x ${f.factor} ${f.name}`).join('');
    const made = e.fusion ? `fused ${e.fusion.weights.keyword} x keyword ${e.fusion.keyword.normalized} + ${e.fusion.weights.vector} x vector ${e.fusion.vector.normalized}${e.fusion.guarded ? ' (kept in place: keyword top ' + e.fusion.guard + ' files)' : ''}`
      : e.fts ? `bm25 ${e.fts.score}${factors}` : `cosine ${String((e.channels?.vector as { cosine?: number } | undefined)?.cosine ?? '?')}${factors}`;
    out.push(`query "${e.query}": ${e.rank ? `rank ${e.rank}` : 'not in the top results'}${e.score !== undefined ? `, score ${e.score} = ${made}` : ''}`);
    if (e.fusion) out.push(`route: ${e.fusion.route}${e.fusion.route_reason ? ` (${e.fusion.route_reason})` : ''}`);
    const m = (e.matched_terms ?? []).map((t) => `${t.term} (${t.fields.join(',')})`);
    if (m.length) out.push(`matched: ${m.join('; ')}`);
    if (e.unmatched_terms?.length) out.push(`not matched: ${e.unmatched_terms.join(', ')}`);
  }
  const paired = e.paired_files;
  if (paired?.length) out.push(`paired files: ${paired.map((p) => `${p.path} (${p.relation})`).join(', ')}`);
  if (e.header) out.push(`context: ${e.header.split('\n').join(' | ')}`);
  out.push('---');
  e.text.split('\n').forEach((t, k) => out.push(`${e.start_line + k}: ${t}`));
  if (e.text_truncated) out.push(`... (lines ${e.start_line}-${e.end_line} in all; read the file for the rest)`);
  out.push(freshnessLine(r.index));
  if (r.hint) out.push(`hint: ${r.hint}`);
  return out.join('\n');
}

export function renderOutline(r: OutlineResponse): string {
  if (r.status !== 'ok') return [...(r.path ? [`${r.path}:`] : []), ...errorLines(r.error, r.hint, 'error')].join('\n');
  const out = [`${r.path}: ${r.symbols.length} top-level symbol${r.symbols.length === 1 ? '' : 's'}`];
  const walk = (syms: OutlineSymbol[], depth: number) => {
    for (const s of syms) {
      out.push(`${'  '.repeat(depth)}${s.kind} ${s.name} ${s.start_line}-${s.end_line}`);
      if (s.children?.length) walk(s.children, depth + 1);
    }
  };
  walk(r.symbols, 0);
  out.push(freshnessLine(r.index));
  if (r.hint) out.push(`hint: ${r.hint}`);
  return out.join('\n');
}

/** A folder: one line for it, one per subfolder (its file count) and per file (language, lines, kinds). */
export function renderTree(r: TreeResponse): string {
  if (r.status === 'error') return errorLines(r.error, r.hint, 'error').join('\n');
  const out = [`${r.folder || '.'} ${r.total} file${r.total === 1 ? '' : 's'}`];
  for (const f of r.folders) out.push(`  ${f.name}/ ${f.files}`);
  for (const f of r.files) out.push(`  ${f.path.slice(r.folder.length)} ${f.lang} ${f.lines} lines${f.kinds ? ` ${f.kinds.join(',')}` : ''}`);
  if (r.truncated) out.push(`  … more files (limit)`);
  out.push(freshnessLine(r.index));
  if (r.hint) out.push(`hint: ${r.hint}`);
  return out.join('\n');
}

export function renderResolve(r: ResolveResponse): string {
  if (r.status === 'error') return errorLines(r.error, r.hint, 'error').join('\n');
  const out = r.locations.map((l) => `${l.path}:${l.start_line}-${l.end_line} ${l.kind} ${l.name}${l.member_key ? ` [${l.member_key}]` : ''}`);
  if (!out.length) out.push('no location (empty)');
  out.push(freshnessLine(r.index));
  if (r.hint) out.push(`hint: ${r.hint}`);
  return out.join('\n');
}

function watcherLine(w: WatcherView): string {
  if (w.state === 'off') return `watcher: off${w.reason ? ` (${w.reason})` : ''}`;
  const parts = [`watcher: ${w.state} (${w.mode}${w.mode === 'polling' && w.poll_interval_ms ? ` every ${w.poll_interval_ms} ms` : ''})`];
  parts.push(`${w.pending ?? '?'} pending`);
  if (w.runs) parts.push(`${w.runs} runs, last ${ago(w.last_run_at)}`);
  if (w.reason) parts.push(`reason: ${w.reason}`);
  if (w.last_error) parts.push(`last error: ${w.last_error.code}`);
  return parts.join(', ');
}

/** A status answer (MCP's always has the host's watcher and tasks; a line for each only where it has them). */
export function renderStatus(s: StatusAnswer): string {
  if (s.status === 'error' || s.status === 'damaged' || (!s.index && s.status !== 'no_index')) {
    return [...errorLines(s.error, s.hint, s.status), ...(s.task ? [taskLine(s.task)] : []), ...(s.watcher ? [watcherLine(s.watcher)] : [])].join('\n');
  }
  const out: string[] = [];
  if (s.task) out.push(taskLine(s.task));
  if (!s.index) {
    out.push('no index yet');
  } else {
    const i = s.index;
    out.push(`${i.location} (format ${s.format_version}): ${i.build_state === 'complete' ? 'complete, ' : ''}${freshnessLine(i)}`);
    const langs = Object.entries(s.files_by_lang).map(([l, n]) => `${l} ${n}`).join(', ');
    out.push(`${i.files} files, ${i.chunks} chunks${langs ? ` (${langs})` : ''}`);
    const skipped = Object.entries(s.skipped).filter(([, v]) => (v ?? 0) > 0).map(([k, v]) => `${k} ${v}`);
    out.push(`skipped: ${skipped.length ? skipped.join(', ') : 'none'}`);
    if (s.large_files) out.push(`large files: ${largeFilesText(s.large_files)}`);
    if (s.pending) out.push(`on disk since the last run: ${s.pending.added} added, ${s.pending.modified} modified, ${s.pending.deleted} deleted`);
    const run = s.last_run as { took_ms?: number; files_indexed?: number; finished_at?: string } | null;
    if (run) out.push(`last run: ${run.files_indexed ?? 0} files indexed in ${run.took_ms ?? '?'} ms, ${ago(run.finished_at)}`);
  }
  if (s.watcher) out.push(watcherLine(s.watcher));
  for (const t of s.tasks ?? []) if (t.task_id !== s.task?.task_id && (t.state === 'running' || t.state === 'queued')) out.push(taskLine(t));
  if (s.hint) out.push(`hint: ${s.hint}`);
  return out.join('\n');
}

export function renderReindex(r: ReindexAnswer): string {
  const out: string[] = r.status === 'error' ? errorLines(r.error, r.hint, 'error') : [];
  if (r.task) out.push(taskLine(r.task) + (r.coalesced ? ' (joined a waiting request)' : ''));
  if (r.status !== 'error' && r.hint) out.push(`hint: ${r.hint}`);
  out.push(freshnessLine(r.index));
  return out.join('\n');
}

export function renderWatch(r: WatchAnswer): string {
  const out = r.status === 'error' ? errorLines(r.error, r.hint, 'error') : [];
  out.push(watcherLine(r.watcher));
  if (r.status !== 'error' && r.hint) out.push(`hint: ${r.hint}`);
  out.push(freshnessLine(r.index));
  return out.join('\n');
}

/** One line per message (ordinal, id, kind, how, where; stale ones with the text as attached), then a summary. */
export function renderIntercomFind(r: IntercomFindAnswer): string {
  if (r.status === 'error') return errorLines(r.error, r.hint, 'error').join('\n');
  const out = r.matches.map((m) => {
    const stale = m.stale ? ` stale(${m.stale_reason ?? '?'})` : '';
    const key = m.member_key ? ` [${m.member_key}]` : '';
    const was = m.stale && m.excerpt ? ` was: ${JSON.stringify(m.excerpt.split('\n')[0])}` : '';
    return `#${m.ordinal} ${m.message_id} ${m.match_kind} ${m.match}${stale} ${m.file}:${m.line_start}-${m.line_end}${key} anchor:${m.anchor_id}${was}`;
  });
  const n = r.matches.length;
  const of = r.truncated ? ` of ${r.total} (raise limit for more)` : '';
  out.push(`${n} message${n === 1 ? '' : 's'}${of} (${r.status}) of thread ${r.thread_id}${r.log ? ` (${r.log.messages} messages)` : ''} for ${targetsText(r.targets, r.code_ref)}, ${r.took_ms} ms; ${freshnessLine(r.index)}`);
  if (r.hint) out.push(`hint: ${r.hint}`);
  return out.join('\n');
}

export function renderIntercomRelate(r: IntercomRelateAnswer): string {
  if (r.status === 'error' || !r.code_ref) return errorLines(r.error, r.hint, 'error').join('\n');
  const a = r.code_ref;
  const what = [a.syntax_scope, a.shape].filter(Boolean).join(', ');
  return [
    `related ${rangeText(r.start_ordinal, r.end_ordinal)} of thread ${r.thread_id} to ${a.file}:${a.line_start}-${a.line_end}${a.member_key ? ` [${a.member_key}]` : ''}${what ? ` (${what})` : ''}`,
    `appended one message_range_related line (source mcp) to ${r.log?.location}; ${freshnessLine(r.index)}`,
  ].join('\n');
}
