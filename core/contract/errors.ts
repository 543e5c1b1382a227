// The one error table: every stable error code an answer or an HciError may carry, what it means,
// and the exit code of the `hci` command line (Node and Deno) for it; and the hint of an answer
// worded for the surface that shows it (the core words hints for the CLI: `hci index --full`; MCP
// names its `reindex` tool, the browser its `index()` call). Owns the table and the wording only;
// printing is the CLI's (runtimes/cli/), answers are the service's (core/service/).

export const EXIT = { ok: 0, empty: 1, usage: 2, noIndex: 3, busy: 4, failure: 5, cancelled: 130 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Where an answer is shown; a hint names that surface's own command or call. */
export type Surface = 'cli' | 'mcp' | 'browser';

interface ErrorRow {
  exit: ExitCode;
  meaning: string;
}

const usage = (meaning: string): ErrorRow => ({ exit: EXIT.usage, meaning });
const failure = (meaning: string): ErrorRow => ({ exit: EXIT.failure, meaning });

/** Every stable error code. A code not listed here is a failure (exit 5). */
export const ERRORS = {
  // What the caller typed: fixed by changing the request (exit 2).
  usage: usage('the command line is not valid'),
  invalid_request: usage('a request field is out of range or of the wrong type'),
  invalid_arguments: usage('tool arguments do not fit the input schema (the issues list says which)'),
  invalid_settings: usage('.hci/settings.toml (or the settings passed in) is invalid'),
  invalid_cursor: usage('the cursor did not come from this search'),
  invalid_hit_id: usage('the hit id is not one a search returned'),
  path_outside_workspace: usage('a path leaves the workspace'),
  mode_unavailable: usage('the search mode needs a channel that is not configured'),
  invalid_query: usage('the query cannot be read as written (a re: term beside other words, an empty pattern)'),
  invalid_regex: usage('the regex engine (RE2 syntax) refuses the pattern: a syntax error, or a feature RE2 leaves out (backreferences, lookaround)'),
  search_timeout: usage('a literal or regex search ran past its time budget (literal_budget_ms): narrow it'),
  not_indexed: usage('the file is not in the index'),
  root_not_found: usage('the workspace folder does not exist'),
  token_required: usage('listening beyond loopback needs a bearer token'),
  port_in_use: usage('the HTTP port is taken'),
  // Intercom (message ↔ code): what the caller named or typed.
  empty_selection: usage('find or relate got no code ref and no selection'),
  invalid_code_ref: usage('the code ref is not one of the accepted forms, or its lines are not in the file'),
  invalid_range: usage('the message range is not n, "n m" or n:m with 1-based ordinals'),
  range_not_contiguous: usage('the message range is scattered (3,7): relate contiguous ranges only'),
  message_not_committed: usage('the range goes past the thread\'s committed messages'),
  invalid_log_path: usage('the log is not a .ndjson or .jsonl file'),
  log_missing: usage('no log at that path (hci never creates one)'),
  unknown_thread: usage('the log has no thread with that id'),
  unknown_anchor: usage('no anchor with that id in the thread'),
  unknown_member: usage('no member has that key now'),
  ambiguous_member: usage('the member key is defined in several files: pass the file'),
  file_not_found: usage('the code ref names a file that does not exist'),
  // The index's state.
  no_index: { exit: EXIT.noIndex, meaning: 'the workspace has no index yet' },
  index_busy: { exit: EXIT.busy, meaning: 'another process holds the index (an indexing run, or a long transaction)' },
  log_busy: { exit: EXIT.busy, meaning: 'another process kept the intercom log locked (an append) past the wait' },
  sidecar_changed: { exit: EXIT.busy, meaning: 'another process rebuilt the intercom sidecar while answering: retry' },
  cancelled: { exit: EXIT.cancelled, meaning: 'the run was cancelled; the index keeps every committed batch' },
  superseded: { exit: EXIT.cancelled, meaning: 'a newer call of the same lane came before this one ran (the browser Worker drops a keystroke\'s search the next keystroke replaces): nothing ran' },
  index_outdated: failure('the index was written in an older format: rebuild it'),
  index_too_new: failure('the index was written by a newer hci'),
  index_corrupt: failure('the index file is damaged'),
  index_unrecognized: failure('the file is not an hci index'),
  index_incomplete: failure('the index is partial (a run did not finish): it cannot be packed'),
  remote_unreachable: failure('the index URL could not be fetched (network, HTTP status, timeout)'),
  remote_no_ranges: failure('the server of the index URL does not answer HTTP range requests'),
  remote_changed: failure('the file under the index URL changed while it was read (its ETag or Last-Modified moved)'),
  stale_hit: failure('the hit is no longer in the index (its file was re-indexed)'),
  // Host and platform.
  unknown_task: failure('no task with this id on this server'),
  no_task: failure('no indexing run to cancel'),
  not_available: failure('this runtime does not offer the feature (e.g. no file watcher under Deno)'),
  no_source: failure('the workspace is open without its files (a browser workspace opened from its stored index): there is nothing to index'),
  permission_needed: failure('the runtime lacks a permission (Deno: a --allow-* flag)'),
  engine_failed: failure('the SQLite WebAssembly module did not start'),
  io_error: failure('a file or folder could not be read or written (the message has the system\'s words)'),
  listen_failed: failure('the HTTP server could not listen'),
  internal: failure('a bug in hci'),
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERRORS;

/** The exit code for an answer's error code (undefined: no error). */
export function exitCodeFor(code: string | undefined): number {
  if (code === undefined) return EXIT.ok;
  return (ERRORS as Record<string, ErrorRow>)[code]?.exit ?? EXIT.failure;
}

/** What to do, as each surface says it (the index's commands, the CLI's flags). Core hints are written in the `cli` words. */
const REMEDIES: Array<{ cli: RegExp; mcp: string; browser: string }> = [
  { cli: /run `hci index --full`/g, mcp: 'call reindex with full: true', browser: 'call index({ full: true })' },
  { cli: /`hci index --full`/g, mcp: 'reindex with full: true', browser: 'index({ full: true })' },
  { cli: /run `hci index`/g, mcp: 'call reindex', browser: 'call index()' },
  { cli: /`hci index`/g, mcp: 'reindex', browser: 'index()' },
  { cli: /`hci outline <file>`/g, mcp: 'the outline tool', browser: 'outline(file)' },
  { cli: /\(--file ([^)\s]+)\)/g, mcp: '(file: "$1")', browser: '(file: "$1")' },
];

/** A hint worded for `surface` (core hints name CLI commands; MCP and the browser name their calls). */
export function hintFor(surface: Surface, hint: string | undefined): string | undefined {
  if (!hint || surface === 'cli') return hint;
  let out = hint;
  for (const r of REMEDIES) out = out.replace(r.cli, r[surface]);
  return out;
}
