// Human-readable rendering of the contract's answers for the terminal, the same under Node and Deno.
// Owns layout only (colour when the runtime says the terminal takes it); --json output is the
// contract shape printed as is, by the commands (commands.ts).
import type { PackManifest } from '../../core/index/pack.ts';
import type {
  ExplainResponse, IndexSummary, IntercomFindAnswer, IntercomRelateAnswer, OutlineResponse, OutlineSymbol, ResolveResponse, SearchHit, SearchResponse, SimilarResponse, StatusReport, TreeResponse,
} from '../../core/contract/index.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import { ago } from '../shared/time-ago.ts';
import { largeFilesText } from '../shared/large-files-text.ts';
import { rangeText, targetsText } from '../shared/intercom-text.ts';

export interface Style {
  dim(s: string): string;
  bold(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
}

export function createStyle(color: boolean): Style {
  const paint = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { dim: paint('2'), bold: paint('1'), cyan: paint('36'), yellow: paint('33') };
}

export function formatSkipped(s: Record<string, number | undefined>): string {
  const parts = Object.entries(s)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** `, 3 parsed with errors` when the index holds files parsed with syntax errors. */
export function parseErrorsText(n: number | undefined): string {
  return n ? `, ${n} parsed with errors` : '';
}

/** How a hit line names the channel that found it (keyword hits carry no label). */
const HIT_KIND_LABEL: Record<SearchHit['hit_kind'], string> = { text_fts: 'keyword', hybrid: 'both', text_vector: 'meaning', text_literal: 'exact' };

/** The ranked hits; `footer` false leaves out the summary, hint and note lines after them (--no-footer). */
/** A hit's score in text output: two decimals, or two significant digits when that would print 0.00 (a word in most chunks scores ~1e-6). */
function scoreText(score: number): string {
  return score !== 0 && Math.abs(score) < 0.005 ? score.toPrecision(2) : score.toFixed(2);
}

export function formatSearch(r: SearchResponse, { dim, bold, cyan, yellow }: Style, footer = true): string {
  if (r.status === 'error' || r.status === 'no_index') return errorText(r);
  const out: string[] = [];
  for (const h of r.hits) {
    const sym = h.symbol ? `  ${cyan(`${h.symbol.kind} ${h.symbol.name}`)}` : '';
    // Keyword output stays as it was; other modes say which channel found each hit.
    const kind = h.hit_kind === 'text_fts' ? '' : ` · ${HIT_KIND_LABEL[h.hit_kind]}`;
    out.push(`${bold(String(h.rank).padStart(2))}  ${bold(`${h.repo ? `${h.repo}/` : ''}${h.path}:${h.start_line}-${h.end_line}`)}  ${dim(`${h.lang} · ${scoreText(h.score)}${kind} · ${h.hit_id}`)}${sym}`);
    for (const line of h.snippet.split('\n')) if (line) out.push(`      ${line}`);
    const shown = h.snippet.split('\n').filter(Boolean).length;
    if (h.match_lines && h.match_lines.length > shown) out.push(dim(`      + ${h.match_lines.length - shown} more matching lines: ${moreLines(h.match_lines.slice(shown))}`));
    if (h.paired?.length) out.push(dim(`      + ${h.paired.join(', ')}`));
  }
  if (!footer) return out.join('\n');
  const idx = r.index;
  const freshOf = (i: typeof idx) => (i ? `index gen ${i.generation}, ${i.files} files${parseErrorsText(i.parse_errors)}, built ${ago(i.indexed_at)}${i.git?.note ? ` (${i.git.note})` : ''}` : 'no index');
  // Several repositories: each one's index, by name.
  const fresh = r.repos ? r.repos.map((x) => `${x.repo}: ${x.error ? `error ${x.error.code}` : freshOf(x.index)}`).join('; ') : freshOf(idx);
  const more = r.next_cursor ? ` · more: --cursor ${r.next_cursor}` : '';
  const mode = r.mode && r.mode !== 'keyword' ? `, ${r.mode}` : '';
  out.push(dim(`${r.hits.length} hit${r.hits.length === 1 ? '' : 's'} (${r.status}, match ${r.match}${mode}) · ${r.took_ms} ms · ${fresh} · skipped: ${formatSkipped(r.skipped)}${more}`));
  if (r.hint) out.push(yellow(`hint: ${r.hint}`));
  if (r.hits.some((h) => h.note)) out.push(dim('C# hits are text matches: confirm symbol facts (usages, renames) with the compiler.'));
  return out.join('\n');
}

/** Line numbers for a terminal line: the first dozen, then how many more. */
export function moreLines(lines: readonly number[]): string {
  return lines.length > 12 ? `${lines.slice(0, 12).join(', ')}, … (${lines.length - 12} more)` : lines.join(', ');
}

/** similar: the source it started from, then the hits as search shows them. */
export function formatSimilar(r: SimilarResponse, style: Style): string {
  const src = r.source;
  const from = !src ? '' : src.kind === 'snippet' ? 'like the snippet' : `like ${src.path}:${src.start_line}-${src.end_line}`;
  const body = formatSearch(r, style);
  return from && r.status !== 'error' ? `${style.dim(from)}\n${body}` : body;
}

export function formatStatus(s: StatusReport, { bold, yellow }: Style): string {
  if (!s.index) return errorText(s);
  const i = s.index;
  const langs = Object.entries(s.files_by_lang).map(([l, n]) => `${l} ${n}`).join(', ');
  const lines = [
    `${bold('index')}      ${i.location}`,
    `${bold('state')}      ${i.build_state}, generation ${i.generation}, built ${ago(i.indexed_at)}${i.indexer_running ? ' (indexing now)' : ''}`,
    `${bold('format')}     ${s.format_version} · ${s.engine}`,
    `${bold('contents')}   ${i.files} files, ${i.chunks} chunks${langs ? ` (${langs})` : ''}`,
    `${bold('skipped')}    ${formatSkipped(s.skipped)}`,
  ];
  if (i.git?.commit) lines.push(`${bold('git')}        ${i.git.note ?? `built at ${i.git.commit.slice(0, 12)}${i.git.branch ? ` (${i.git.branch})` : ''}${i.git.head === i.git.commit ? ', HEAD' : ''}`}`);
  if (i.read_only) lines.push(`${bold('published')}  read-only: searched over HTTP, indexed where it was built`);
  if (s.large_files) lines.push(`${bold('large')}      ${largeFilesText(s.large_files)}`);
  if (i.parse_errors) lines.push(`${bold('parse')}      ${i.parse_errors} file${i.parse_errors === 1 ? '' : 's'} with syntax the grammar does not know (outlines recovered around it)`);
  if (s.size) {
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    const ratio = s.size.source_bytes > 0 ? ` (${(s.size.index_bytes / s.size.source_bytes).toFixed(2)}x the ${mb(s.size.source_bytes)} of indexed source)` : '';
    lines.splice(4, 0, `${bold('size')}       ${mb(s.size.index_bytes)}${ratio}`);
  }
  if (s.vectors) {
    const v = s.vectors;
    const what = v.state === 'off' ? 'off' : `${v.state}, ${v.provider}${v.model ? ` (${v.model})` : ''}, ${v.with_vectors}/${v.chunks} chunks (${Math.round(v.coverage * 100)}%)`;
    lines.push(`${bold('vectors')}    ${what}`);
    if (v.last_error) lines.push(yellow(`           last error: ${v.last_error.code}: ${v.last_error.message}`));
  }
  if (s.pending) lines.push(`${bold('pending')}    ${s.pending.added} added, ${s.pending.modified} modified, ${s.pending.deleted} deleted since the last run`);
  const run = s.last_run as { took_ms?: number; files_indexed?: number } | null;
  if (run) lines.push(`${bold('last run')}   ${run.files_indexed ?? 0} files indexed in ${run.took_ms ?? '?'} ms`);
  if (s.status === 'damaged') lines.push(yellow(`damaged: ${s.error?.message ?? 'the index file fails a check'}`));
  if (s.hint) lines.push(yellow(`hint: ${s.hint}`));
  return lines.join('\n');
}

export function formatExplain(r: ExplainResponse, { dim, bold, cyan, yellow }: Style): string {
  if (r.status !== 'ok' || !r.explanation) return errorText(r);
  const e = r.explanation;
  const lines = [bold(`${e.path}:${e.start_line}-${e.end_line}`) + dim(`  ${e.lang} · ${e.chunk_kind}${e.symbol ? ` · ${e.symbol.kind} ${e.symbol.name}` : ''}`)];
  if (e.query !== null) {
    lines.push(`${bold('query')}     ${e.query}  (match ${e.match}${e.rank ? `, rank ${e.rank}` : ', not in the top results'})`);
    if (e.fts) lines.push(`${bold('score')}     ${e.score} = bm25 ${e.fts.score}${(e.factors ?? []).map((f) => ` × ${f.factor} (${f.name})`).join('')}`);
    for (const t of e.matched_terms ?? []) lines.push(`  ${cyan(t.term)} in ${t.fields.join(', ')}`);
    if (e.unmatched_terms?.length) lines.push(`  not matched: ${e.unmatched_terms.join(', ')}`);
    if (e.dropped_stop_words?.length) lines.push(dim(`  stop words dropped: ${e.dropped_stop_words.join(', ')}`));
  }
  for (const p of e.paired_files ?? []) lines.push(`${bold('paired')}    ${p.path} ${dim(`(${p.relation.replace('_', ' ')})`)}`);
  if (e.header) lines.push(dim(e.header));
  lines.push(dim('─'.repeat(40)));
  const width = String(e.end_line).length;
  e.text.split('\n').forEach((t, k) => lines.push(`${dim(String(e.start_line + k).padStart(width))}  ${t}`));
  if (e.text_truncated) lines.push(dim(`… (${e.end_line - e.start_line + 1} lines in all)`));
  if (r.hint) lines.push(yellow(`hint: ${r.hint}`));
  return lines.join('\n');
}

/** A folder: its subfolders (with file counts) then its files, by name. */
export function formatTree(r: TreeResponse, { dim, bold, cyan, yellow }: Style): string {
  if (r.status === 'error') return errorText(r);
  const out = [bold(r.folder || '.') + dim(`  ${r.total} indexed file${r.total === 1 ? '' : 's'}`)];
  for (const f of r.folders) out.push(`  ${cyan(`${f.name}/`)}  ${dim(String(f.files))}`);
  for (const f of r.files) out.push(`  ${f.path.slice(r.folder.length)}  ${dim(`${f.lang} ${f.lines} lines${f.kinds ? ` ${f.kinds.join(',')}` : ''}`)}`);
  if (r.truncated) out.push(dim('  … more files (--limit)'));
  if (r.hint) out.push(yellow(`hint: ${r.hint}`));
  return out.join('\n');
}

export function formatOutline(r: OutlineResponse, { dim, bold, cyan, yellow }: Style): string {
  if (r.status !== 'ok') return errorText(r);
  const out = [bold(r.path) + dim(`  ${r.lang ?? ''}`)];
  const walk = (nodes: OutlineSymbol[], depth: number) => {
    for (const n of nodes) {
      const lines = dim(`${n.start_line}-${n.end_line}`);
      out.push(`${'  '.repeat(depth + 1)}${cyan(n.kind)} ${n.name}  ${lines}${n.member_key ? dim(`  ${n.member_key}`) : ''}`);
      if (n.children) walk(n.children, depth + 1);
    }
  };
  walk(r.symbols, 0);
  if (r.hint) out.push(yellow(`hint: ${r.hint}`));
  return out.join('\n');
}

/** Seconds as `42s`, `3m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** When a run started and when its index phase did (for the ETA), as a progress display keeps them. */
export interface ProgressClock {
  startedAt: number;
  indexStartedAt: number | null;
}

/**
 * The progress line of an indexing run, the same under Node (inside cli-progress's bar, `bar` given)
 * and Deno: the phase, files done of total, chunks, MB read, elapsed time and an ETA from the rate
 * so far in the index phase (shown once there is a rate to go by).
 */
export function formatProgress(p: IndexProgress, clock: ProgressClock, now: number, bar?: string): string {
  const elapsed = `${formatDuration(now - clock.startedAt)} elapsed`;
  if (p.phase === 'scan') return `scanning the workspace · ${elapsed}`;
  if (p.phase === 'done') return `finishing · ${p.filesDone}/${p.filesTotal} files · ${p.chunks} chunks · ${elapsed}`;
  if (p.phase === 'vectors') {
    // The vector phase (semantic search on): chunks embedded of those that need it, rate and ETA.
    const eta = p.etaS !== undefined && p.vectorsPerS ? formatDuration(p.etaS * 1000) : '…';
    return [
      `embedding${bar ? ` [${bar}]` : ''} ${p.vectorsDone ?? 0}/${p.vectorsTotal ?? 0} chunks`,
      `${p.vectorsPerS ?? 0} chunks/s`,
      elapsed,
      `ETA ${eta}`,
    ].join(' · ');
  }
  const since = clock.indexStartedAt === null ? 0 : now - clock.indexStartedAt;
  const left = p.filesTotal - p.filesDone;
  const eta = p.filesDone > 0 && since >= 1000 ? formatDuration((since / p.filesDone) * left) : '…';
  return [
    `indexing${bar ? ` [${bar}]` : ''} ${p.filesDone}/${p.filesTotal} files`,
    `${p.chunks} chunks`,
    `${(p.bytes / 1048576).toFixed(1)} MB`,
    elapsed,
    `ETA ${left === 0 ? '0s' : eta}`,
  ].join(' · ');
}

/** What a bar counts: files while indexing, chunks while embedding. */
export function progressCount(p: IndexProgress): { done: number; total: number } {
  return p.phase === 'vectors' ? { done: p.vectorsDone ?? 0, total: p.vectorsTotal ?? 0 } : { done: p.filesDone, total: p.filesTotal };
}

/** Keeps the clock of a progress display from the reports it gets. */
export function tickClock(clock: ProgressClock | null, p: IndexProgress, now: number): ProgressClock {
  const c = clock ?? { startedAt: now, indexStartedAt: null };
  if (p.phase === 'index' && c.indexStartedAt === null) c.indexStartedAt = now;
  return c;
}

/** What `hci pack` wrote. */
export function formatPack(path: string, m: PackManifest): string {
  const mb = (m.bytes / 1048576).toFixed(1);
  const at = m.commit ? ` at ${m.commit.slice(0, 12)}${m.branch ? ` (${m.branch})` : ''}` : '';
  return [
    `packed ${m.repository}${at}: ${m.files} files, ${m.chunks} chunks → ${path} (${mb} MB, ${m.page_size}-byte pages)`,
    `manifest ${path}.json · ${m.digest}`,
  ].join('\n');
}

export function formatIndexSummary(s: IndexSummary): string {
  return [
    `indexed ${s.files_indexed} files (${s.chunks_written} chunks), ${s.files_unchanged} unchanged, ${s.files_removed} removed` +
      ` in ${(s.took_ms / 1000).toFixed(2)} s · generation ${s.generation}`,
    `scanned ${s.files_scanned} files · read ${(s.bytes_read / 1024).toFixed(0)} KiB · skipped: ${formatSkipped(s.skipped)}${s.parse_errors ? ` · parsed with syntax errors: ${s.parse_errors}` : ''}`,
    ...(s.repaired ? [`repaired: ${s.repaired.reason}; ${s.repaired.moved_to ? `the damaged file was moved to ${s.repaired.moved_to} and` : 'the index was'} rebuilt from an empty file`] : []),
    ...(s.vectors ? [vectorLine(s.vectors)] : []),
  ].join('\n');
}

function vectorLine(v: NonNullable<IndexSummary['vectors']>): string {
  const what = `vectors (${v.provider}): ${v.with_vectors}/${v.chunks} chunks, ${v.embedded} embedded, ${v.reused} reused${v.trained ? `, model trained (${v.train_reason})` : ''} in ${(v.took_ms / 1000).toFixed(2)} s`;
  return v.error ? `${what} · FAILED: ${v.error.message}${v.error.hint ? ` (hint: ${v.error.hint})` : ''} — keyword search is unaffected` : what;
}

export function formatResolve(r: ResolveResponse, { dim, bold, cyan, yellow }: Style): string {
  if (r.status === 'error') return errorText(r);
  const out = r.locations.map((l) => `${bold(`${l.path}:${l.start_line}-${l.end_line}`)}  ${cyan(l.kind)} ${l.name}${l.member_key ? dim(`  ${l.member_key}`) : ''}`);
  if (!out.length) out.push(dim('no location'));
  if (r.hint) out.push(yellow(`hint: ${r.hint}`));
  return out.join('\n');
}

/** A failed answer as every command shows one (the same as command.ts fail): `hci: <message>`, then `hint: <hint>`. */
function errorText(r: { error?: { message: string }; hint?: string; status: string }): string {
  return [`hci: ${r.error?.message ?? r.status}`, r.hint ? `hint: ${r.hint}` : ''].filter(Boolean).join('\n');
}

/** One line per match (ordinal, message, match kind, how, fresh or stale, where), then a summary line. */
export function formatIntercomFind(r: IntercomFindAnswer, { dim, bold, cyan, yellow }: Style): string {
  if (r.status === 'error') return errorText(r);
  const width = Math.max(2, ...r.matches.map((m) => String(m.ordinal).length + 1));
  const out: string[] = [];
  for (const m of r.matches) {
    const stale = m.stale ? yellow(`stale${m.stale_reason ? ` (${m.stale_reason})` : ''}`) : 'fresh';
    const key = m.member_key ? dim(`  ${m.member_key}`) : '';
    out.push(`${bold(`#${m.ordinal}`.padStart(width))}  ${m.message_id}  ${cyan(m.match_kind.padEnd(8))}  ${m.match.padEnd(7)}  ${stale}  ${bold(`${m.file}:${m.line_start}-${m.line_end}`)}${key}`);
    if (m.stale && m.excerpt) out.push(dim(`${' '.repeat(width + 2)}as attached: ${m.excerpt.split('\n')[0]}`));
  }
  const n = r.matches.length;
  const parts = [
    `${n} message${n === 1 ? '' : 's'} (${r.status}${r.truncated ? `, first ${n} of ${r.total}` : ''})`,
    `thread ${r.thread_id}${r.log ? `, ${r.log.messages} messages` : ''}`,
    targetsText(r.targets, r.code_ref),
    `${r.took_ms} ms`,
  ];
  if (r.sidecar?.rebuilt) parts.push(`sidecar rebuilt (${r.sidecar.reason})`);
  const skipped = Object.values(r.log?.skipped ?? {}).reduce((a, b) => a + b, 0);
  if (skipped) parts.push(`log lines skipped: ${formatSkipped(r.log!.skipped)}`);
  out.push(dim(parts.join(' · ')));
  if (r.hint) out.push(yellow(`hint: ${r.hint}`));
  return out.join('\n');
}

export function formatIntercomRelate(r: IntercomRelateAnswer, { dim, bold }: Style): string {
  if (r.status === 'error' || !r.code_ref) return errorText(r);
  const a = r.code_ref;
  const what = [a.member_key, a.syntax_scope, a.shape].filter(Boolean).join(', ');
  return [
    `related ${bold(rangeText(r.start_ordinal, r.end_ordinal))} of thread ${r.thread_id} to ${bold(`${a.file}:${a.line_start}-${a.line_end}`)}${what ? dim(`  (${what})`) : ''}`,
    dim(`appended one message_range_related line to ${r.log?.location} · ${r.took_ms} ms`),
  ].join('\n');
}
