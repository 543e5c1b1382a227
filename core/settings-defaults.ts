// The settings every workspace has when `.hci/settings.toml` and the caller set nothing: the
// default of every key, as a plain object. Kept apart from the schema (settings.ts, zod and the TOML
// parser) so a workspace without settings opens without loading either; settings.ts declares each
// key's default from here (HciWorkspace.open and settings.ts's defaultSettings() take these as a
// Settings, so a key without a default does not compile), and test/settings.test.ts checks the
// schema's defaults are exactly these.
import { DEFAULT_EXTENSIONS } from './languages/table.ts';

/** Every language-table row's default extensions (core/languages/table.ts). */
export const DEFAULT_INCLUDE_EXTENSIONS: string[] = [...DEFAULT_EXTENSIONS];

export const DEFAULT_EXCLUDE_PATH_SEGMENTS = [
  'bin', 'obj', 'node_modules', '.git', '.vs', '.idea', '.hci', '.vscode-test',
  'packages', '.nuget', 'TestResults', '.cache', '.angular', '.next', '.turbo', '.parcel-cache',
  'coverage', '__pycache__', '.gradle', '.terraform',
];

/** Read-only by convention: settingDefaults() hands out copies. */
export const SETTING_DEFAULTS = {
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
};

/** A fresh copy of the defaults (the caller may change its lists). */
export function settingDefaults(): typeof SETTING_DEFAULTS {
  return structuredClone(SETTING_DEFAULTS);
}
