// The exit codes of every `hci` command line (Node and Deno), and which error codes map to which.
// Owns that table only; printing and parsing stay with each CLI.

export const EXIT = { ok: 0, empty: 1, usage: 2, noIndex: 3, busy: 4, failure: 5, cancelled: 130 } as const;

/** Errors the user fixes by changing what they typed (exit 2). */
const USAGE_ERRORS = new Set([
  'usage', 'invalid_request', 'invalid_settings', 'invalid_cursor', 'invalid_hit_id',
  'path_outside_workspace', 'mode_unavailable', 'not_indexed',
]);

/** The exit code for an answer's error code (undefined: no error). */
export function exitCodeFor(code: string | undefined): number {
  if (code === undefined) return EXIT.ok;
  if (code === 'no_index') return EXIT.noIndex;
  if (code === 'index_busy') return EXIT.busy;
  if (code === 'cancelled') return EXIT.cancelled;
  return USAGE_ERRORS.has(code) ? EXIT.usage : EXIT.failure;
}
