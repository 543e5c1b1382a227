// Workspace settings: defaults, validation and parsing of `.hci/settings.toml` (snake_case keys).
// Owns the meaning of every key; reading the file from disk is the caller's job.
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { HciError } from './platform.ts';
import { DEFAULT_EXTENSIONS } from './languages/table.ts';

/** Every language-table row's default extensions (core/languages/table.ts). */
export const DEFAULT_INCLUDE_EXTENSIONS: string[] = [...DEFAULT_EXTENSIONS];

export const DEFAULT_EXCLUDE_PATH_SEGMENTS = [
  'bin', 'obj', 'node_modules', '.git', '.vs', '.idea', '.hci', '.vscode-test',
  'packages', '.nuget', 'TestResults', '.cache', '.angular', '.next', '.turbo', '.parcel-cache',
  'coverage', '__pycache__', '.gradle', '.terraform',
];

const extension = z
  .string()
  .min(1)
  .transform((s) => (s.startsWith('.') ? s : `.${s}`).toLowerCase());

const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.split(/[\\/]/).includes('..'), {
    message: 'must be a workspace-relative path without ".."',
  })
  .transform((p) => p.replace(/\\/g, '/').replace(/\/+$/, ''));

const settingsShape = z
  .object({
    include_extensions: z.array(extension).default(DEFAULT_INCLUDE_EXTENSIONS),
    exclude_extensions: z.array(extension).default([]),
    exclude_path_segments: z.array(z.string().min(1)).default(DEFAULT_EXCLUDE_PATH_SEGMENTS),
    ignore_files: z.array(z.string().min(1)).default(['.gitignore', '.hciignore']),
    extra_include_roots: z.array(relPath).default([]),
    max_indexed_file_bytes: z.number().int().positive().default(512 * 1024),
    max_files: z.number().int().positive().default(200_000),
    chunk_lines: z.number().int().min(5).max(2000).default(110),
    chunk_overlap_lines: z.number().int().min(0).default(15),
    binary_probe_bytes: z.number().int().positive().default(8192),
    include_cs_in_fts: z.boolean().default(true),
    test_path_penalty: z.number().min(0).max(1).default(0.75),
    generated_path_penalty: z.number().min(0).max(1).default(0.5),
    max_hits_per_file: z.number().int().min(1).default(2),
    lock_timeout_ms: z.number().int().min(0).default(10_000),
    literal_index: z.boolean().default(false),
    literal_budget_ms: z.number().int().min(10).max(600_000).default(2000),
  })
  .strict();

export const settingsSchema = settingsShape.refine((s) => s.chunk_overlap_lines < s.chunk_lines, {
    message: 'chunk_overlap_lines must be smaller than chunk_lines',
    path: ['chunk_overlap_lines'],
  });

export type Settings = z.output<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

/** Validates a plain object (e.g. from an API caller) into complete settings. */
export function validateSettings(input: unknown, source = 'settings'): Settings {
  const result = settingsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const where = i.path.length ? i.path.join('.') : '(top level)';
    return `${where}: ${i.message}`;
  });
  throw new HciError(
    'invalid_settings',
    `${source} is invalid: ${problems.join('; ')}`,
    `known keys: ${Object.keys(settingsShape.shape).join(', ')}`,
  );
}

/** Parses the text of `.hci/settings.toml`. */
export function parseSettingsToml(text: string, source = '.hci/settings.toml'): Settings {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (e) {
    const msg = e instanceof TomlError ? e.message.split('\n')[0] : String(e);
    throw new HciError('invalid_settings', `${source} is not valid TOML: ${msg}`, 'fix the syntax or delete the file to use defaults');
  }
  return validateSettings(data, source);
}
