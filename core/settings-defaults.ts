// The workspace settings' defaults as plain data (no zod, no TOML parser): what a workspace runs
// with when it has no `.hci/settings.toml` and its host passes no overrides. Kept apart from the
// schema so such a host — the browser Worker, always — never loads the validation code (zod and
// smol-toml are most of the Worker's JS otherwise). settings.ts builds its schema's defaults from
// these and owns every key's meaning and validation; test/settings-defaults.test.ts keeps the two equal.
import type { Settings } from './settings.ts';
import { DEFAULT_EXTENSIONS } from './languages/table.ts';

/** Every language-table row's default extensions (core/languages/table.ts). */
export const DEFAULT_INCLUDE_EXTENSIONS: string[] = [...DEFAULT_EXTENSIONS];

export const DEFAULT_EXCLUDE_PATH_SEGMENTS = [
  'bin', 'obj', 'node_modules', '.git', '.vs', '.idea', '.hci', '.vscode-test',
  'packages', '.nuget', 'TestResults', '.cache', '.angular', '.next', '.turbo', '.parcel-cache',
  'coverage', '__pycache__', '.gradle', '.terraform',
];

/** The longest `lock_timeout_ms` accepted: 10 minutes. */
export const MAX_LOCK_TIMEOUT_MS = 600_000;

/** Each key's default (settings.ts: what it means and what it accepts; defaultSettings() checks the type). */
export const SETTINGS_DEFAULTS = Object.freeze({
  include_extensions: DEFAULT_INCLUDE_EXTENSIONS,
  exclude_extensions: [] as string[],
  exclude_path_segments: DEFAULT_EXCLUDE_PATH_SEGMENTS,
  ignore_files: ['.gitignore', '.hciignore'],
  extra_include_roots: [] as string[],
  max_indexed_file_bytes: 512 * 1024,
  max_files: 200_000,
  chunk_lines: 110,
  chunk_overlap_lines: 15,
  binary_probe_bytes: 8192,
  include_cs_in_fts: true,
  test_path_penalty: 0.75,
  generated_path_penalty: 0.5,
  max_hits_per_file: 2,
  lock_timeout_ms: 10_000,
});

/** A fresh copy of the defaults (callers may change their copy). */
export function defaultSettings(): Settings {
  return structuredClone(SETTINGS_DEFAULTS);
}
